/**
 * "Did you mean": the closest known word to a misspelt one, for messages
 * about config keys and values.
 */

/** Edit distance with adjacent transpositions (`keep_frist` is one edit from `keep_first`). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => table[i]?.[j] ?? 0;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      (table[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `input`, when it is close enough to be a likely
 * typo: case is ignored, and up to one edit for words of 3–4 letters, two
 * for longer ones (for 1–2 letters every candidate is an edit away, so only
 * a difference of case counts).
 */
export function suggestClosest(input: string, candidates: readonly string[]): string | undefined {
  const folded = input.toLowerCase();
  const limit = input.length <= 2 ? 0 : input.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(folded, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** The `; did you mean "x"?` tail of a message, or nothing when no word is close. */
export function didYouMean(input: unknown, candidates: readonly string[]): string {
  if (typeof input !== 'string') return '';
  const suggestion = suggestClosest(input, candidates);
  return suggestion !== undefined && suggestion !== input ? `; did you mean "${suggestion}"?` : '';
}
