/**
 * Range resolution (spec 6) and summary auto-extension (spec 7): which turns
 * each rule's new compaction covers, and, when it covers none, why.
 *
 * Everything here works on 0-based turn indices. Explanations meant for people
 * speak 1-based turns, as JP's own output does (spec 2).
 */
import { getExactInteger, keepExactInteger } from '../json/number-text.ts';
import { isJsonObject } from '../json/values.ts';
import { formatTimestamp, type Instant, secondsToNanos } from '../stream/timestamp.ts';
import { classifyElement, countTurns, getTurnStarts, turnAtTime } from '../stream/turns.ts';
import type {
  CompactionRule,
  CoreBound,
  JsonValue,
  RuleBound,
  StreamElement,
  TurnRange,
} from '../types.ts';
import { trimRust } from './byte-size.ts';
import { DEFAULT_BASE, type JpBase } from './jp-base.ts';

/** An existing compaction as range resolution sees it: its turns and whether it summarizes. */
export interface ExistingCompaction extends TurnRange {
  summary: boolean;
  /** Where a summary's text came from (15.1); absent means generated. */
  source?: SummarySource;
}

/** Where a summary's text comes from (15.1, 15.5). */
export type SummarySource = 'generated' | 'authored';

/** Why JP main refuses a summary rule (15.5): an overlap with authored text, or blank text. */
export type SummaryRefusal =
  | {
      kind: 'summary-overlap';
      requested: TurnRange;
      required: TurnRange;
      newIsAuthored: boolean;
    }
  | { kind: 'blank-summary-text' };

/**
 * Why a range came out empty. Each reason carries the numbers a sentence
 * needs; `describeEmptyRange` turns it into one.
 */
export type EmptyRangeReason =
  /** The stream has no conversation events. */
  | { kind: 'no-turns' }
  /** An absolute start lies after the last turn (keep_first keeps every turn). */
  | { kind: 'start-after-last-turn'; start: number; turnCount: number }
  /** `after_last_compaction`: the existing compactions already reach the last turn. */
  | { kind: 'nothing-after-last-compaction'; start: number; turnCount: number }
  /** A `from_end(n)` end with `n` > last: keeping `n` turns at the end keeps them all. */
  | { kind: 'end-before-first-turn'; fromEnd: number; turnCount: number }
  /** The start lies after the end: the kept turns at both ends cover everything between. */
  | { kind: 'start-after-end'; start: number; end: number }
  /** A keep_last duration whose cutoff precedes every turn: the window keeps them all. */
  | { kind: 'window-covers-all'; cutoff: Instant }
  /** A keep_first duration needs the first turn's time, and it does not parse. */
  | { kind: 'first-turn-time-unknown' }
  /** A CLI-style override resolved to "nothing" (spec 6.3). */
  | { kind: 'override-empty'; side: 'from' | 'to' };

/** A resolved range, or the reason there is none. */
export type RangeResolution =
  | { range: TurnRange; reason: null }
  | { range: null; reason: EmptyRangeReason };

/** One side of a rule's range after conversion (spec 6.2): a core bound, none, or empty. */
export type BoundConversion = { bound: CoreBound | null } | { empty: EmptyRangeReason };

/**
 * An already resolved CLI override of one side of every rule's range (spec
 * 6.3), in the shape of the `range` conformance cases.
 */
export type BoundOverride = { default: true } | { at: CoreBound } | { empty: true };

/** Overrides of the from and to sides; an absent side means `{default: true}`. */
export interface RangeOverrides {
  from?: BoundOverride;
  to?: BoundOverride;
}

/** What a rule's range resolves against: the stream at invocation start (spec 6.4). */
export interface RangeContext {
  turnCount: number;
  /** The start instant of each turn (`undefined` where it does not parse). */
  turnStarts: readonly (Instant | undefined)[];
  /** "Now", for keep_last durations (spec 14.2). */
  now: Instant;
  /** The stream's compactions in stream order. */
  existingCompactions: readonly ExistingCompaction[];
}

