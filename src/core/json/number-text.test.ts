import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../stream/codec.ts';
import { writeEventsText } from '../stream/write.ts';

const STAMP = '2025-07-01 00:00:00.0';

/** A stream whose one tool call carries `numbers` (JSON number texts) as arguments. */
function streamWith(numbers: readonly string[]): string {
  const args = numbers.map((text, i) => `"n${i}": ${text}`).join(', ');
  return `[
{"timestamp": "${STAMP}", "type": "turn_start"},
{"timestamp": "${STAMP}", "type": "chat_request", "content": "fake"},
{"timestamp": "${STAMP}", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {${args}, "s": "eA=="}}
]`;
}

/** The number texts after `"nK": ` in written text, read by a pattern, not by the codec. */
function writtenNumbers(text: string): string[] {
  return [...text.matchAll(/"n\d+": ([-+.0-9eE]+)/g)].map((match) => match[1] as string);
}

function roundTrip(text: string, encoding: 'plain' | 'storage') {
  const parsed = parseEventsText(text, encoding);
  expect(parsed.diagnostics).toEqual([]);
  return writeEventsText(parsed.elements ?? [], encoding);
}

describe('numbers keep their text through a read and write', () => {
  it('keeps u64, i64, -0, 1.50, 1E2 and an underflowing 1e-400 as written, in both encodings', () => {
    const numbers = [
      '18446744073709551615',
      '1751328000123456789',
      '-9223372036854775808',
      '-0',
      '1.50',
      '1E2',
      '1e-400',
      '42',
    ];
    for (const encoding of ['plain', 'storage'] as const) {
      expect(writtenNumbers(roundTrip(streamWith(numbers), encoding))).toEqual(numbers);
    }
  });

  it('refuses a number beyond the double range at its line and column, as JP does', () => {
    const parsed = parseEventsText(streamWith(['1', '-1e400']), 'plain');
    expect(parsed.elements).toBeUndefined();
    // Line 4 of the text; the column is where `-1e400` starts, counted by hand below.
    const line = streamWith(['1', '-1e400']).split('\n')[3] as string;
    expect(parsed.diagnostics).toMatchObject([
      { severity: 'error', line: 4, column: line.indexOf('-1e400') + 1 },
    ]);
    expect(parsed.diagnostics[0]?.message).toContain('-1e400');
  });

  it('writes an unchanged stream of plain numbers exactly as JSON.stringify does', () => {
    const parsed = parseEventsText(streamWith(['1', '2.5', '-3']), 'plain');
    const elements = parsed.elements ?? [];
    expect(writeEventsText(elements, 'plain')).toBe(`${JSON.stringify(elements, null, 2)}\n`);
  });

  it('keeps every integer of the u64 and i64 ranges exactly (property)', () => {
    const integer = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n });
    fc.assert(
      fc.property(
        fc.array(integer, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (values, storage) => {
          const numbers = values.map(String);
          const written = roundTrip(streamWith(numbers), storage ? 'storage' : 'plain');
          expect(writtenNumbers(written)).toEqual(numbers);
        },
      ),
    );
  });
});
