/**
 * Creating compaction events (spec 10, D17 in 11, playground rulings 14.2 and
 * 14.5) and the stream edits built on them: Compact, Reset and the preview.
 *
 * New events are created against the stream as given (no sanitize), one per
 * rule whose range is not empty, all with the same "now".
 */
import { ruleToEquivalentDsl } from '../config/dsl.ts';
import { DEFAULT_BASE } from '../config/jp-base.ts';
import {
  describeEmptyRange,
  describeSummaryRefusal,
  type EmptyRangeReason,
  formatTurnRange,
  getRangeContext,
  getVerbatimSummaryText,
  type RangeOverrides,
  resolveRuleRanges,
  type SummaryRefusal,
} from '../config/range.ts';
import { serializeCompactionEvent, toolCallsModeToPolicy } from '../config/rule-config.ts';
import {
  formatTimestamp,
  type Instant,
  LATEST_READABLE_INSTANT,
  parseTimestamp,
} from '../stream/timestamp.ts';
import { classifyElement } from '../stream/turns.ts';
import type {
  CompactionEvent,
  CompactionRule,
  StreamElement,
  ToolCallPolicy,
  TurnRange,
} from '../types.ts';
import type { Readings } from './readings.ts';

/** "Now" for a stream with no readable timestamp (spec 14.2). */
export const FALLBACK_NOW_TEXT = '2026-01-01 00:00:00.0';

const NANOS_PER_SECOND = 1_000_000_000n;

/** What `createCompactionEvents` needs: the stream as given, the rules and hints in force, and now. */
export interface CreateCompactionsInput {
  elements: readonly StreamElement[];
  rules: readonly CompactionRule[];
  /** The resolved D17 hints (spec 11, 14.1), baked into every new event. */
  toolOverrides: Readonly<Record<string, ToolCallPolicy>>;
  now: Instant;
  /**
   * The text of new summaries, in place of the placeholder (spec 14.5): one
   * string for every summary event, or one entry per rule (by rule index;
   * `null` or a missing entry keeps the placeholder).
   */
  summaryText?: string | readonly (string | null | undefined)[];
  /** CLI-style overrides of every rule's bounds (spec 6.3); none by default. */
  overrides?: RangeOverrides;
  /** D17's open points (readings.ts); "JP today" writes no `tool_overrides`. The rulings by default. */
  readings?: Readonly<Readings>;
}

/**
 * What happened to one rule (spec 6.2 to 7): the range its event covers, or
 * why it creates none. It has every field of the playground's `RulePlan`.
 */
export interface RulePlan {
  /** 0-based index of the rule in the rules in force. */
  ruleIndex: number;
  rule: CompactionRule;
  /** The range the rule's new compaction covers (after summary extension), or null when empty. */
  range: TurnRange | null;
  /** The range from keep_first/keep_last, before summary extension. */
  resolvedRange: TurnRange | null;
  /** Why the range is empty, or null when it is not. */
  emptyReason: EmptyRangeReason | null;
  /** A sentence a person can read, with 1-based turns: what is compacted, or why nothing is. */
  explanation: string;
  /** Whether summary extension (spec 7) widened the range. */
  extended: boolean;
  /** Index of the rule's event in `events`, or null when it creates none. */
  eventIndex: number | null;
  /** A `--compact=SPEC` string that covers the same turns, when the DSL can say it. */
  dsl?: string;
  /** Set on the rule JP main refuses (15.5); the whole invocation then creates nothing. */
  refusal?: SummaryRefusal;
}

/** A refused invocation (15.5): the rule at fault and JP's reason. */
export interface CreationRefusal {
  ruleIndex: number;
  refusal: SummaryRefusal;
  /** JP's reason with both ranges (1-based) and the playground's remedy. */
  message: string;
}

/** The new events and a plan per rule. */
export interface CreatedCompactions {
  events: CompactionEvent[];
  plans: RulePlan[];
  /** When JP main refuses the invocation (15.5): no events are created, not even earlier rules'. */
  refusal?: CreationRefusal;
}

/** The result of Reset: the new stream, or why nothing could be reset. */
export type ResetResult =
  | { ok: true; value: StreamElement[]; removed: number }
  | { ok: false; message: string };

