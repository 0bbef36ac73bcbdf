/**
 * The labelled file inputs that open a workspace: several `events.json`
 * files, or a whole folder (a JP `.jp/conversations` directory, or one
 * conversation's folder).
 */
import { openWorkspace } from '../../state/workspace.ts';
import { FilePickerButton } from '../FilePickerButton.tsx';

/** "Open files" and "Open folder". */
export function WorkspaceOpenButtons() {
  const onPick = (files: File[]) => void openWorkspace(files);
  return (
    <span className="ws-openers">
      <FilePickerButton
        multiple
        onPick={onPick}
        title="Open several events.json files together: their savings add up per tool"
      >
        Open files
      </FilePickerButton>
      <FilePickerButton
        folder
        onPick={onPick}
        title="Open a JP conversations folder (.jp/conversations): every conversation in it, titled from its metadata.json"
      >
        Open folder
      </FilePickerButton>
    </span>
  );
}
