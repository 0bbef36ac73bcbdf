/**
 * Runs the shared `projection` conformance cases (format in
 * ../shared/conformance/README.md): one test per case. `expected` is the
 * provider view of the bare projection (no sanitize); `expected_stream` and
 * `expected_turn_origins` are checked when the case has them.
 */
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import { decodeStorage, encodeStorage } from '../stream/storage.ts';
import type { StreamElement } from '../types.ts';
import { project, providerView } from './projection.ts';

const cases = loadCases('projection');

describe('projection conformance', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const testCase of cases) {
    it(testCase.name, () => {
      const storage = testCase.encoding === 'storage';
      const input = testCase.input as StreamElement[];
      const result = project(storage ? decodeStorage(input) : input);
      const onDisk = (elements: StreamElement[]) => (storage ? encodeStorage(elements) : elements);

      expect(onDisk(providerView(result.elements))).toEqual(testCase.expected);
      if (testCase.expected_stream !== undefined) {
        expect(onDisk(result.elements)).toEqual(testCase.expected_stream);
      }
      if (testCase.expected_turn_origins !== undefined) {
        expect(result.turnOrigins).toEqual(testCase.expected_turn_origins);
      }
    });
  }
});