/** How one rule's range was decided (spec 6.2 to 6.4 and 7). */
export interface RuleRangePlan {
  /** The range from keep_first/keep_last (or the overrides), before summary extension. */
  resolution: RangeResolution;
  /** The range the new compaction covers (after summary extension), or null when empty. */
  range: TurnRange | null;
  /** Whether summary extension widened the range. */
  extended: boolean;
  /** Set when JP main refuses the rule (15.5); the whole invocation is then refused. */
  refusal?: SummaryRefusal;
}

const resolved = (from_turn: number, to_turn: number): RangeResolution => ({
  range: { from_turn, to_turn },
  reason: null,
});
const empty = (reason: EmptyRangeReason): RangeResolution => ({ range: null, reason });

/**
 * The first turn after every existing compaction: max(`to_turn` + 1) over all
 * of them, whatever their policies, or 0 when there is none (spec 6.1).
 */
function turnAfterLastCompaction(existing: readonly TurnRange[]): number {
  let next = 0;
  for (const compaction of existing) next = Math.max(next, compaction.to_turn + 1);
  return next;
}

/**
 * The core resolver (spec 6.1) with the reason for an empty result. Bounds
 * are 0-based; `null` means the side is open.
 */
export function explainRange(
  turnCount: number,
  existingCompactions: readonly TurnRange[],
  from: CoreBound | null,
  to: CoreBound | null,
): RangeResolution {
  if (turnCount <= 0) return empty({ kind: 'no-turns' });
  const last = turnCount - 1;

  let start = 0;
  if (from !== null) {
    if ('absolute' in from) {
      if (from.absolute > last) {
        const reason = { kind: 'start-after-last-turn' as const, start: from.absolute, turnCount };
        return empty(withCountOf(from, 'absolute', reason, 'start'));
      }
      start = from.absolute;
    } else if ('from_end' in from) {
      // A start counted from the end saturates at the first turn.
      start = Math.max(last - from.from_end, 0);
    } else {
      const next = turnAfterLastCompaction(existingCompactions);
      if (next > last)
        return empty({ kind: 'nothing-after-last-compaction', start: next, turnCount });
      start = next;
    }
  }

  let end = last;
  if (to !== null) {
    if ('absolute' in to) {
      end = Math.min(to.absolute, last);
    } else if ('from_end' in to) {
      // Unlike the start, an end counted from the end does not saturate.
      if (to.from_end > last) {
        const reason = { kind: 'end-before-first-turn' as const, fromEnd: to.from_end, turnCount };
        return empty(withCountOf(to, 'from_end', reason, 'fromEnd'));
      }
      end = last - to.from_end;
    } else {
      end = Math.min(turnAfterLastCompaction(existingCompactions), last);
    }
  }

  if (start > end) return empty({ kind: 'start-after-end', start, end });
  return resolved(start, end);
}

/** The core resolver of spec 6.1: the inclusive 0-based range, or null when there is none. */
export function resolveRange(
  turnCount: number,
  existingCompactions: readonly TurnRange[],
  from: CoreBound | null,
  to: CoreBound | null,
): TurnRange | null {
  return explainRange(turnCount, existingCompactions, from, to).range;
}

/** A 1-based position N as a 0-based index, saturating (JP's positions are unsigned). */
const positionToIndex = (position: number): number => Math.max(position - 1, 0);

/**
 * `target` with the count at `source[sourceKey]` as written: a count past
 * 2^53 read from a config keeps its digits (rule-config.ts `exactBound`),
 * and each object that takes it on must keep them, so the sentence that
 * quotes it says `9223372036854775807`, not the double's `…776000`.
 */
function withCountOf<S extends object, T extends object>(
  source: S,
  sourceKey: keyof S & string,
  target: T,
  targetKey: keyof T & string,
): T {
  const value = source[sourceKey];
  if (typeof value === 'number') {
    keepExactInteger(target, targetKey, getExactInteger(source, sourceKey, value));
  }
  return target;
}

/** A count of a reason as written (see {@link withCountOf}). */
function exactCount<T extends object>(reason: T, key: keyof T & string): bigint {
  const value = reason[key];
  return typeof value === 'number' ? getExactInteger(reason, key, value) : 0n;
}

