import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, suggestClosest } from './suggest.ts';

/**
 * The oracle: optimal string alignment distance over the whole table, as
 * the textbook writes it, and the first candidate at the smallest distance
 * when it is within the limit the module documents.
 */
function referenceDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        (d[i] as number[])[j] = i + j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best =
        Math.min((d[i - 1] as number[])[j] as number, (d[i] as number[])[j - 1] as number) + 1;
      best = Math.min(best, ((d[i - 1] as number[])[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      (d[i] as number[])[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

function referenceSuggestion(input: string, candidates: readonly string[]): string | undefined {
  const limit = input.length <= 2 ? 0 : input.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = referenceDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

describe('suggestClosest', () => {
  it('suggests within two edits for longer words, a transposition counting one', () => {
    expect(suggestClosest('keep_frist', ['keep_first', 'keep_last'])).toBe('keep_first');
    expect(suggestClosest('fs_raed_fiel', ['fs_read_file'])).toBe('fs_read_file');
    expect(suggestClosest('fs_rxxd_fiel', ['fs_read_file'])).toBeUndefined();
    expect(suggestClosest('Omit', ['omit', 'keep'])).toBe('omit');
    expect(suggestClosest('ab', ['ac', 'AB'])).toBe('AB');
  });

  it('picks the first of equally close candidates', () => {
    expect(suggestClosest('strip_x', ['strip_a', 'strip_b'])).toBe('strip_a');
  });

  it('agrees with the full-table distance on any words', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_', 'A'), maxLength: 9 });
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 12 }), (input, candidates) => {
        expect(suggestClosest(input, candidates)).toBe(referenceSuggestion(input, candidates));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the near one among 50,000 tool names, and says nothing for a far one', () => {
    const names = Array.from(
      { length: 50_000 },
      (_, i) => `fake_tool_${String(i).padStart(5, '0')}`,
    );
    expect(suggestClosest('fake_tool_4999', names)).toBe('fake_tool_04999');
    expect(didYouMean('fs_read_file', names)).toBe('');
  });
});
