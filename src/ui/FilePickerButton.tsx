/**
 * A button that opens the browser's file picker: a label around a hidden
 * file input, so it is one focusable control with the button's look. Every
 * file and folder opener of the page is one of these.
 */
import type { ReactNode } from 'react';

// `webkitdirectory` is not in React's input attributes; spread so it reaches the DOM.
const FOLDER_PICKER = { webkitdirectory: '', directory: '' };

/** Props of {@link FilePickerButton}. */
export interface FilePickerButtonProps {
  /** The button's text. */
  children: ReactNode;
  /** Called with the picked files; never with none. */
  onPick: (files: File[]) => void;
  /** A tooltip saying what opening does. */
  title?: string;
  /** Let several files be picked at once. */
  multiple?: boolean;
  /** Pick a folder (every file in it) instead of files. */
  folder?: boolean;
}

/** The file picker button. JSON files only, unless it picks a folder. */
export function FilePickerButton({
  children,
  onPick,
  title,
  multiple,
  folder,
}: FilePickerButtonProps) {
  return (
    <label className="button file-button" title={title}>
      {children}
      <input
        type="file"
        multiple={multiple || folder}
        {...(folder ? FOLDER_PICKER : { accept: '.json,.jsonl,.lhar,application/json' })}
        className="visually-hidden"
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          // Clear so picking the same file again still fires a change.
          event.currentTarget.value = '';
          if (files.length > 0) onPick(files);
        }}
      />
    </label>
  );
}