/** `keep_first` as the from bound of the range (spec 6.2). */
export function keepFirstToBound(context: RangeContext, keepFirst: RuleBound): BoundConversion {
  if ('turns' in keepFirst) {
    return { bound: withCountOf(keepFirst, 'turns', { absolute: keepFirst.turns }, 'absolute') };
  }
  if ('absolute' in keepFirst) return { bound: { absolute: positionToIndex(keepFirst.absolute) } };
  if ('from_end' in keepFirst) return { bound: { from_end: keepFirst.from_end } };
  if ('duration_secs' in keepFirst) {
    if (context.turnCount <= 0) return { empty: { kind: 'no-turns' } };
    // The first turn starts with the first conversation event.
    const firstStart = context.turnStarts[0];
    if (firstStart === undefined) return { empty: { kind: 'first-turn-time-unknown' } };
    const windowEnd = firstStart + secondsToNanos(keepFirst.duration_secs);
    const turn = turnAtTime(context.turnStarts, windowEnd);
    return { bound: { absolute: turn === undefined ? 0 : turn + 1 } };
  }
  return { bound: { after_last_compaction: true } };
}

/** `keep_last` as the to bound of the range (spec 6.2). */
export function keepLastToBound(context: RangeContext, keepLast: RuleBound): BoundConversion {
  if ('turns' in keepLast) {
    return { bound: withCountOf(keepLast, 'turns', { from_end: keepLast.turns }, 'from_end') };
  }
  if ('from_end' in keepLast) {
    return {
      bound: withCountOf(keepLast, 'from_end', { from_end: keepLast.from_end }, 'from_end'),
    };
  }
  if ('absolute' in keepLast) return { bound: { absolute: positionToIndex(keepLast.absolute) } };
  if ('duration_secs' in keepLast) {
    const cutoff = context.now - secondsToNanos(keepLast.duration_secs);
    const turn = turnAtTime(context.turnStarts, cutoff);
    // The turn active at the cutoff is compacted; with none, the window keeps everything.
    if (turn === undefined) return { empty: { kind: 'window-covers-all', cutoff } };
    return { bound: { absolute: turn } };
  }
  // "Keep everything since the last compaction" at the end means: no end bound.
  return { bound: null };
}

function applyOverride(
  override: BoundOverride | undefined,
  side: 'from' | 'to',
  fromRule: () => BoundConversion,
): BoundConversion {
  if (override === undefined || 'default' in override) return fromRule();
  if ('at' in override) return { bound: override.at };
  return { empty: { kind: 'override-empty', side } };
}

/**
 * One rule's range against the stream (spec 6.2), before summary extension.
 * Overrides, when given, replace the rule's from/to bounds (spec 6.3).
 */
export function resolveRuleRange(
  context: RangeContext,
  rule: Pick<CompactionRule, 'keep_first' | 'keep_last'>,
  overrides: RangeOverrides = {},
): RangeResolution {
  if (context.turnCount <= 0) return empty({ kind: 'no-turns' });
  const from = applyOverride(overrides.from, 'from', () =>
    keepFirstToBound(context, rule.keep_first),
  );
  if ('empty' in from) return empty(from.empty);
  const to = applyOverride(overrides.to, 'to', () => keepLastToBound(context, rule.keep_last));
  if ('empty' in to) return empty(to.empty);
  return explainRange(context.turnCount, context.existingCompactions, from.bound, to.bound);
}

/**
 * Summary auto-extension (spec 7): widen the range by every summary
 * compaction that intersects it, containment in either direction included,
 * until nothing changes. Adjacent ranges do not intersect; compactions
 * without a summary are ignored.
 */
export function extendSummaryRange(
  existing: readonly ExistingCompaction[],
  range: TurnRange,
): TurnRange {
  return growOverSummaries(existing, range).range;
}

/** The outcome of extending a summary range under a base (15.5). */
export type SummaryExtension =
  | { ok: true; range: TurnRange }
  | { ok: false; refusal: Extract<SummaryRefusal, { kind: 'summary-overlap' }> };

