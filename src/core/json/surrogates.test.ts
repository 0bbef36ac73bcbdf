import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReport, getToolRowKey, ORPHAN_ROW_KEY } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { parseEventsText } from '../stream/codec.ts';
import { findLoneSurrogate } from './surrogates.ts';

const AT = '2025-07-01 00:00:00.0';
const counter = await loadTokenCounter('chars');

/** A stream whose one tool call is named `name`, written by JSON.stringify (lone halves as escapes). */
function streamNaming(name: string): string {
  return JSON.stringify([
    { timestamp: AT, type: 'turn_start' },
    { timestamp: AT, type: 'tool_call_request', id: 'c1', name, arguments: {} },
    { timestamp: AT, type: 'tool_call_response', id: 'c1', content: 'x', is_error: false },
    { timestamp: AT, type: 'tool_call_response', id: 'orphan', content: 'y', is_error: false },
  ]);
}

describe('lone surrogates', () => {
  it('finds a lone half as an escape or a raw code unit, and leaves pairs and escaped backslashes alone', () => {
    expect(findLoneSurrogate('["\\ud83d\\ude00", "😀"]')).toBe(-1);
    expect(findLoneSurrogate('["\\\\ud800"]')).toBe(-1); // a backslash, then the text "ud800"
    expect(findLoneSurrogate('["ab\\ud800"]')).toBe(4);
    expect(findLoneSurrogate('["ab\\udc00(unknown)"]')).toBe(4);
    expect(findLoneSurrogate('["\\ud800\\ud800\\udc00"]')).toBe(2);
    expect(findLoneSurrogate('["a\ud800"]')).toBe(3);
  });

  it('refuse the stream at their line and column, as serde_json does', () => {
    const parsed = parseEventsText('[\n  {"type": "x\\udc00"}\n]', 'plain');
    expect(parsed.elements).toBeUndefined();
    expect(parsed.diagnostics).toMatchObject([{ severity: 'error', line: 2, column: 14 }]);
  });

  it('no recorded tool name collides with the orphan row (property)', () => {
    const names = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom(ORPHAN_ROW_KEY, '(unknown)', '', '\udc00'),
    );
    fc.assert(
      fc.property(names, (name) => {
        const parsed = parseEventsText(streamNaming(name), 'plain');
        if (parsed.elements === undefined) return; // refused, as JP refuses it
        const report = createReport(parsed.elements, parsed.elements, new Map(), counter);
        const keys = report.tools.map((row) => getToolRowKey(row.name));
        // Two rows, the named tool's and the orphan's, under two different keys.
        expect(keys.filter((key) => key === ORPHAN_ROW_KEY)).toHaveLength(1);
        expect(new Set(keys).size).toBe(keys.length);
      }),
      { numRuns: 500 },
    );
  });
});
