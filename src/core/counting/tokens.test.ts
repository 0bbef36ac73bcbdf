import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countCodePoints, countWithLongRuns, LONG_RUN } from './tokens.ts';

/**
 * The split the rule describes, written the plain way: every maximal run of
 * one class (digits, whitespace, letters and non-ASCII, ASCII punctuation) at
 * least LONG_RUN long is cut into pieces of 1,024 (one more unit rather than
 * split a surrogate pair); the text between runs stays whole.
 */
function referenceSplit(text: string): string[] {
  const kind = (ch: string) =>
    /[0-9]/.test(ch)
      ? 0
      : /[ \t\n\v\f\r]/.test(ch)
        ? 1
        : /[A-Za-z]/.test(ch) || ch.charCodeAt(0) >= 0x80
          ? 2
          : 3;
  if (text.length < LONG_RUN) return [text];
  const runs: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i < text.length && kind(text.charAt(i)) === kind(text.charAt(start))) continue;
    if (i - start >= LONG_RUN) runs.push([start, i]);
    start = i;
  }
  if (runs.length === 0) return [text];
  const pieces: string[] = [];
  let at = 0;
  for (const [from, to] of runs) {
    if (from > at) pieces.push(text.slice(at, from));
    for (let p = from; p < to; ) {
      let end = Math.min(p + 1024, to);
      if (end < to && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end++;
      pieces.push(text.slice(p, end));
      p = end;
    }
    at = to;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}

/** Text made of runs of chosen lengths, so that runs near LONG_RUN and near the probe spacing come up. */
const runsOfText = fc
  .array(
    fc.record({
      ch: fc.constantFrom('a', '7', ' ', '-', 'é', '😀', '\n'),
      length: fc.oneof(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1000, max: 1030 }),
        fc.integer({ min: LONG_RUN - 40, max: LONG_RUN + 40 }),
        fc.integer({ min: 3000, max: 5000 }),
      ),
    }),
    { maxLength: 8 },
  )
  .map((runs) => runs.map(({ ch, length }) => ch.repeat(length)).join(''));

describe('countWithLongRuns', () => {
  it('cuts exactly where the rule says, and nowhere else', () => {
    fc.assert(
      fc.property(runsOfText, (text) => {
        const calls: string[] = [];
        const total = countWithLongRuns(text, (t) => {
          calls.push(t);
          return t.length;
        });
        expect(calls).toEqual(referenceSplit(text));
        expect(total).toBe(text.length);
      }),
      { numRuns: 400 },
    );
  });
});

describe('countCodePoints', () => {
  it('counts a surrogate pair once and a lone surrogate once', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(countCodePoints(text)).toBe(Array.from(text).length);
      }),
    );
    expect(countCodePoints('a\ud800b\udc00😀')).toBe(5);
  });
});
