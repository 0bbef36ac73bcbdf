/**
 * The dialog for a link or playground file that could not be used: what
 * happened, and what the playground shows instead. The app behind it keeps
 * working; closing the dialog is all there is to do.
 */
import { useId, useRef } from 'react';
import type { LinkProblem } from '../../state/app-state.ts';
import { dismissLinkProblem } from '../../state/share-actions.ts';
import { useAppStore } from '../../state/store.ts';
import { ModalDialog } from '../feedback/ModalDialog.tsx';

/** Props of {@link LinkErrorDialog}. */
export interface LinkErrorDialogProps {
  problem: LinkProblem;
  onClose: () => void;
}

/** The dialog for one problem. */
export function LinkErrorDialog({ problem, onClose }: LinkErrorDialogProps) {
  const whatId = useId();
  const ok = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog title={problem.title} onClose={onClose} initialFocus={ok} describedBy={whatId}>
      <p id={whatId}>{problem.what}</p>
      <p>{problem.loadedInstead}</p>
      <p className="cp-note">
        If someone sent it to you, ask them for the link again, or for a playground file (File, then
        Download playground file), which holds the same state and cannot be cut off.
      </p>
      <div className="cp-modal-actions">
        <button ref={ok} type="button" className="primary" onClick={onClose}>
          Continue
        </button>
      </div>
    </ModalDialog>
  );
}

/** The dialog, open while the store holds a link problem. */
export function LinkProblemDialog() {
  const problem = useAppStore((s) => s.linkProblem);
  if (!problem) return null;
  return <LinkErrorDialog problem={problem} onClose={dismissLinkProblem} />;
}
