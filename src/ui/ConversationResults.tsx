/**
 * The conversation's results region in the right column: a polite status
 * line with the headline figure, then the registered panes, each told
 * whether it is in view (only panes in view compute their extras). `aria-busy` is "true" from the first edit until the run
 * for the current input has finished, so tests and assistive technology
 * never read stale figures as current.
 */

import { memo, useRef } from 'react';
import { SHORT_AGENT_SESSION_WORDS } from '../core/config/guidance.ts';
import { getFilePolicy, type PolicyName } from '../core/replay/policies/policies.ts';
import { describeSessionMoney } from '../core/replay/presentation.ts';
import { flushAnalysis } from '../state/actions.ts';
import { selectConfigGuidance } from '../state/guidance.ts';
import {
  selectIsBusy,
  selectReplayChoice,
  selectSaved,
  selectStatusMessage,
} from '../state/selectors.ts';
import { setReplayChoice } from '../state/share-actions.ts';
import { useAppStore } from '../state/store.ts';
import { AboutButton } from './about/AboutPanel.tsx';
import { ExportMenu } from './exports/ExportMenu.tsx';
import { ErrorBoundary } from './feedback/ErrorBoundary.tsx';
import { ImportProgress } from './ImportProgress.tsx';
import { ImportSummary } from './ImportSummary.tsx';
import { PANES, type PaneDefinition } from './panes-registry.ts';
import { revealPane } from './reveal-pane.ts';
import { ResultsRegion, StatusBar } from './StatusBar.tsx';
import { PaneInView, useExtra, useInView } from './use-extra.ts';

/**
 * Why nothing is saved, when nothing is: the config's first warning on this
 * stream (a rule whose range is empty, an inert hint), else what the
 * compacted turns hold (`guidance/nothing-removed`), else its first info.
 */
function useZeroSavingReason(): string | null {
  const zero = useAppStore((s) => selectSaved(s)?.tokens === 0 && s.error === null);
  const guidance = useAppStore((s) => selectConfigGuidance(s).diagnostics);
  if (!zero) return null;
  const first =
    guidance.find((d) => d.severity === 'warning') ??
    guidance.find((d) => d.code === 'guidance/nothing-removed') ??
    guidance.find((d) => d.severity === 'info');
  return first ? first.message : null;
}

/**
 * Brings the cost pane into view on the opened file's own runtime policy:
 * the answer to "JP compacts whole turns… Your runtime clears within the
 * turn" (issue 22).
 */
function showRuntimeReplay(policy: PolicyName): void {
  setReplayChoice({ policy: { name: policy, set: [] } });
  showCostPane();
}

/** Brings the cost pane into view and its heading into focus: cost is one step from the top. */
function showCostPane(): void {
  revealPane('pane-cost');
}

function StatusLine() {
  const figures = useAppStore(selectStatusMessage);
  const reason = useZeroSavingReason();
  const message = reason ? `${figures} ${reason}` : figures;
  const runtime = useAppStore((s) => getFilePolicy(s.importSummary?.format));
  const linkRuntime = runtime !== 'jp' && reason?.includes(SHORT_AGENT_SESSION_WORDS) === true;
  const busy = useAppStore(selectIsBusy);
  const estimated = useAppStore((s) => s.estimatedWhile !== null);
  const stale = useAppStore((s) => s.isStale && s.result !== null && s.status !== 'running');
  // Stays until a run succeeds, so a keyboard user's focus stays on it while it runs.
  const failed = useAppStore((s) => s.error !== null);
  return (
    <StatusBar message={message} testId="status-line" trailing={<ExportMenu />}>
      {linkRuntime ? (
        <button
          type="button"
          className="small"
          data-testid="runtime-replay-link"
          onClick={() => showRuntimeReplay(runtime)}
        >
          Here is what {runtime} does
        </button>
      ) : null}
      {failed ? (
        <button
          type="button"
          className="small"
          aria-disabled={busy}
          onClick={() => {
            if (!busy) void flushAnalysis();
          }}
        >
          Try again
        </button>
      ) : null}
      {busy ? (
        <span className="badge busy" aria-hidden="true" data-testid="busy-badge">
          {estimated ? 'Counting tokens…' : 'Updating…'}
        </span>
      ) : null}
      {stale ? <span className="badge stale">Last valid results</span> : null}
    </StatusBar>
  );
}

