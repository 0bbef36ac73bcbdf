/**
 * The adapters between the store and the presentational panes of
 * `ui/panes/`: each reads what its pane shows from the store and hands it the
 * actions to call. The panes stay free of the store, so their component
 * tests render them with plain props.
 *
 * The savings table shows a new result at once. The diff, the explanations
 * and the timeline take it through `useDeferredValue`: React renders them
 * after the figures are on screen, in slices it can interrupt, so a large
 * conversation never holds the figures back. `data-current` on their wrapper
 * says whether they show the latest result yet.
 */
import { type ReactNode, useDeferredValue, useLayoutEffect } from 'react';
import { getReadingInfo } from '../core/compaction/readings.ts';
import type { PlaygroundResult } from '../core/playground/playground.ts';
import type { ReadingDiff } from '../core/playground/types.ts';
import {
  reset,
  selectEvent,
  selectTool,
  setCompareReadings,
  setToolChoice,
  showReadingDiff,
} from '../state/actions.ts';
import { getCompactPlan } from '../state/selectors.ts';
import { setDiffLayout } from '../state/share-actions.ts';
import { useAppStore } from '../state/store.ts';
import { useMonacoTheme, WhenEditorsReady } from './editor/WhenEditorsReady.tsx';
import { DesignQuestions } from './panes/DesignQuestions.tsx';
import { ExplainPanel } from './panes/ExplainPanel.tsx';
import { SavingsTable } from './panes/SavingsTable.tsx';
import { Timeline } from './panes/Timeline.tsx';
import { TranscriptDiff } from './panes/TranscriptDiff.tsx';
import { WhatIfGridView } from './panes/WhatIfGrid.tsx';
import { useMediaQuery } from './use-media-query.ts';

function NothingYet() {
  return <p className="empty">Nothing computed yet.</p>;
}

/**
 * Renders a pane from the last good result, deferred behind urgent updates;
 * `data-current` says whether it shows the latest result yet.
 */
function DeferredPane({ render }: { render: (result: PlaygroundResult) => ReactNode }) {
  const latest = useAppStore((s) => s.result);
  const result = useDeferredValue(latest);
  if (!result) return <NothingYet />;
  return (
    <div className="deferred-pane" data-current={result === latest ? 'true' : 'false'}>
      {render(result)}
    </div>
  );
}

/** Marks when new figures are in the DOM: the perf test measures from `run-start` to here. */
function useResultsShownMark(report: unknown): void {
  useLayoutEffect(() => {
    if (report) globalThis.performance?.mark?.('results-shown');
  }, [report]);
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

/** Every tool under each hint choice, from the last good result. */
export function WhatIfPane() {
  const grid = useAppStore((s) => s.result?.whatIf);
  if (!grid) return <NothingYet />;
  return <WhatIfGridView grid={grid} onChoose={setToolChoice} />;
}

/** D17's open questions and what each alternative changes on the current input. */
export function DesignQuestionsPane() {
  const readings = useAppStore((s) => s.readings);
  const measuring = useAppStore((s) => s.compareReadings);
  const effects = useAppStore((s) => s.result?.readingEffects ?? NO_EFFECTS);
  const diffReading = useAppStore((s) => s.diffReading);
  return (
    <DesignQuestions
      readings={readings}
      measuring={measuring}
      onMeasure={setCompareReadings}
      effects={effects}
      diffReading={diffReading}
      onShowDiff={showReadingDiff}
    />
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

/** The banner over the diff while it compares two readings, with the way back. */
function ReadingDiffBanner({ diff }: { diff: ReadingDiff }) {
  const labels = readingSideLabels(diff);
  return (
    <p
      className="reading-diff-banner"
      data-reading-diff={`${getReadingInfo(diff.name).key}=${diff.value}`}
    >
      Comparing two readings: left, {labels.original.toLowerCase()}; right,{' '}
      {labels.modified.replace(/^After/, 'after')}.{' '}
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

/** The before/after transcript diff; mounts once Monaco has loaded. */
export function DiffPane() {
  const selectedTool = useAppStore((s) => s.selectedTool);
  const selectedEventKey = useAppStore((s) => s.selectedEventKey);
  // Side by side leaves a word per line on a phone: inline there, whatever the link says.
  const narrow = useMediaQuery(NARROW_DIFF_QUERY);
  const sideBySide = useAppStore((s) => s.diffLayout === 'side-by-side') && !narrow;
  const theme = useMonacoTheme();
  return (
    <DeferredPane
      render={(result) => (
        <WhenEditorsReady>
          {result.readingDiff ? <ReadingDiffBanner diff={result.readingDiff} /> : null}
          <TranscriptDiff
            before={result.readingDiff ? result.after : result.before}
            after={result.readingDiff ? result.readingDiff.after : result.after}
            {...(result.readingDiff ? { sideLabels: readingSideLabels(result.readingDiff) } : {})}
            removedBySanitize={result.removedBySanitize}
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
  );
}

/** Why the selected event looks as it does, or the list to pick one from. */
export function ExplainPane() {
  const selectedEventKey = useAppStore((s) => s.selectedEventKey);
  return (
    <DeferredPane
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

/** The compaction events, stored and previewed, and the rules' plans. */
export function TimelinePane() {
  return (
    <DeferredPane
      render={(result) => (
        <Timeline
          timeline={result.timeline}
          plans={result.plans}
          usesBuiltinRule={result.usesBuiltinRule}
          jpDryRun={result.jpDryRun}
          identical={getCompactPlan(result.timeline).duplicates}
          onReset={resetOne}
        />
      )}
    />
  );
}
