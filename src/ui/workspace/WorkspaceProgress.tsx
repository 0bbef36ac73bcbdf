/** The progress of counting a workspace, with the button that cancels it. */
import { formatCount } from '../../core/counting/format.ts';

/** Props of {@link WorkspaceProgress}. */
export interface WorkspaceProgressProps {
  /** Conversations counted (or failed) so far. */
  done: number;
  total: number;
  onCancel: () => void;
}

/** "12 of 20 conversations", as a progress bar and in words. */
export function WorkspaceProgress({ done, total, onCancel }: WorkspaceProgressProps) {
  const words = `${formatCount(done)} of ${formatCount(total)} conversations`;
  const share = total === 0 ? 0 : Math.min(1, done / total);
  return (
    <div className="ws-progress">
      <div
        className="ws-progress-track"
        role="progressbar"
        aria-label="Counting conversations"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={words}
      >
        <span className="ws-progress-fill" style={{ width: `${share * 100}%` }} />
      </div>
      <span className="ws-progress-text">{words}</span>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
