/**
 * Decoding as JP reads its files, and a stream's last line cut inside a
 * character (issue 43, item 16): treated as a line cut at an ASCII
 * character, only when the caller says the text is a stream.
 */
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from './utf8.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'utf8')] : part)),
  );

describe('decodeUtf8', () => {
  // "é" is C3 A9; "€" is E2 82 AC; "😀" is F0 9F 98 80.
  const cutInE = bytes('{"a":"caf\u00e9"}\n{"b":"caf', [0xc3]);
  const cutInEmoji = bytes('{"a":1}\n{"b":"', [0xf0, 0x9f, 0x98]);

  it('refuses a character cut at the end by default (a config, a metadata.json)', () => {
    expect(decodeUtf8(cutInE)).toMatchObject({
      ok: false,
      diagnostic: { line: 2, code: 'input/invalid-utf8' },
    });
  });

  it("reads a stream's last character cut short as U+FFFD", () => {
    expect(decodeUtf8(cutInE, { lastLineMayBeCut: true })).toEqual({
      ok: true,
      text: '{"a":"caf\u00e9"}\n{"b":"caf\ufffd',
    });
    expect(decodeUtf8(cutInEmoji, { lastLineMayBeCut: true })).toEqual({
      ok: true,
      text: '{"a":1}\n{"b":"\ufffd',
    });
  });

  it('still refuses a stream with a bad byte anywhere but a cut last character', () => {
    const middle = bytes('{"a":"', [0xc3], '"}\n{"b":1}');
    expect(decodeUtf8(middle, { lastLineMayBeCut: true }).ok).toBe(false);
    expect(decodeUtf8(bytes('{"a":1}', [0xff]), { lastLineMayBeCut: true }).ok).toBe(false);
    // A complete character then a stray continuation byte is no cut character.
    expect(decodeUtf8(bytes('{"a":1}', [0xc3, 0xa9, 0xa9]), { lastLineMayBeCut: true }).ok).toBe(
      false,
    );
  });
});
