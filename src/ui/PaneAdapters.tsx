/**
 * The adapters between the store and the presentational panes of
 * `ui/panes/`: each reads what its pane shows from the store and hands it the
 * actions to call. The panes stay free of the store, so their component
 * tests render them with plain props.
 *
 * The savings table shows the figures at once. Every other pane shows an
 * extra (`useExtra`), asked for while the pane is in view: its wrapper is
 * `aria-busy` until the extra of the latest input has arrived, and shows no
 * older one meanwhile. The diff and the explanations take their transcripts
 * through `useDeferredValue`: React renders them in slices it can interrupt,
 * so a large conversation never holds the page back. `data-current` on their
 * wrapper says whether they show the latest transcripts yet.
 */
import {
  memo,
  type ReactNode,
  useDeferredValue,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ExtraName, TranscriptsExtra } from '../core/analyses/extras.ts';
import { getReadingInfo } from '../core/compaction/readings.ts';
import { formatCount } from '../core/counting/format.ts';
import type { ToolChoice } from '../core/playground/pipeline.ts';
import type { ReadingDiff, RemovedBySanitize, TranscriptEntry } from '../core/playground/types.ts';
import { describeRequestPromptUnder, type RequestPrompt } from '../core/replay/request-prompt.ts';
import type { ReplayChoice } from '../core/replay/schedules.ts';
import {
  loadExample,
  reset,
  selectEvent,
  selectTool,
  setCompareReadings,
  setRequestView,
  setToolChoice,
  showReadingDiff,
} from '../state/actions.ts';
import type { ExtraView } from '../state/extras.ts';
import { getCompactPlan, selectReplayChoice, selectToolNames } from '../state/selectors.ts';
import { setDiffLayout, setReplayChoice } from '../state/share-actions.ts';
import { useAppStore } from '../state/store.ts';
import { useMonacoTheme, WhenEditorsReady } from './editor/WhenEditorsReady.tsx';
import { CostControls } from './panes/cost/CostControls.tsx';
import { CostFigures } from './panes/cost/CostFigures.tsx';
import { PoliciesTable, ToolsTable } from './panes/cost/CostTables.tsx';
import { CostViewProvider } from './panes/cost/CostView.tsx';
import { SweepView } from './panes/cost/SweepView.tsx';
import { DesignQuestions } from './panes/DesignQuestions.tsx';
import { ExplainPanel } from './panes/ExplainPanel.tsx';
import { RequestPicker } from './panes/RequestPicker.tsx';
import { SavingsTable } from './panes/SavingsTable.tsx';
import { Timeline } from './panes/Timeline.tsx';
import { TranscriptDiff } from './panes/TranscriptDiff.tsx';
import { WhatIfGridView } from './panes/WhatIfGrid.tsx';
import { revealPane } from './reveal-pane.ts';
import { useExtra, useShownExtra } from './use-extra.ts';
import { useMediaQuery } from './use-media-query.ts';

function NothingYet() {
  return <p className="empty">Nothing computed yet.</p>;
}

/** Why an extra has no value for the latest input, or that it is on its way. */
function ExtraPending({ view }: { view: ExtraView<ExtraName> }) {
  const hasRun = useAppStore((s) => s.runVersion > 0);
  if (view.problem === 'invalid') {
    return <p className="empty">The input has errors: fix them to see this pane.</p>;
  }
  if (view.problem === 'error') return <p className="empty">{view.message ?? 'It failed'}.</p>;
  return hasRun ? <p className="empty">Computing…</p> : <NothingYet />;
}

/**
 * The elements an extra's value rendered, not rendered again while `frozen`
 * (the value is an older input's and hidden): every keystroke starts a new
 * version, and nothing in a hidden pane changes with it.
 */
const FrozenContent = memo(
  function FrozenContent({ children }: { children: ReactNode; value: unknown; frozen: boolean }) {
    return children;
  },
  (previous, next) => next.frozen && previous.value === next.value,
);

