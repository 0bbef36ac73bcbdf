/**
 * The header's share group: Copy link and the File menu, plus the dialog
 * for a link or file that could not be opened (it is modal, so where it is
 * mounted does not matter; it lives with the share controls).
 */
import { LinkProblemDialog } from './LinkErrorDialog.tsx';
import { PlaygroundFileButtons } from './PlaygroundFileButtons.tsx';
import { CopyLinkButton } from './ShareDialog.tsx';

/** Copy link, File, and the link dialog. */
export function ShareTools() {
  return (
    <div className="cp-share-tools">
      <CopyLinkButton />
      <PlaygroundFileButtons />
      <LinkProblemDialog />
    </div>
  );
}
