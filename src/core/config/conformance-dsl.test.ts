/**
 * Runs the shared `dsl` conformance cases (spec 8, 15.6): the spec parser
 * and rule combination, each under the reading `base` it names (both when
 * it names none).
 */
import { expect } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import { describeConformance } from '../../test/conformance-suite.ts';
import type { CompactionRule } from '../types.ts';
import { parseByteSizeText } from './byte-size.ts';
import { type DslSpec, dslToPartialRule, parseDslSpec, resolveEffectiveRules } from './dsl.ts';
import { writePolicySetting } from './rule-config.ts';

/** A threshold in bytes, as the cases give it (null: none). */
function bytesOf(written: string | undefined): number | null {
  if (written === undefined) return null;
  const size = parseByteSizeText(written);
  return size.ok ? Number(size.value) : Number.NaN;
}

/** The parsed spec in the cases' shape; the thresholds only where the case has them. */
function caseShape(spec: DslSpec, withThresholds: boolean): Record<string, unknown> {
  const { reasoningOver, toolsOver, ...rest } = spec;
  return withThresholds
    ? { ...rest, reasoning_over: bytesOf(reasoningOver), tools_over: bytesOf(toolsOver) }
    : rest;
}

const cases = loadCases('dsl');

describeConformance('conformance: dsl', cases, { top: 44, main: 17 }, (testCase, base) => {
  const input = testCase.input;
  if (input.level === 'effective_rules') {
    const result = resolveEffectiveRules(
      (input.config_rules ?? []) as CompactionRule[],
      input.use_config_rules === true,
      (input.specs ?? []) as string[],
      base,
    );
    // A spec that does not parse makes the whole invocation fail.
    if (!Array.isArray(testCase.expected) && testCase.expected?.error === true) {
      expect(result.ok).toBe(false);
      return;
    }
    expect(result).toEqual({ ok: true, value: testCase.expected });
    return;
  }
  const result = parseDslSpec(input.spec as string, base);
  if (testCase.expected.error === true) {
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).not.toBe('');
    return;
  }
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  const { partial_rule: partialRule, ...expectedSpec } = testCase.expected;
  expect(caseShape(result.value, 'tools_over' in expectedSpec)).toEqual(expectedSpec);
  if (partialRule !== undefined) {
    const { reasoning_over, tool_calls_over, ...rule } = dslToPartialRule(result.value);
    // A policy with a threshold is written in its TOML table form (README).
    expect({
      ...rule,
      reasoning: writePolicySetting(rule.reasoning, reasoning_over),
      tool_calls: writePolicySetting(rule.tool_calls, tool_calls_over),
    }).toEqual(partialRule);
  }
});