/**
 * An extra's pane: `aria-busy` while its value for the latest input is on
 * its way. An older value stays mounted meanwhile but hidden (`extra-stale`):
 * never shown as the latest input's, and a Monaco diff is not torn down and
 * rebuilt on every edit. It is hidden with `content-visibility: hidden`, not
 * `visibility` and `inert`: those are inherited, so a keystroke restyled
 * every element of a hidden diff; skipped contents are out of the tab order,
 * the accessibility tree and find-in-page all the same, at their last size.
 * Focus inside a pane that goes stale (a what-if choice, a reset) moves to
 * the pane, not to a hidden control.
 */
function ExtraFrame<T>({
  view,
  render,
  deferred = false,
  remountWhenCurrent = false,
}: {
  view: ExtraView<ExtraName> & { value: T | null };
  render: (value: T) => ReactNode;
  /** Rendered through `useDeferredValue`: in slices React can interrupt (the transcripts). */
  deferred?: boolean;
  /**
   * Builds the frame afresh when its value becomes current (a pane cheap to
   * build, like the cost figures), not for the Monaco diff, which must stay.
   */
  remountWhenCurrent?: boolean;
}) {
  const { shown, current } = useShownExtra(view.value);
  const later = useDeferredValue(shown);
  const rendered = deferred ? later : shown;
  const frame = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!current && content.current?.contains(document.activeElement)) frame.current?.focus();
  }, [current]);
  return (
    <div ref={frame} className="extra-pane" aria-busy={view.busy ? 'true' : 'false'} tabIndex={-1}>
      {current ? null : <ExtraPending view={view} />}
      {rendered === null ? null : (
        <div
          ref={content}
          // A fresh element once current, where asked: Chromium 156 can keep a frame whose
          // class no longer hides it skipped (content-visibility) after its contents changed.
          key={remountWhenCurrent && current ? 'current' : 'frame'}
          className={current ? 'deferred-pane' : 'deferred-pane extra-stale'}
          data-current={current && rendered === view.value ? 'true' : 'false'}
          {...(current ? {} : { 'aria-hidden': true })}
        >
          <FrozenContent value={rendered} frozen={!current}>
            {render(rendered)}
          </FrozenContent>
        </div>
      )}
    </div>
  );
}

/** The transcripts both the diff and the explanations show (with the diff's reading, if any). */
function useTranscripts(enabled = true): ExtraView<'transcripts'> {
  const diffReading = useAppStore((s) => s.diffReading);
  return useExtra('transcripts', { diffReading }, enabled);
}

/** Renders the transcripts, deferred behind urgent updates. */
function TranscriptsPane({ render }: { render: (value: TranscriptsExtra) => ReactNode }) {
  return <ExtraFrame view={useTranscripts()} render={render} deferred />;
}

/**
 * Marks when new figures are in the DOM: the perf test measures from
 * `run-start` to here; `tokens-shown` once they are counted, not estimated.
 */
function useResultsShownMark(report: unknown): void {
  const estimated = useAppStore((s) => s.estimatedWhile !== null);
  useLayoutEffect(() => {
    if (!report) return;
    globalThis.performance?.mark?.('results-shown');
    if (!estimated) globalThis.performance?.mark?.('tokens-shown');
  }, [report, estimated]);
}

/** The savings table of the last good result. */
export function SavingsPane() {
  const report = useAppStore((s) => s.result?.report);
  const tools = useAppStore((s) => s.result?.tools);
  const selectedTool = useAppStore((s) => s.selectedTool);
  useResultsShownMark(report);
  if (!report || !tools) return <NothingYet />;
  return (
    <SavingsTable
      report={report}
      tools={tools}
      selectedTool={selectedTool}
      onSelectTool={selectTool}
    />
  );
}

/** Every tool under each hint choice, for the latest input. */
export function WhatIfPane() {
  const view = useExtra('whatIf', null);
  return (
    <ExtraFrame
      view={view}
      render={(grid) => <WhatIfGridView grid={grid} onChoose={setToolChoice} />}
    />
  );
}

