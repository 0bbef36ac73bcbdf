/** Runs the shared `summary-extension` conformance cases (spec 7). */
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import type { TurnRange } from '../types.ts';
import { type ExistingCompaction, extendSummaryRange } from './range.ts';

describe('conformance: summary-extension', () => {
  for (const testCase of loadCases('summary-extension')) {
    it(testCase.name, () => {
      const existing = testCase.input.existing_compactions as ExistingCompaction[];
      const range = testCase.input.range as TurnRange;
      expect(extendSummaryRange(existing, range)).toEqual(testCase.expected);
    });
  }
});
