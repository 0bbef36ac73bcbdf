/**
 * "Did you mean": the closest known word to a misspelt one, for messages
 * about config keys and values.
 */

/**
 * Edit distance with adjacent transpositions (`keep_frist` is one edit from
 * `keep_first`), or `limit + 1` once it is certainly over `limit`. A
 * suggestion is only wanted within two edits, and a stream can name 50,000
 * tools: candidates whose lengths differ by more than the limit are settled
 * without a table, and a row whose every cell is over the limit ends the
 * count (a full table per candidate was 21 s of one run in a profile).
 */
function boundedEditDistance(a: string, b: string, limit: number, rows: DistanceRows): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  const columns = b.length + 1;
  // Three rows: the one before the previous reaches back for a transposition.
  let [before, previous, current] = rows.take(columns);
  for (let j = 0; j < columns; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      current[j] = best;
      if (best < rowBest) rowBest = best;
    }
    // A row's smallest cell never decreases down the table (a transposition from
    // two rows up costs at least the diagonal cell between): past the limit, it stays so.
    if (rowBest > limit) return over;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, over);
}

/** Three rows of the distance table, grown as needed and used again for every candidate. */
class DistanceRows {
  private rows: [Int32Array, Int32Array, Int32Array] = [
    new Int32Array(0),
    new Int32Array(0),
    new Int32Array(0),
  ];

  take(columns: number): [Int32Array, Int32Array, Int32Array] {
    if (this.rows[0].length < columns) {
      this.rows = [new Int32Array(columns), new Int32Array(columns), new Int32Array(columns)];
    }
    return [...this.rows];
  }
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
  const rows = new DistanceRows();
  for (const candidate of candidates) {
    const distance = boundedEditDistance(folded, candidate.toLowerCase(), limit, rows);
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