/** D17's open questions and what each alternative changes on the current input. */
export function DesignQuestionsPane() {
  const readings = useAppStore((s) => s.readings);
  const measuring = useAppStore((s) => s.compareReadings);
  const view = useExtra('design', null, measuring);
  const effects = (measuring ? view.value : null) ?? NO_EFFECTS;
  const diffReading = useAppStore((s) => s.diffReading);
  const examples = useAppStore((s) => s.examples);
  return (
    <div className="extra-pane" aria-busy={measuring && view.busy ? 'true' : 'false'}>
      <DesignQuestions
        examples={examples}
        onOpenExample={(id) => void loadExample(id)}
        readings={readings}
        measuring={measuring}
        onMeasure={setCompareReadings}
        effects={effects}
        diffReading={diffReading}
        onShowDiff={showReadingDiff}
      />
    </div>
  );
}

const NO_EFFECTS: readonly never[] = [];

/** The names of the two sides when the diff compares two readings. */
function readingSideLabels(diff: ReadingDiff): { original: string; modified: string } {
  const info = getReadingInfo(diff.name);
  const label = info.values.find((v) => v.value === diff.value)?.label ?? diff.value;
  return {
    original: 'After compaction under the readings in force',
    modified: `After compaction with ${info.key}=${diff.value} (${label})`,
  };
}

/**
 * The banner over the diff while it compares two readings, with the way back.
 * Which side is which is the diff's own caption (one caption, never two).
 */
function ReadingDiffBanner({ diff }: { diff: ReadingDiff }) {
  return (
    <p
      className="reading-diff-banner"
      data-reading-diff={`${getReadingInfo(diff.name).key}=${diff.value}`}
    >
      Comparing two readings, not before and after.{' '}
      <button type="button" className="small" onClick={() => showReadingDiff(null)}>
        Back to before and after
      </button>
    </p>
  );
}

function changeDiffLayout(sideBySide: boolean): void {
  setDiffLayout(sideBySide ? 'side-by-side' : 'inline');
}

const NARROW_DIFF_QUERY = '(max-width: 600px)';

/** What the diff shows: the whole conversation's transcripts, or one request's prompt under a policy. */
interface DiffSides {
  before: TranscriptEntry[];
  after: TranscriptEntry[];
  removedBySanitize: RemovedBySanitize[];
  readingDiff: ReadingDiff | null;
  sideLabels: { original: string; modified: string } | null;
}

function fromTranscripts(result: TranscriptsExtra): DiffSides {
  const diff = result.readingDiff;
  return {
    before: diff ? result.after : result.before,
    after: diff ? diff.after : result.after,
    removedBySanitize: result.removedBySanitize,
    readingDiff: diff,
    sideLabels: diff ? readingSideLabels(diff) : null,
  };
}

function fromRequestPrompt(prompt: RequestPrompt): DiffSides {
  const under = describeRequestPromptUnder(prompt.under);
  const changed = `${prompt.replaced} ${prompt.under.kind === 'policy' ? 'replaced' : 'compacted'}`;
  return {
    before: prompt.before,
    after: prompt.after,
    removedBySanitize: NO_REMOVED,
    readingDiff: null,
    sideLabels: {
      original: `Request ${prompt.request}: its prompt with nothing removed (${formatCount(prompt.billedTokens.before)} tokens billed)`,
      modified: `Request ${prompt.request} under ${under}: what the model would have seen (${changed}; ${formatCount(prompt.billedTokens.after)} tokens billed)`,
    },
  };
}

/**
 * The before/after transcript diff; mounts once Monaco has loaded. With a
 * schedule or policy chosen (the picker, or a row, point or cell of the
 * cost pane) it shows one request's prompt instead (the `requestPrompt`
 * extra, asked for only then), in the same diff editor: one editor for
 * both, never torn down when the choice changes.
 */
