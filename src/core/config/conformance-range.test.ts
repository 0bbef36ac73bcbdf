/**
 * Runs the shared `range` conformance cases (spec 6, 7): the core resolver,
 * and whole-rule resolution against a stream built from the turn starts.
 */
import { expect } from 'vitest';
import { buildRulesStream, loadCases } from '../../test/conformance.ts';
import { describeConformance } from '../../test/conformance-suite.ts';
import { FALLBACK_NOW_TEXT, getDefaultNow } from '../compaction/creation.ts';
import { parseTimestamp } from '../stream/timestamp.ts';
import type {
  CompactionRule,
  CoreBound,
  JsonObject,
  RuleBound,
  StreamElement,
  TurnRange,
} from '../types.ts';
import type { JpBase } from './jp-base.ts';
import { type BoundOverride, getRangeContext, resolveRange, resolveRuleRanges } from './range.ts';
import { type ParseResult, parseRuleBound } from './rule-config.ts';

interface RulesLevelInput {
  turn_starts: string[];
  /** Absent: the default "now" of spec 14.2. */
  now?: string;
  existing_compactions?: (TurnRange & { summary?: boolean; source?: 'authored' })[];
  /** Bounds in the conformance shape, or as written in TOML; an absent bound defaults to 1. */
  rules: {
    keep_first?: WrittenBound;
    keep_last?: WrittenBound;
    summary?: boolean;
    /** `summary.text`: a verbatim summary (15.4). */
    summary_text?: string;
  }[];
  from_override?: BoundOverride;
  to_override?: BoundOverride;
}

/** Each turn is a `turn_start` and a request at that time; the compactions follow. */
function buildStream(input: RulesLevelInput): StreamElement[] {
  return buildRulesStream(input, FALLBACK_NOW_TEXT);
}

/** A bound in the conformance shape, `{"written": v}` as written in TOML (15.4), or a TOML value. */
type WrittenBound = RuleBound | { written: string | number } | string | number;

/** A bound as given, read under the base; absent is the default 1 (spec 5). */
function toBound(
  bound: WrittenBound | undefined,
  base: JpBase,
  field: 'keep_first' | 'keep_last',
): ParseResult<RuleBound> {
  if (bound === undefined) return { ok: true, value: { turns: 1 } };
  if (typeof bound === 'object' && !('written' in bound)) return { ok: true, value: bound };
  const written = typeof bound === 'object' ? bound.written : bound;
  return parseRuleBound(written, field, base);
}

function toRule(rule: RulesLevelInput['rules'][number], base: JpBase): ParseResult<CompactionRule> {
  const keepFirst = toBound(rule.keep_first, base, 'keep_first');
  if (!keepFirst.ok) return keepFirst;
  const keepLast = toBound(rule.keep_last, base, 'keep_last');
  if (!keepLast.ok) return keepLast;
  const summary: JsonObject = rule.summary_text === undefined ? {} : { text: rule.summary_text };
  return {
    ok: true,
    value: {
      keep_first: keepFirst.value,
      keep_last: keepLast.value,
      reasoning: null,
      tool_calls: null,
      summary: rule.summary ? summary : null,
    },
  };
}

const cases = loadCases('range');

describeConformance('conformance: range', cases, { top: 20, main: 15 }, (testCase, base) => {
  const input = testCase.input;
  if (input.level === 'resolve_range') {
    const actual = resolveRange(
      input.turn_count as number,
      (input.existing_compactions ?? []) as TurnRange[],
      input.from as CoreBound | null,
      input.to as CoreBound | null,
    );
    expect(actual).toEqual(testCase.expected);
    return;
  }
  expect(input.level).toBe('rules');
  const rulesInput = input as RulesLevelInput;
  const stream = buildStream(rulesInput);
  const now = rulesInput.now === undefined ? getDefaultNow(stream) : parseTimestamp(rulesInput.now);
  expect(now).toBeDefined();
  const context = getRangeContext(stream, now as bigint);
  const rules: CompactionRule[] = [];
  for (const written of rulesInput.rules) {
    const rule = toRule(written, base);
    if (!rule.ok) {
      // A bound that does not read: the config is refused, with JP's reason.
      expect(testCase.expected.error).toBe(true);
      expect(rule.message).toContain(testCase.expected.config);
      return;
    }
    rules.push(rule.value);
  }
  const plans = resolveRuleRanges(
    context,
    rules,
    { from: rulesInput.from_override, to: rulesInput.to_override },
    base,
  );
  const refusal = plans.find((plan) => plan.refusal !== undefined)?.refusal;
  if (refusal !== undefined) {
    const expected =
      refusal.kind === 'blank-summary-text'
        ? { error: true, blank_summary_text: true }
        : {
            error: true,
            overlap: {
              requested: refusal.requested,
              required: refusal.required,
              new_is_authored: refusal.newIsAuthored,
            },
          };
    expect(expected).toEqual(testCase.expected);
    return;
  }
  const ranges = plans.flatMap((plan) => (plan.range === null ? [] : [plan.range]));
  expect(ranges).toEqual(testCase.expected);
});
