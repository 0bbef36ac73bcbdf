/**
 * Values derived from the store. Selectors that build a new object or array
 * are memoised on their inputs' identity, so `useAppStore(sel)` gets the same
 * reference back while nothing changed (React would otherwise re-render, or
 * loop, on every store update).
 */

import { isSameCompaction } from '../core/compaction/creation.ts';
import { describeChangedReadings, getChangedReadings } from '../core/compaction/readings.ts';
import { formatTurnRange } from '../core/config/range.ts';
import { formatCount, formatSaving } from '../core/counting/format.ts';
import { savedPercent } from '../core/counting/report.ts';
import type { PlaygroundInput } from '../core/playground/playground.ts';
import type { TimelineEntry } from '../core/playground/types.ts';
import { getFilePolicy } from '../core/replay/policies/policies.ts';
import type { ReplayChoice } from '../core/replay/schedules.ts';
import type { Diagnostic, Encoding } from '../core/types.ts';
import type { WorkspaceSettings } from '../worker/shared/workspace-protocol.ts';
import type { AppState } from './app-state.ts';

/** Which editor a diagnostic belongs to. */
export type EditorId = 'config' | 'stream';

/** A diagnostic with the editor it points into. */
export interface Problem extends Diagnostic {
  source: EditorId;
  /** Guidance of the config text before the edit whose run is on its way (`selectListedGuidance`). */
  stale?: boolean;
}

/** Memoises a selector on the identity of the values `deps` picks. */
function memoOn<D extends readonly unknown[], T>(
  deps: (state: AppState) => D,
  compute: (values: D) => T,
): (state: AppState) => T {
  let last: { values: D; result: T } | null = null;
  return (state) => {
    const values = deps(state);
    if (last && values.every((value, i) => Object.is(value, last?.values[i]))) return last.result;
    const result = compute(values);
    last = { values, result };
    return result;
  };
}

/** The input a run computes from. */
export const selectInput = memoOn(
  (s) =>
    [
      s.configText,
      s.streamText,
      s.encoding,
      s.tokenizer,
      s.now,
      s.view,
      s.readings,
      s.importSummary?.format ?? null,
    ] as const,
  ([
    configText,
    streamText,
    encoding,
    tokenizer,
    now,
    view,
    readings,
    importedFrom,
  ]): PlaygroundInput => ({
    configText,
    streamText,
    encoding,
    tokenizer,
    now,
    view,
    readings: getChangedReadings(readings),
    // The stream editor holds an import's JP events: guidance still knows whose session it is.
    ...(importedFrom !== null && importedFrom !== 'jp' ? { importedFrom } : {}),
  }),
);

/** True while a run is scheduled or computing: drives `aria-busy`. */
export const selectIsBusy = (s: AppState): boolean =>
  s.status === 'running' || s.importProgress !== null;

/** Both editors' diagnostics, config first, each in position order. */
export const selectProblems = memoOn(
  (s) => [s.configDiagnostics, s.streamDiagnostics] as const,
  ([config, stream]): Problem[] => [
    ...config.map((d): Problem => ({ ...d, source: 'config' })),
    ...stream.map((d): Problem => ({ ...d, source: 'stream' })),
  ],
);

/** How many of the current problems are errors. */
export const selectErrorCount = (s: AppState): number =>
  s.configDiagnostics.filter((d) => d.severity === 'error').length +
  s.streamDiagnostics.filter((d) => d.severity === 'error').length;

/** The encoding the last result used (auto resolved), or null before any result. */
export const selectEncodingInUse = (s: AppState): Encoding | null => s.result?.encoding ?? null;

/**
 * How many of the Advanced settings are not their defaults: "now", the
 * view, and the readings (one, however many changed). Not the encoding:
 * an example or a file sets it to what its text is, not a person.
 */
export const selectExpertSettingsChanged = (s: AppState): number =>
  (s.now !== null ? 1 : 0) +
  (s.view !== 'sanitized' ? 1 : 0) +
  (Object.keys(getChangedReadings(s.readings)).length > 0 ? 1 : 0);

/** The tool names the stream and config mention, for completion and pickers. */
export const selectToolNames = memoOn(
  (s) => [s.result?.tools] as const,
  ([tools]): string[] => (tools ?? []).map((tool) => tool.name),
);

/** The total saving of the last good result, or null before any. */
export const selectSaved = memoOn(
  (s) => [s.result?.report.totals] as const,
  ([totals]): { tokens: number; before: number; after: number; percent: number } | null =>
    totals
      ? {
          tokens: totals.saved.tokens,
          before: totals.before.tokens,
          after: totals.after.tokens,
          percent: savedPercent(totals.saved.tokens, totals.before.tokens),
        }
      : null,
);

/**
 * The sentence the results' `aria-live` status line announces. It changes
 * only when a run finishes, so screen readers are not told "computing" on
 * every keystroke.
 */