export function DiffPane() {
  const selectedTool = useAppStore((s) => s.selectedTool);
  const selectedEventKey = useAppStore((s) => s.selectedEventKey);
  // Side by side leaves a word per line on a phone: inline there, whatever the link says.
  const narrow = useMediaQuery(NARROW_DIFF_QUERY);
  const sideBySide = useAppStore((s) => s.diffLayout === 'side-by-side') && !narrow;
  const theme = useMonacoTheme();
  const choice = useAppStore((s) => s.requestView);
  const toolNames = useAppStore(selectToolNames);
  // The model and prices only: a schedule chosen in the cost pane must not
  // render this pane again (a Monaco diff of a long conversation lays out
  // again for seconds).
  const model = useAppStore((s) => s.replayChoice.model);
  const price = useAppStore((s) => s.replayChoice.price);
  const calibration = useAppStore((s) => s.replayChoice.calibration);
  const prefixTokens = useAppStore((s) => s.replayChoice.prefixTokens);
  const perRequest = choice.policy !== null;
  const transcripts = useTranscripts(!perRequest);
  const requestView = useExtra(
    'requestPrompt',
    {
      request: choice.request,
      policy: { name: choice.policy ?? 'jp', set: choice.set },
      schedule: choice.schedule,
      toolChoice: choice.toolChoice,
      model,
      price,
      calibration,
      prefixTokens,
    },
    perRequest,
  );
  const lastGood = useRef<RequestPrompt | null>(null);
  const requestValue = perRequest ? requestView.value : null;
  if (requestValue?.status === 'ok') lastGood.current = requestValue.value;
  const prompt = requestValue?.status === 'ok' ? requestValue.value : null;
  const sides = useMemo(
    () =>
      perRequest
        ? prompt
          ? fromRequestPrompt(prompt)
          : null
        : transcripts.value
          ? fromTranscripts(transcripts.value)
          : null,
    [perRequest, prompt, transcripts.value],
  );
  // A parameter that does not read is said by the picker; the last good request stays in view.
  const lastSides = useRef<DiffSides | null>(null);
  if (sides) lastSides.current = sides;
  const invalid = requestValue?.status === 'invalid';
  const view = perRequest
    ? {
        ...requestView,
        value: invalid ? lastSides.current : sides,
        busy: invalid ? false : requestView.busy,
      }
    : { ...transcripts, value: sides };
  return (
    <>
      <RequestPicker
        choice={choice}
        onChange={setRequestView}
        tools={toolNames}
        shown={perRequest ? lastGood.current : null}
        problem={requestValue?.status === 'invalid' ? requestValue.message : null}
      />
      <ExtraFrame
        view={view}
        deferred
        render={(shown) => (
          <WhenEditorsReady>
            {shown.readingDiff ? <ReadingDiffBanner diff={shown.readingDiff} /> : null}
            <TranscriptDiff
              before={shown.before}
              after={shown.after}
              {...(shown.sideLabels ? { sideLabels: shown.sideLabels } : {})}
              removedBySanitize={shown.removedBySanitize}
              selectedTool={selectedTool}
              onSelectTool={selectTool}
              selectedEventKey={selectedEventKey}
              onSelectEvent={selectEvent}
              theme={theme}
              sideBySide={sideBySide}
              onSideBySideChange={changeDiffLayout}
            />
          </WhenEditorsReady>
        )}
      />
    </>
  );
}

const NO_REMOVED: never[] = [];

/** Why the selected event looks as it does, or the list to pick one from. */
export function ExplainPane() {
  const selectedEventKey = useAppStore((s) => s.selectedEventKey);
  return (
    <TranscriptsPane
      render={(result) => (
        <ExplainPanel
          before={result.before}
          after={result.after}
          selectedEventKey={selectedEventKey}
          onSelectEvent={selectEvent}
        />
      )}
    />
  );
}

function resetOne(position: number | null): void {
  void reset(position);
}

/** The compaction events, stored and previewed, the rules' plans and JP's dry run. */
export function TimelinePane() {
  const result = useAppStore((s) => s.result);
  const base = useAppStore((s) => s.readings.base);
  const view = useExtra('timeline', null);
  if (!result) return <NothingYet />;
  return (
    <ExtraFrame
      view={view}
      render={({ jpDryRun }) => (
        <Timeline
          timeline={result.timeline}
          plans={result.plans}
          usesBuiltinRule={result.usesBuiltinRule}
          jpDryRun={jpDryRun}
          base={base}
          identical={getCompactPlan(result.timeline).duplicates}
          onReset={resetOne}
        />
      )}
    />
  );
}

/**
 * What the conversation cost, request by request (the `replay` extra): the
 * controls stay put while it computes; a model or price that does not read
 * says so and keeps the last good replay in view. The policies side by side
 * (`replayPolicies`) and the per-tool what-if (`replayTools`) are asked for
 * only while their sections are open, and only once the figures have
 * arrived: the worker answers the figures first.
 */
