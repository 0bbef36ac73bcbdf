/**
 * The labelled file inputs that open a workspace: several `events.json`
 * files, or a whole folder (a JP `.jp/conversations` directory, or one
 * conversation's folder).
 */
import type { ChangeEvent } from 'react';
import { openWorkspace } from '../../state/workspace.ts';

// `webkitdirectory` is not in React's input attributes; spread so it reaches the DOM.
const FOLDER_PICKER = { webkitdirectory: '', directory: '' };

function onPick(event: ChangeEvent<HTMLInputElement>): void {
  const files = Array.from(event.currentTarget.files ?? []);
  // Clear so picking the same files again still fires a change.
  event.currentTarget.value = '';
  if (files.length > 0) void openWorkspace(files);
}

/** "Open files" and "Open folder". */
export function WorkspaceOpenButtons() {
  return (
    <span className="ws-openers">
      <label
        className="button file-button"
        title="Open several events.json files together: their savings add up per tool"
      >
        Open files
        <input
          type="file"
          multiple
          accept=".json,application/json"
          className="visually-hidden"
          onChange={onPick}
        />
      </label>
      <label
        className="button file-button"
        title="Open a JP conversations folder (.jp/conversations): every conversation in it, titled from its metadata.json"
      >
        Open folder
        <input
          type="file"
          multiple
          className="visually-hidden"
          onChange={onPick}
          {...FOLDER_PICKER}
        />
      </label>
    </span>
  );
}
