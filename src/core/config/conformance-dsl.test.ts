/** Runs the shared `dsl` conformance cases (spec 8): the spec parser and rule combination. */
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import type { CompactionRule } from '../types.ts';
import { dslToPartialRule, parseDslSpec, resolveEffectiveRules } from './dsl.ts';

describe('conformance: dsl', () => {
  for (const testCase of loadCases('dsl')) {
    it(testCase.name, () => {
      const input = testCase.input;
      if (input.level === 'effective_rules') {
        const result = resolveEffectiveRules(
          (input.config_rules ?? []) as CompactionRule[],
          input.use_config_rules === true,
          (input.specs ?? []) as string[],
        );
        // A spec that does not parse makes the whole invocation fail.
        if (!Array.isArray(testCase.expected) && testCase.expected?.error === true) {
          expect(result.ok).toBe(false);
          return;
        }
        expect(result).toEqual({ ok: true, value: testCase.expected });
        return;
      }
      const result = parseDslSpec(input.spec as string);
      if (testCase.expected.error === true) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.message).not.toBe('');
        return;
      }
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const { partial_rule: partialRule, ...expectedSpec } = testCase.expected;
      expect(result.value).toEqual(expectedSpec);
      if (partialRule !== undefined) expect(dslToPartialRule(result.value)).toEqual(partialRule);
    });
  }
});
