/**
 * The offer to bring back work that a link, a playground file or an example
 * replaced, until it is taken or closed. Its host also carries how the
 * autosave stands (`data-autosave`, `data-autosaved-at`), for tests and
 * tools to wait on.
 */
import { restorePreviousWork } from '../../state/share.ts';
import { dismissRestoreOffer } from '../../state/share-actions.ts';
import '../feedback/update-notice.css';
import './share.css';
import { useAppStore } from '../../state/store.ts';

/** The restore offer, when there is one. */
export function RestoreNotice() {
  const offer = useAppStore((s) => s.restoreOffer);
  const autosave = useAppStore((s) => s.autosave.kind);
  const savedAt = useAppStore((s) => s.autosavedAt);
  return (
    <div className="restore-host" data-autosave={autosave} data-autosaved-at={savedAt ?? ''}>
      {offer ? (
        <div className="update-notice restore-notice" role="status">
          <span>The editors now hold what was opened; your previous work is kept.</span>
          <button type="button" onClick={restorePreviousWork}>
            Restore previous work
          </button>
          <button type="button" onClick={dismissRestoreOffer}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
