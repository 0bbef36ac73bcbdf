/**
 * The frame every conformance test file shares, kept apart from
 * `conformance.ts` because scripts outside Vitest (the benchmarks) import that.
 */
import { describe, expect, it } from 'vitest';
import type { JpBase } from '../core/config/jp-base.ts';
import { type ConformanceCase, countCaseFolders, getCaseBases } from './conformance.ts';

/**
 * One suite over a kind's cases: a test that the shared folders hold the
 * counts the file was written for, then one test per case and reading base
 * (a case without `base` runs under both), named `NAME [base=BASE]`.
 */
export function describeConformance(
  title: string,
  cases: readonly ConformanceCase[],
  counts: { top: number; main: number },
  check: (testCase: ConformanceCase, base: JpBase) => void,
): void {
  describe(title, () => {
    it(`has the ${counts.top} top-level and ${counts.main} JP main cases`, () => {
      expect(countCaseFolders(cases)).toEqual(counts);
    });

    for (const testCase of cases) {
      for (const base of getCaseBases(testCase)) {
        it(`${testCase.name} [base=${base}]`, () => check(testCase, base));
      }
    }
  });
}
