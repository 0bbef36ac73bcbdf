/** Runs the shared `summary-extension` conformance cases (spec 7, 15.5), under each base a case names. */
import { describe, expect, it } from 'vitest';
import { countCaseFolders, getCaseBases, loadCases } from '../../test/conformance.ts';
import type { TurnRange } from '../types.ts';
import { type ExistingCompaction, extendSummaryRangeFor, type SummarySource } from './range.ts';

const cases = loadCases('summary-extension');

describe('conformance: summary-extension', () => {
  it('has the 11 top-level and 7 JP main cases', () => {
    expect(countCaseFolders(cases)).toEqual({ top: 11, main: 7 });
  });

  for (const testCase of cases) {
    for (const base of getCaseBases(testCase)) {
      it(`${testCase.name} [base=${base}]`, () => {
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
      });
    }
  }
});
