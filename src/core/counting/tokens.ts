/**
 * Token and character counting (spec 14.4). Counting is the pipeline's main
 * cost, so every counter caches by string: changing a hint recounts only the
 * few new texts (stripped arguments and `[compacted] …` lines).
 */

/** The tokenizers the playground offers. */
export type TokenizerId = 'o200k' | 'cl100k' | 'chars';

/** The tokenizer a first visit counts with. */
export const DEFAULT_TOKENIZER: TokenizerId = 'o200k';

/** Every tokenizer id, default first. */
export const TOKENIZER_IDS: readonly TokenizerId[] = [DEFAULT_TOKENIZER, 'cl100k', 'chars'];

/** How each tokenizer is named in the UI and the CLI. */
export const TOKENIZER_LABELS: Record<TokenizerId, string> = {
  o200k: 'o200k_base (exact for current OpenAI models)',
  cl100k: 'cl100k_base (older OpenAI models)',
  chars: 'chars/4 (an estimate)',
};

/** Counts tokens and characters of a text, with a cache by string. */
export interface TokenCounter {
  readonly id: TokenizerId;
  /** Tokens in `text` under this tokenizer. */
  tokens(text: string): number;
  /** Unicode code points in `text`. */
  chars(text: string): number;
}

/** Whether a value names a tokenizer. */
export function isTokenizerId(value: unknown): value is TokenizerId {
  return value === 'o200k' || value === 'cl100k' || value === 'chars';
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The number of Unicode code points in `text` (a surrogate pair counts once). */
export function countCodePoints(text: string): number {
  // Most texts have no surrogate at all; a native scan settles that.
  if (!SURROGATE.test(text)) return text.length;
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Count a pair once: skip the low half that follows a high half.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** A counter over any raw token-counting function, caching both counts by string. */
export function createTokenCounter(
  id: TokenizerId,
  countRaw: (text: string) => number,
): TokenCounter {
  const tokenCache = new Map<string, number>();
  const charCache = new Map<string, number>();
  return {
    id,
    tokens(text) {
      let count = tokenCache.get(text);
      if (count === undefined) {
        count = text.length === 0 ? 0 : countRaw(text);
        tokenCache.set(text, count);
      }
      return count;
    },
    chars(text) {
      let count = charCache.get(text);
      if (count === undefined) {
        count = countCodePoints(text);
        charCache.set(text, count);
      }
      return count;
    },
  };
}

// Special-token strings such as `<|endoftext|>` in a conversation are plain
// text to the model's tokenizer API, so count them as text instead of failing.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * gpt-tokenizer's byte-pair merge is quadratic in the length of one
 * pre-tokenizer piece, and a piece is a whole run of letters (or of
 * punctuation, or of whitespace): 30,000 letters with no space, digit or
 * punctuation take 0.7 s (30,000 CJK characters 5.7 s), and a 10 MB run
 * never finishes. Runs at least this long are counted in chunks of
 * {@link RUN_CHUNK}; everything else is counted exactly.
 */
export const LONG_RUN = 2048;
const RUN_CHUNK = 1024;

/** A coarse class of a UTF-16 code unit: a run of one class can be one BPE piece. */
function runClass(code: number): number {
  if (code >= 0x30 && code <= 0x39) return 0; // digits: pieces of at most 3
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 1; // whitespace
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code >= 0x80) return 2;
  return 3; // ASCII punctuation
}

/** Counts one long run in chunks of {@link RUN_CHUNK}, never splitting a surrogate pair. */
function countRunInChunks(
  text: string,
  start: number,
  end: number,
  countRaw: (text: string) => number,
): number {
  let total = 0;
  for (let from = start; from < end; ) {
    let to = Math.min(from + RUN_CHUNK, end);
    const last = text.charCodeAt(to - 1);
    if (to < end && last >= 0xd800 && last <= 0xdbff) to++;
    total += countRaw(text.slice(from, to));
    from = to;
  }
  return total;
}

// A run of at least LONG_RUN characters holds two probes RUN_CHUNK apart
// (LONG_RUN >= 2 * RUN_CHUNK) with nothing but its own class between them, so
// probing every RUN_CHUNK characters finds every long run while reading only
// a few characters past each probe in ordinary text.
const PROBE = RUN_CHUNK;

/**
 * Counts `text` with `countRaw`, except that runs of one class at least
 * {@link LONG_RUN} long are counted in chunks. Exact for text without such
 * runs; on a long run of one repeated character the chunks agree with the
 * exact count, and elsewhere they differ by about a token per chunk.
 */
export function countWithLongRuns(text: string, countRaw: (text: string) => number): number {
  const length = text.length;
  if (length < LONG_RUN) return countRaw(text);
  let total = 0;
  let counted = 0; // text before this offset is already counted
  for (let probe = 0; probe + PROBE < length; probe += PROBE) {
    if (probe < counted) continue;
    const kind = runClass(text.charCodeAt(probe));
    let i = probe + 1;
    while (i <= probe + PROBE && runClass(text.charCodeAt(i)) === kind) i++;
    if (i <= probe + PROBE) continue;
    let runStart = probe;
    while (runStart > counted && runClass(text.charCodeAt(runStart - 1)) === kind) runStart--;
    let runEnd = probe + PROBE + 1;
    while (runEnd < length && runClass(text.charCodeAt(runEnd)) === kind) runEnd++;
    if (runEnd - runStart < LONG_RUN) {
      // Probes inside this short run would find it again: step past its end.
      probe = Math.ceil(runEnd / PROBE) * PROBE - PROBE;
      continue;
    }
    if (runStart > counted) total += countRaw(text.slice(counted, runStart));
    total += countRunInChunks(text, runStart, runEnd, countRaw);
    counted = runEnd;
  }
  if (counted === 0) return countRaw(text);
  if (counted < length) total += countRaw(text.slice(counted));
  return total;
}

/**
 * Loads a tokenizer. The BPE tables are large (about 2 MB each), so they are
 * imported only when first chosen.
 */
export async function loadTokenCounter(id: TokenizerId): Promise<TokenCounter> {
  switch (id) {
    case 'o200k': {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      const count = (text: string) => countTokens(text, AS_TEXT);
      return createTokenCounter(id, (text) => countWithLongRuns(text, count));
    }
    case 'cl100k': {
      const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
      const count = (text: string) => countTokens(text, AS_TEXT);
      return createTokenCounter(id, (text) => countWithLongRuns(text, count));
    }
    case 'chars':
      return createTokenCounter(id, (text) => Math.ceil(countCodePoints(text) / 4));
  }
}
