import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './values.ts';

/** The definition: split both into code points (a lone surrogate is one), compare in turn. */
function byDefinition(a: string, b: string): number {
  const left = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const right = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return (left[i] ?? 0) - (right[i] ?? 0);
  }
  return left.length - right.length;
}

// Units chosen where code unit order and code point order part: ASCII, the top of the BMP,
// high and low surrogates (paired or lone).
const unit = fc.constantFrom(0x41, 0x42, 0x7a, 0xe000, 0xffff, 0xd800, 0xdbff, 0xdc00, 0xdfff);
const text = fc.array(unit, { maxLength: 8 }).map((units) => String.fromCharCode(...units));

describe('compareCodePoints', () => {
  it('orders as Rust orders String keys: by code point, a pair above U+FFFF', () => {
    expect(compareCodePoints('\u{1F600}', '\uFFFF')).toBeGreaterThan(0);
    expect(compareCodePoints('\uFFFF', '\u{1F600}')).toBeLessThan(0);
    expect(compareCodePoints('fs_read', 'fs_read_file')).toBeLessThan(0);
    expect(compareCodePoints('b', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
    // A lone high surrogate, then letters that differ.
    expect(compareCodePoints('\uD800A', '\uD800B')).toBeLessThan(0);
  });

  it('agrees in sign with the definition on strings of paired and lone surrogates', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byDefinition(a, b)));
      }),
      { numRuns: 5_000 },
    );
  });
});
