/**
 * Runs the shared `sanitize` conformance cases (format in
 * ../shared/conformance/README.md): one test per case.
 */
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import type { StreamElement } from '../types.ts';
import { sanitize } from './sanitize.ts';
import { decodeStorage, encodeStorage } from './storage.ts';

const cases = loadCases('sanitize');

describe('sanitize conformance', () => {
  it('has the 26 top-level cases (JP main adds none)', () => {
    expect(cases).toHaveLength(26);
  });

  for (const testCase of cases) {
    it(testCase.name, () => {
      const storage = testCase.encoding === 'storage';
      const input = testCase.input as StreamElement[];
      const output = sanitize(storage ? decodeStorage(input) : input);
      expect(storage ? encodeStorage(output) : output).toEqual(testCase.expected);
    });
  }
});