/**
 * Summary extension under a base (spec 7, 15.5). Under `2026-09` growth
 * that touches an authored summary, or any growth of an authored summary,
 * is refused; growth that is not needed (the range already covers what it
 * touches) never is. Under `2026-08` it is spec 7's extension.
 */
export function extendSummaryRangeFor(
  existing: readonly ExistingCompaction[],
  range: TurnRange,
  source: SummarySource,
  base: JpBase,
): SummaryExtension {
  const grown = growOverSummaries(existing, range);
  const same = grown.range.from_turn === range.from_turn && grown.range.to_turn === range.to_turn;
  if (same || base === '2026-08' || (source !== 'authored' && !grown.touchesAuthored)) {
    return { ok: true, range: grown.range };
  }
  return {
    ok: false,
    refusal: {
      kind: 'summary-overlap',
      requested: { ...range },
      required: grown.range,
      newIsAuthored: source === 'authored',
    },
  };
}

/** Spec 7's fixpoint, noting whether it met an authored summary (15.5 step 1). */
function growOverSummaries(
  existing: readonly ExistingCompaction[],
  range: TurnRange,
): { range: TurnRange; touchesAuthored: boolean } {
  let from = range.from_turn;
  let to = range.to_turn;
  let touchesAuthored = false;
  let changed = true;
  while (changed) {
    changed = false;
    for (const compaction of existing) {
      if (!compaction.summary) continue;
      if (from > compaction.to_turn || to < compaction.from_turn) continue;
      if (compaction.source === 'authored') touchesAuthored = true;
      if (compaction.from_turn < from) {
        from = compaction.from_turn;
        changed = true;
      }
      if (compaction.to_turn > to) {
        to = compaction.to_turn;
        changed = true;
      }
    }
  }
  return { range: { from_turn: from, to_turn: to }, touchesAuthored };
}

/** A rule's verbatim summary text (15.4), under `2026-09` only; `undefined` for a generated summary. */
export function getVerbatimSummaryText(
  rule: Pick<CompactionRule, 'summary'>,
  base: JpBase,
): string | undefined {
  if (base === '2026-08' || rule.summary === null) return undefined;
  const text = rule.summary.text;
  return typeof text === 'string' ? text : undefined;
}

/**
 * Every rule's range in one invocation (spec 6.4 and 7). All rules resolve
 * against the stream as it was at the start, so `after_last_compaction` never
 * sees this run's compactions; summary rules are extended against the existing
 * summaries plus the summaries this run created before them.
 */
export function resolveRuleRanges(
  context: RangeContext,
  rules: readonly Pick<CompactionRule, 'keep_first' | 'keep_last' | 'summary'>[],
  overrides: RangeOverrides = {},
  base: JpBase = DEFAULT_BASE,
): RuleRangePlan[] {
  const summaries: ExistingCompaction[] = [...context.existingCompactions];
  let refused = false;
  return rules.map((rule) => {
    const resolution = resolveRuleRange(context, rule, overrides);
    // After a refusal nothing more is planned (15.5: the first refusal refuses all).
    if (refused || resolution.range === null || rule.summary === null) {
      return { resolution, range: resolution.range, extended: false };
    }
    const text = getVerbatimSummaryText(rule, base);
    const source: SummarySource = text === undefined ? 'generated' : 'authored';
    const extension = extendSummaryRangeFor(summaries, resolution.range, source, base);
    if (!extension.ok) {
      refused = true;
      return { resolution, range: null, extended: false, refusal: extension.refusal };
    }
    if (text !== undefined && trimRust(text) === '') {
      refused = true;
      return { resolution, range: null, extended: false, refusal: { kind: 'blank-summary-text' } };
    }
    const range = extension.range;
    summaries.push({ ...range, summary: true, source });
    const extended =
      range.from_turn !== resolution.range.from_turn || range.to_turn !== resolution.range.to_turn;
    return { resolution, range, extended };
  });
}

