/**
 * The right column: a polite status line with the headline figure, then the
 * registered panes. `aria-busy` is "true" from the first edit until the run
 * for the current input has finished, so tests and assistive technology
 * never read stale figures as current.
 */
import { selectIsBusy, selectStatusMessage } from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';
import { ErrorBoundary } from './feedback/ErrorBoundary.tsx';
import { PANES } from './panes-registry.ts';

function StatusLine() {
  const message = useAppStore(selectStatusMessage);
  const busy = useAppStore(selectIsBusy);
  const stale = useAppStore((s) => s.isStale && s.result !== null && s.status !== 'running');
  return (
    <div className="status-bar">
      <p className="status" role="status" aria-live="polite" data-testid="status-line">
        {message}
      </p>
      {busy ? (
        <span className="badge busy" aria-hidden="true">
          Updating…
        </span>
      ) : null}
      {stale ? <span className="badge stale">Last valid results</span> : null}
    </div>
  );
}

/** The results region. */
export function ResultsPanel({ id }: { id: string }) {
  const busy = useAppStore(selectIsBusy);
  const status = useAppStore((s) => s.status);
  const stale = useAppStore((s) => s.isStale);
  const tokenizerNote = useAppStore((s) =>
    s.tokenizer === 'chars' ? 'chars/4 is an estimate.' : null,
  );
  return (
    <section
      id={id}
      className="results"
      aria-label="Results"
      aria-busy={busy ? 'true' : 'false'}
      data-status={status}
      data-stale={stale ? 'true' : 'false'}
    >
      <StatusLine />
      <p className="fine-print">
        Counts cover message, reasoning and tool payloads, not ids or provider framing. No tokenizer
        is exact for Claude: treat those figures as approximate.
        {tokenizerNote ? ` ${tokenizerNote}` : ''}
      </p>
      <div className="panes">
        {PANES.map(({ id: paneId, title, Component }) => (
          <section
            key={paneId}
            id={`pane-${paneId}`}
            className="pane"
            aria-labelledby={`pane-${paneId}-title`}
          >
            <h2 id={`pane-${paneId}-title`}>{title}</h2>
            <ErrorBoundary label={`the ${title} pane`}>
              <Component />
            </ErrorBoundary>
          </section>
        ))}
      </div>
    </section>
  );
}
