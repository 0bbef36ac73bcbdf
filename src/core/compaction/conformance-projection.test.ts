/**
 * Runs the shared `projection` conformance cases (format in
 * ../shared/conformance/README.md): one test per case and reading `base`
 * (a case without `base` runs under both). `expected` is the provider view
 * of the bare projection (no sanitize); `expected_stream` and
 * `expected_turn_origins` are checked when the case has them;
 * `{"error": true}` means the stream does not read under the case's base.
 */
import { expect } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import { describeConformance } from '../../test/conformance-suite.ts';
import { parseEventsText } from '../stream/codec.ts';
import { decodeStorage, encodeStorage } from '../stream/storage.ts';
import type { StreamElement } from '../types.ts';
import { project, providerView } from './projection.ts';
import { withReadings } from './readings.ts';

const cases = loadCases('projection');

describeConformance('projection conformance', cases, { top: 43, main: 23 }, (testCase, base) => {
  const storage = testCase.encoding === 'storage';
  // Read as a file is read: the codec applies the base's reading rules (15.1).
  const parsed = parseEventsText(
    JSON.stringify(testCase.input),
    storage ? 'storage' : 'plain',
    undefined,
    base,
  );
  if (testCase.expected?.error === true) {
    expect(parsed.elements).toBeUndefined();
    expect(parsed.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    return;
  }
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const input = testCase.input as StreamElement[];
  const result = project(storage ? decodeStorage(input) : input, withReadings({ base }));
  const onDisk = (elements: StreamElement[]) => (storage ? encodeStorage(elements) : elements);

  expect(onDisk(providerView(result.elements))).toEqual(testCase.expected);
  if (testCase.expected_stream !== undefined) {
    expect(onDisk(result.elements)).toEqual(testCase.expected_stream);
  }
  if (testCase.expected_turn_origins !== undefined) {
    expect(result.turnOrigins).toEqual(testCase.expected_turn_origins);
  }
});
