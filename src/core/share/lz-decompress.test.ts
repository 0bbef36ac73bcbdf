import fc from 'fast-check';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { decompressUriSafe, TOO_LARGE } from './lz-decompress.ts';

describe('decompressUriSafe (issue 24)', () => {
  it('reads what lz-string writes, exactly as lz-string reads it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (text) => {
        const link = LZString.compressToEncodedURIComponent(text);
        const expected = LZString.decompressFromEncodedURIComponent(link);
        expect(decompressUriSafe(link, 1_000_000)).toBe(expected === '' ? '' : expected);
      }),
      { numRuns: 300 },
    );
  });

  // A stream whose first code is not one lz-string writes is no text here; lz-string reads on into junk.
  it('reads damaged and cut-off links as lz-string does, or as no text (null and "" alike, as the codec treats both)', () => {
    const read = (link: string) => {
      try {
        return LZString.decompressFromEncodedURIComponent(link) || null;
      } catch {
        return null;
      }
    };
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (link) => {
        const mine = decompressUriSafe(link, 1_000_000) || null;
        if (mine !== null) expect(mine).toBe(read(link));
      }),
      { numRuns: 500 },
    );
  });

  it('stops as soon as the text passes the limit', () => {
    // 100,000 characters compress to a few hundred: the limit of 1,000 is met part way.
    const link = LZString.compressToEncodedURIComponent('x'.repeat(100_000));
    expect(link.length).toBeLessThan(1_000);
    expect(decompressUriSafe(link, 1_000)).toBe(TOO_LARGE);
    expect(decompressUriSafe(link, 100_000)).toBe('x'.repeat(100_000));
  });
});