export const selectStatusMessage = (s: AppState): string => {
  const saved = selectSaved(s);
  const figures = saved ? formatSaving(saved.tokens, saved.percent, saved.before) : null;
  if (s.error !== null) {
    return figures ? `${s.error}. ${figures}, with the last input that worked.` : `${s.error}.`;
  }
  const errors = selectErrorCount(s);
  if (errors > 0) {
    const problems = `${errors} ${errors === 1 ? 'error' : 'errors'} in the input`;
    return figures
      ? `${problems}. ${figures}, with the last valid input.`
      : `${problems}. Nothing computed yet.`;
  }
  if (!figures) return s.status === 'idle' ? 'Nothing computed yet.' : 'Computing…';
  if (s.estimatedWhile !== null) {
    return `${figures}, estimated as characters ÷ 4 while the ${s.estimatedWhile} tokenizer counts.`;
  }
  const readings = describeChangedReadings(s.readings);
  return readings === null ? `${figures}.` : `${figures}, under D17 readings ${readings}.`;
};

// ---------------------------------------------------------------- workspace

/** The settings the workspace is counted with: every conversation's encoding is detected. */
export function selectWorkspaceSettings(s: AppState): WorkspaceSettings {
  return {
    configText: s.configText,
    encoding: 'auto',
    now: s.now,
    view: s.view,
    tokenizer: s.tokenizer,
    readings: getChangedReadings(s.readings),
  };
}

/** How many conversations could not be counted. */
export const selectFailedCount = (s: AppState): number =>
  s.workspaceConversations.filter((c) => c.status === 'failed').length;

/**
 * The sentence the workspace's `aria-live` status line announces. Constant
 * while counting (the progress bar tells the count), so screen readers hear
 * the start and the end, not every conversation.
 */
export const selectWorkspaceStatusMessage = (s: AppState): string => {
  const total = s.workspaceConversations.length;
  const conversations = `${formatCount(total)} ${total === 1 ? 'conversation' : 'conversations'}`;
  switch (s.workspaceStatus) {
    case 'empty':
      return 'No workspace open.';
    case 'loading':
      return `Counting ${conversations}…`;
    case 'refused':
      return 'This workspace is too large to open here.';
    case 'cancelled':
      return 'Counting was cancelled.';
    case 'invalid':
      return 'The config has errors: nothing counted yet.';
    case 'failed':
      return 'Counting stopped unexpectedly.';
    case 'done':
      break;
  }
  const totals = s.workspaceReport?.totals;
  if (!totals) return `Nothing counted in ${conversations}.`;
  const failed = selectFailedCount(s);
  const percent =
    totals.before.tokens === 0 ? 0 : (totals.saved.tokens / totals.before.tokens) * 100;
  // Out of what, as the single conversation's headline says: the sum of each conversation's next request.
  const figures = `${formatSaving(totals.saved.tokens, percent, totals.before.tokens, "the conversations' next requests")}, across ${formatCount(total - failed)} ${total - failed === 1 ? 'conversation' : 'conversations'}`;
  const failures = failed > 0 ? ` ${formatCount(failed)} could not be counted.` : '';
  const stale =
    s.workspaceMessage?.tone === 'error' ? ' (with the last config without errors)' : '';
  return `${figures}${stale}.${failures}`;
};
/** What Compact would append: the previewed compactions, and those that are not already stored as they are. */
export interface CompactPlan {
  /** Previewed compactions that differ from every stored one. */
  fresh: readonly TimelineEntry[];
  /** Previewed compactions identical to a stored one but for the timestamp: Compact would add nothing with them. */
  duplicates: readonly TimelineEntry[];
  stored: number;
}

/** Splits a timeline's previewed compactions into fresh ones and those identical to a stored one. */
export function getCompactPlan(timeline: readonly TimelineEntry[]): CompactPlan {
  const stored = timeline.filter((entry) => !entry.isNew);
  const fresh: TimelineEntry[] = [];
  const duplicates: TimelineEntry[] = [];
  for (const entry of timeline) {
    if (!entry.isNew) continue;
    const same = stored.some((old) => isSameCompaction(old.event, entry.event));
    (same ? duplicates : fresh).push(entry);
  }
  return { fresh, duplicates, stored: stored.length };
}

/** What Compact would do with the last result, or null before any. */
export const selectCompactPlan = memoOn(
  (s) => [s.result?.timeline] as const,
  ([timeline]): CompactPlan | null => (timeline ? getCompactPlan(timeline) : null),
);

/** The sentence that confirms a Compact: what was appended and what the stream now holds. */
export function describeCompacted(plan: CompactPlan): string {
  const ranges = plan.fresh.map((entry) => formatTurnRange(entry.event)).join(', ');
  const count = plan.fresh.length;
  const total = plan.stored + count;
  return `Appended ${count} ${count === 1 ? 'compaction' : 'compactions'} over ${ranges}; the stream now holds ${total} stored ${total === 1 ? 'compaction' : 'compactions'}.`;
}

/**
 * The cost pane's choices in force: the policy chosen, else (none chosen)
 * the policy of the runtime that wrote the opened file (issue 22), left
 * unset for a file of JP's own so its links stay as they were.
 */
export const selectReplayChoice = memoOn(
  (s) => [s.replayChoice, s.importSummary?.format ?? null] as const,
  ([choice, format]): Required<ReplayChoice> => {
    if (choice.policy) return choice;
    const own = getFilePolicy(format);
    return own === 'jp' ? choice : { ...choice, policy: { name: own, set: [] } };
  },
);