/**
 * The default "now" (spec 14.2): one second after the latest readable
 * timestamp of any element, compactions included, so new compactions are the
 * newest; `2026-01-01 00:00:00.0` when no timestamp reads. It never passes
 * the latest instant JP reads (+262142-12-31 23:59:59.999999999): there
 * the new compactions tie with the latest element at worst (a leap second
 * on that last day aside), and a tie goes to the later in stream order,
 * where they are appended (docs/decisions.md).
 */
export function getDefaultNow(elements: readonly StreamElement[]): Instant {
  let now = defaultNowCache.get(elements);
  if (now === undefined) {
    now = computeDefaultNow(elements);
    defaultNowCache.set(elements, now);
  }
  return now;
}

// Streams are never mutated; parsing every timestamp once per stream suffices.
const defaultNowCache = new WeakMap<readonly StreamElement[], Instant>();

function computeDefaultNow(elements: readonly StreamElement[]): Instant {
  let latest: Instant | undefined;
  for (const element of elements) {
    const text = element.timestamp;
    if (typeof text !== 'string') continue;
    const instant = parseTimestamp(text);
    if (instant !== undefined && (latest === undefined || instant > latest)) latest = instant;
  }
  if (latest !== undefined) {
    const next = latest + NANOS_PER_SECOND;
    return next < LATEST_READABLE_INSTANT ? next : LATEST_READABLE_INSTANT;
  }
  return parseTimestamp(FALLBACK_NOW_TEXT) as Instant;
}

/** The placeholder summary text (spec 14.5): 1-based turns of the extended range. */
export function getSummaryPlaceholder(range: TurnRange): string {
  return `[summary of turns ${range.from_turn + 1}..${range.to_turn + 1}]`;
}

function summaryTextFor(
  summaryText: CreateCompactionsInput['summaryText'],
  ruleIndex: number,
  range: TurnRange,
): string {
  if (typeof summaryText === 'string') return summaryText;
  return summaryText?.[ruleIndex] ?? getSummaryPlaceholder(range);
}

/** One compaction event in its written form (spec 1.3, 10, 11), via the config module's writer. */
function createEvent(
  rule: CompactionRule,
  range: TurnRange,
  timestamp: string,
  summary: { summary: string; source: 'generated' | 'authored' } | null,
  toolOverrides: Readonly<Record<string, ToolCallPolicy>>,
): CompactionEvent {
  return serializeCompactionEvent({
    timestamp,
    from_turn: range.from_turn,
    to_turn: range.to_turn,
    summary,
    reasoning: rule.reasoning,
    reasoning_over: rule.reasoning_over ?? null,
    tool_calls: rule.tool_calls === null ? null : toolCallsModeToPolicy(rule.tool_calls),
    tool_calls_over: rule.tool_calls_over ?? null,
    // Written with sorted keys and fresh objects per event, omitted when empty.
    tool_overrides: toolOverrides,
  });
}

function explain(
  range: TurnRange | null,
  resolvedRange: TurnRange | null,
  emptyReason: EmptyRangeReason | null,
): string {
  if (range === null || resolvedRange === null) {
    return `Nothing to compact. ${describeEmptyRange(emptyReason ?? { kind: 'no-turns' })}`;
  }
  const compacts = `Compacts ${formatTurnRange(range)}.`;
  if (range.from_turn === resolvedRange.from_turn && range.to_turn === resolvedRange.to_turn) {
    return compacts;
  }
  return `${compacts} The rule selects ${formatTurnRange(resolvedRange)}; the range was widened to take in the summaries it overlaps.`;
}

/**
 * The compaction events the rules create now (spec 6.4, 10, 11), one per rule
 * with a non-empty range, in rule order, plus a plan per rule saying why.
 * Every event gets `now` as its timestamp and the given `tool_overrides`
 * (omitted when empty); summary events get the placeholder text of 14.5.
 */
