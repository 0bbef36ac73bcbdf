/**
 * Runs the shared `range` conformance cases (spec 6, 7): the core resolver,
 * and whole-rule resolution against a stream built from the turn starts.
 */
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import { FALLBACK_NOW_TEXT, getDefaultNow } from '../compaction/creation.ts';
import { parseTimestamp } from '../stream/timestamp.ts';
import type { CompactionRule, CoreBound, RuleBound, StreamElement, TurnRange } from '../types.ts';
import { type BoundOverride, getRangeContext, resolveRange, resolveRuleRanges } from './range.ts';
import { parseRuleBound } from './rule-config.ts';

interface RulesLevelInput {
  turn_starts: string[];
  /** Absent: the default "now" of spec 14.2. */
  now?: string;
  existing_compactions?: (TurnRange & { summary?: boolean })[];
  /** Bounds in the conformance shape, or as written in TOML; an absent bound defaults to 1. */
  rules: {
    keep_first?: RuleBound | string | number;
    keep_last?: RuleBound | string | number;
    summary?: boolean;
  }[];
  from_override?: BoundOverride;
  to_override?: BoundOverride;
}

/** Each turn is a `turn_start` and a request at that time; the compactions follow. */
function buildStream(input: RulesLevelInput): StreamElement[] {
  const elements = input.turn_starts.flatMap((timestamp, turn): StreamElement[] => [
    { timestamp, type: 'turn_start' },
    { timestamp, type: 'chat_request', content: `turn ${turn + 1}` },
  ]);
  for (const compaction of input.existing_compactions ?? []) {
    const element: StreamElement = {
      type: 'compaction',
      timestamp: input.now ?? input.turn_starts[input.turn_starts.length - 1] ?? FALLBACK_NOW_TEXT,
      from_turn: compaction.from_turn,
      to_turn: compaction.to_turn,
    };
    if (compaction.summary) element.summary = { summary: 'existing summary' };
    else element.reasoning = 'strip';
    elements.push(element);
  }
  return elements;
}

/** A bound as given: the conformance shape as it is, a TOML value parsed, absent as the default 1 (spec 5). */
function toBound(bound: RuleBound | string | number | undefined): RuleBound {
  if (bound === undefined) return { turns: 1 };
  if (typeof bound === 'object') return bound;
  const parsed = parseRuleBound(bound);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

function toRule(rule: RulesLevelInput['rules'][number]): CompactionRule {
  return {
    keep_first: toBound(rule.keep_first),
    keep_last: toBound(rule.keep_last),
    reasoning: null,
    tool_calls: null,
    summary: rule.summary ? {} : null,
  };
}

describe('conformance: range', () => {
  for (const testCase of loadCases('range')) {
    it(testCase.name, () => {
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
      const now =
        rulesInput.now === undefined ? getDefaultNow(stream) : parseTimestamp(rulesInput.now);
      expect(now).toBeDefined();
      const context = getRangeContext(stream, now as bigint);
      const plans = resolveRuleRanges(context, rulesInput.rules.map(toRule), {
        from: rulesInput.from_override,
        to: rulesInput.to_override,
      });
      const ranges = plans.flatMap((plan) => (plan.range === null ? [] : [plan.range]));
      expect(ranges).toEqual(testCase.expected);
    });
  }
});
