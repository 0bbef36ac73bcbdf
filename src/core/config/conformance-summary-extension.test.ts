/** Runs the shared `summary-extension` conformance cases (spec 7, 15.5), under each base a case names. */
import { expect } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import { describeConformance } from '../../test/conformance-suite.ts';
import type { TurnRange } from '../types.ts';
import { type ExistingCompaction, extendSummaryRangeFor, type SummarySource } from './range.ts';

const cases = loadCases('summary-extension');

describeConformance(
  'conformance: summary-extension',
  cases,
  { top: 11, main: 7 },
  (testCase, base) => {
    const existing = testCase.input.existing_compactions as ExistingCompaction[];
    const range = testCase.input.range as TurnRange;
    const source = (testCase.input.source ?? 'generated') as SummarySource;
    const result = extendSummaryRangeFor(existing, range, source, base);
    const actual = result.ok
      ? result.range
      : {
          error: true,
          overlap: {
            requested: result.refusal.requested,
            required: result.refusal.required,
            new_is_authored: result.refusal.newIsAuthored,
          },
        };
    expect(actual).toEqual(testCase.expected);
  },
);