export function createCompactionEvents(input: CreateCompactionsInput): CreatedCompactions {
  const base = input.readings?.base ?? DEFAULT_BASE;
  const context = getRangeContext(input.elements, input.now);
  const rangePlans = resolveRuleRanges(context, input.rules, input.overrides, base);
  const refusedIndex = rangePlans.findIndex((plan) => plan.refusal !== undefined);
  const timestamp = formatTimestamp(input.now);
  const toolOverrides = input.readings?.jp === 'today' ? {} : input.toolOverrides;

  const events: CompactionEvent[] = [];
  const plans = rangePlans.map((rangePlan, ruleIndex): RulePlan => {
    const rule = input.rules[ruleIndex] as CompactionRule;
    const { resolution, range, extended } = rangePlan;
    let eventIndex: number | null = null;
    if (range !== null && refusedIndex < 0) {
      // A verbatim summary (15.4) is stored as written; others get the text given or the placeholder.
      const verbatim = getVerbatimSummaryText(rule, base);
      const summary =
        rule.summary === null
          ? null
          : verbatim !== undefined
            ? { summary: verbatim, source: 'authored' as const }
            : {
                summary: summaryTextFor(input.summaryText, ruleIndex, range),
                source: 'generated' as const,
              };
      eventIndex = events.length;
      events.push(createEvent(rule, range, timestamp, summary, toolOverrides));
    }
    const plan: RulePlan = {
      ruleIndex,
      rule,
      range,
      resolvedRange: resolution.range,
      emptyReason: resolution.reason,
      explanation:
        rangePlan.refusal !== undefined
          ? `Refused by JP main: ${describeSummaryRefusal(rangePlan.refusal)}`
          : explain(range, resolution.range, resolution.reason),
      extended,
      eventIndex,
    };
    if (rangePlan.refusal !== undefined) plan.refusal = rangePlan.refusal;
    const dsl = ruleToEquivalentDsl(rule, base);
    if (dsl !== undefined) plan.dsl = dsl;
    return plan;
  });
  const refused = refusedIndex < 0 ? undefined : rangePlans[refusedIndex]?.refusal;
  if (refused === undefined) return { events, plans };
  return {
    events,
    plans,
    refusal: {
      ruleIndex: refusedIndex,
      refusal: refused,
      message: describeSummaryRefusal(refused),
    },
  };
}

/** Compact (spec 14.5): the stream with the new events appended for real, as JP appends them. */
export function appendCompactions(
  elements: readonly StreamElement[],
  events: readonly CompactionEvent[],
): StreamElement[] {
  return [...elements, ...events];
}

/** The preview (spec 14.5): the stream as given plus the events the rules would create now. */
export function previewStream(
  elements: readonly StreamElement[],
  events: readonly CompactionEvent[],
): StreamElement[] {
  return [...elements, ...events];
}

/**
 * Reset (spec 6.3, 14.5): removes every compaction event, or only the
 * `position`-th one (1-based, stream order). A position that names no
 * compaction is an error result, never a throw.
 */
export function resetCompactions(
  elements: readonly StreamElement[],
  requested?: number | bigint,
): ResetResult {
  const compactionIndices: number[] = [];
  elements.forEach((element, index) => {
    if (classifyElement(element) === 'compaction') compactionIndices.push(index);
  });
  const count = compactionIndices.length;

  if (requested === undefined) {
    const value = elements.filter((element) => classifyElement(element) !== 'compaction');
    return { ok: true, value, removed: count };
  }
  // A bigint is the number as written (`--index 9223372036854775807`): messages quote it so.
  const position = Number(requested);
  // Compactions are counted from 1, as the timeline numbers them; #0 is the usual slip.
  const counted = position === 0 ? ' (compactions are counted from 1)' : '';
  if (count === 0) {
    return {
      ok: false,
      message: `There is no compaction #${requested}${counted}: the stream has none.`,
    };
  }
  if (!Number.isInteger(position) || position < 1 || position > count) {
    const choices = count === 1 ? 'only #1' : `#1 to #${count}`;
    return {
      ok: false,
      message: `There is no compaction #${requested}${counted}: the stream has ${choices}.`,
    };
  }
  const removedIndex = compactionIndices[position - 1];
  return {
    ok: true,
    value: elements.filter((_, index) => index !== removedIndex),
    removed: 1,
  };
}

/**
 * Whether a new compaction would change nothing over one already stored:
 * the same turns and policies, only a later timestamp. Stacking it would
 * project the same text, so the UI says there is nothing new to compact.
 */
export function isSameCompaction(a: CompactionEvent, b: CompactionEvent): boolean {
  const { timestamp: _a, ...restA } = a;
  const { timestamp: _b, ...restB } = b;
  return JSON.stringify(sortKeys(restA)) === JSON.stringify(sortKeys(restB));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return sorted;
}