/** One pane's section; it tells the pane whether it is in view, so that only panes in view compute. */
function PaneSection({ pane }: { pane: PaneDefinition }) {
  const { id, title, width, Component } = pane;
  const ref = useRef<HTMLElement>(null);
  const inView = useInView(ref);
  return (
    <section
      ref={ref}
      id={`pane-${id}`}
      className={`pane pane-${width}`}
      aria-labelledby={`pane-${id}-title`}
      data-in-view={inView ? 'true' : 'false'}
    >
      <h2 id={`pane-${id}-title`} tabIndex={-1}>
        {title}
      </h2>
      <ErrorBoundary label={`the ${title} pane`}>
        <PaneInView value={inView}>
          <Component />
        </PaneInView>
      </ErrorBoundary>
    </section>
  );
}

/**
 * The registered panes. Memoised: the results region re-renders whenever the
 * busy flag flips (every edit), and the panes must not re-render with it;
 * each subscribes to exactly what it shows.
 */
const Panes = memo(function Panes() {
  return (
    <div className="panes">
      {PANES.map((pane) => (
        <PaneSection key={pane.id} pane={pane} />
      ))}
    </div>
  );
});

/**
 * What the headline is out of, in a sentence: it counts one request (the
 * next), while a newcomer reads it as the whole session; the money line
 * under it adds every request up.
 */
function HeadlineScope() {
  const before = useAppStore((s) => selectSaved(s)?.before ?? null);
  if (before === null) return null;
  return (
    <p className="fine-print headline-scope" data-testid="headline-scope">
      That is one request, the next. Every earlier request carried its context too: the cost over
      the session adds them all up.
    </p>
  );
}

/**
 * The answer in money (issue 41): what the session cost (its bill where the
 * file recorded it, else modelled, said which) and the cheapest alternative
 * the replay found, with the jump to the cost pane. It asks for the cost
 * pane's own replay (the same arguments), so the two never differ and the
 * worker computes it once; like every extra, after the figures.
 */
function MoneyLine() {
  const choice = useAppStore(selectReplayChoice);
  const view = useExtra('replay', choice);
  const replay = view.value?.status === 'ok' ? view.value.replay : null;
  const money = replay ? describeSessionMoney(replay) : null;
  return (
    <div className="money-line" data-testid="money-line" aria-busy={view.busy ? 'true' : 'false'}>
      {money ? (
        <p>
          <span data-testid="session-cost">{money.cost}</span>{' '}
          <span data-testid="cheapest-alternative">{money.cheapest}</span>
        </p>
      ) : (
        <p className="fine-print">
          {view.busy ? 'Pricing the session…' : 'The cost over the session is in the Cost pane.'}
        </p>
      )}
      <button type="button" className="small" onClick={showCostPane}>
        Cost, request by request
      </button>
    </div>
  );
}

/** The results region. */
export function ConversationResults({ id }: { id: string }) {
  const busy = useAppStore(selectIsBusy);
  const status = useAppStore((s) => s.status);
  const stale = useAppStore((s) => s.isStale);
  const progressSeen = useAppStore((s) => s.importProgressSeen);
  return (
    <ResultsRegion
      id={id}
      className="results"
      label="Results"
      busy={busy}
      status={status}
      stale={stale}
      data-import-progress-seen={progressSeen ? 'true' : 'false'}
    >
      <StatusLine />
      <HeadlineScope />
      <MoneyLine />
      <ImportProgress />
      <ImportSummary />
      <p className="fine-print" data-testid="newcomer-words">
        JP is an open-source LLM command line that keeps each conversation as a stream of events; a
        turn is one prompt of yours and everything the model did to answer it. Compaction shortens
        older turns before a request is sent.{' '}
        <AboutButton className="link-button">How compaction works</AboutButton>
      </p>
      <p className="fine-print">
        Change a tool's hint in the config (for example <code>compaction = "strip-responses"</code>{' '}
        under <code>[conversation.tools.fs_read_file]</code>) and watch its row and the transcript
        change, or open an example, your own <code>events.json</code>, or a Claude Code, Codex,
        Gemini CLI, OpenCode or API transcript.
      </p>
      <Panes />
    </ResultsRegion>
  );
}