export function CostPane() {
  const choice = useAppStore(selectReplayChoice);
  const theme = useAppStore((s) => s.theme);
  const view = useExtra('replay', choice);
  const [policiesOpen, setPoliciesOpen] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [sweepOpen, setSweepOpen] = useState(false);
  const figuresHere = view.value !== null;
  const pricing = {
    model: choice.model,
    price: choice.price,
    calibration: choice.calibration,
    prefixTokens: choice.prefixTokens,
  };
  const underJp = (choice.policy?.name ?? 'jp') === 'jp';
  const policiesView = useExtra('replayPolicies', pricing, policiesOpen && figuresHere);
  const toolsView = useExtra(
    'replayTools',
    { ...pricing, schedule: choice.schedule },
    toolsOpen && figuresHere && underJp,
  );
  const sweepView = useExtra('replaySweep', pricing, sweepOpen && figuresHere);
  const replay = useLastGood(view.value, (v) => (v.status === 'ok' ? v.replay : undefined));
  const sweep = useLastGood(sweepView.value, (v) => (v.status === 'ok' ? v.sweep : undefined));
  const comparison = useLastGood(policiesView.value, (v) =>
    v.status === 'ok' ? v.comparison : undefined,
  );
  const tools = useLastGood(toolsView.value, (v) => (v.status === 'ok' ? v.tools : undefined));
  const problem = view.value?.status === 'invalid' ? view.value.message : null;
  return (
    <CostViewProvider>
      <CostControls
        choice={choice}
        onChange={setReplayChoice}
        problem={problem}
        lastGoodShown={replay !== null}
        recordedModel={choice.model === null && choice.price === null ? replay?.model : undefined}
      />
      <ExtraFrame
        view={view}
        remountWhenCurrent
        render={() =>
          replay ? (
            <CostFigures
              replay={replay}
              comparison={
                policiesOpen && policiesView.value?.status === 'ok'
                  ? policiesView.value.comparison
                  : null
              }
              policies={{
                open: policiesOpen,
                onToggle: setPoliciesOpen,
                content: (
                  <ExtraFrame
                    view={policiesView}
                    render={() =>
                      comparison ? (
                        <PoliciesTable rows={comparison} baseline={replay.totals.baseline.cost} />
                      ) : null
                    }
                  />
                ),
              }}
              sweep={{
                open: sweepOpen,
                onToggle: setSweepOpen,
                content: (
                  <ExtraFrame
                    view={sweepView}
                    render={() => (sweep ? <SweepView sweep={sweep} theme={theme} /> : null)}
                  />
                ),
              }}
              tools={{
                open: toolsOpen,
                onToggle: setToolsOpen,
                content: (
                  <ExtraFrame
                    view={toolsView}
                    render={() =>
                      tools ? (
                        <ToolsTable
                          tools={tools}
                          schedule={replay.schedule}
                          onOpenPrompt={(tool, hint) =>
                            openRequest(choice, null, { tool, choice: hint })
                          }
                        />
                      ) : null
                    }
                  />
                ),
              }}
              theme={theme}
              onOpenRequest={(request) => openRequest(choice, request)}
            />
          ) : null
        }
      />
    </CostViewProvider>
  );
}

/**
 * Opens one request's prompt in the diff pane under the cost pane's
 * choice (JP's schedule, with a tool's what-if hint, or the runtime's
 * policy with its parameters), and brings the diff into view.
 */
function openRequest(
  choice: ReplayChoice,
  request: number | null,
  toolChoice: ToolChoice | null = null,
): void {
  const policy = choice.policy?.name ?? 'jp';
  setRequestView({
    policy,
    set: policy === 'jp' ? [] : [...(choice.policy?.set ?? [])],
    schedule: choice.schedule,
    toolChoice,
    request,
  });
  revealPane('pane-diff');
}

/**
 * The part of an extra's answer to show: the latest one's when it has it,
 * else the last that did (a model or price that does not read keeps the
 * last good figures in view; the controls say why).
 */
function useLastGood<R, V>(value: R | null, pick: (value: R) => V | undefined): V | null {
  const last = useRef<V | null>(null);
  const picked = value === null ? undefined : pick(value);
  if (picked !== undefined) last.current = picked;
  return last.current;
}