/** JP main's sentence for a refusal (15.5), with 1-based turns. */
export function describeSummaryRefusal(refusal: SummaryRefusal): string {
  if (refusal.kind === 'blank-summary-text') {
    return 'the summary text is empty; drop the value to generate a summary instead';
  }
  const span = (range: TurnRange) => `${range.from_turn + 1}..${range.to_turn + 1}`;
  const requested = span(refusal.requested);
  const required = span(refusal.required);
  const reason = refusal.newIsAuthored
    ? `A summary cannot be nested inside or split across another one, so your text for turns ${requested} would have to stand in for turns ${required} as well.`
    : `Summarizing turns ${requested} would have to grow to turns ${required}, replacing a summary you wrote by hand with a generated one.`;
  return `${reason} Edit the rule's bounds to cover turns ${required}, or Reset to drop the existing compactions first.`;
}

const isTurnIndex = (value: JsonValue | undefined): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The stream's compaction events as range resolution sees them, in stream
 * order. An element without valid turn indices is skipped: the stream's
 * diagnostics report it, and it cannot name any turns.
 */
export function getExistingCompactions(elements: readonly StreamElement[]): ExistingCompaction[] {
  const compactions: ExistingCompaction[] = [];
  for (const element of elements) {
    if (classifyElement(element) !== 'compaction') continue;
    const { from_turn, to_turn, summary } = element;
    if (!isTurnIndex(from_turn) || !isTurnIndex(to_turn)) continue;
    // JP reads `"summary": null` as no summary.
    const compaction: ExistingCompaction = {
      from_turn,
      to_turn,
      summary: summary !== undefined && summary !== null,
    };
    // Only JP main reads the source; extension under 2026-08 ignores it (15.1).
    if (isJsonObject(summary) && summary.source === 'authored') compaction.source = 'authored';
    compactions.push(compaction);
  }
  return compactions;
}

/** The range context of a stream as given (spec 6.4, 14.4: creation sees the stream unsanitized). */
export function getRangeContext(elements: readonly StreamElement[], now: Instant): RangeContext {
  // Streams are never mutated, and a hint edit re-plans the same stream many
  // times: the turn facts are computed once per stream.
  let facts = rangeFactsCache.get(elements);
  if (!facts) {
    facts = {
      turnCount: countTurns(elements),
      turnStarts: getTurnStarts(elements),
      existingCompactions: getExistingCompactions(elements),
    };
    rangeFactsCache.set(elements, facts);
  }
  return { ...facts, now };
}

const rangeFactsCache = new WeakMap<readonly StreamElement[], Omit<RangeContext, 'now'>>();

const plural = (count: number | bigint, word: string): string =>
  `${count} ${word}${count === 1 || count === 1n ? '' : 's'}`;

/** One sentence, with 1-based turns, saying why a range is empty. */
export function describeEmptyRange(reason: EmptyRangeReason): string {
  switch (reason.kind) {
    case 'no-turns':
      return 'The stream has no turns yet.';
    case 'start-after-last-turn':
      return `The range would start at turn ${exactCount(reason, 'start') + 1n}, but the stream has only ${plural(reason.turnCount, 'turn')}: the turns kept at the start are all of them.`;
    case 'nothing-after-last-compaction':
      return `The existing compactions already reach the last turn (turn ${reason.turnCount}): nothing comes after them.`;
    case 'end-before-first-turn':
      return `Keeping the last ${plural(exactCount(reason, 'fromEnd'), 'turn')} keeps all ${plural(reason.turnCount, 'turn')} of the stream.`;
    case 'start-after-end':
      return `The range would start at turn ${reason.start + 1} and end at turn ${reason.end + 1}: the turns kept at the start and at the end cover everything.`;
    case 'window-covers-all':
      return `Every turn started after the keep_last cutoff (${formatTimestamp(reason.cutoff)}), so the window keeps them all.`;
    case 'first-turn-time-unknown':
      return 'The first turn has no readable timestamp, so a keep_first duration has nowhere to start.';
    case 'override-empty':
      return `The ${reason.side} override selects no turns.`;
  }
}

/** How a range reads to a person: "turns 2..8" or "turn 3", 1-based. */
export function formatTurnRange(range: TurnRange): string {
  return range.from_turn === range.to_turn
    ? `turn ${range.from_turn + 1}`
    : `turns ${range.from_turn + 1}..${range.to_turn + 1}`;
}
