/**
 * Token and character counting (spec 14.4). Counting is the pipeline's main
 * cost, so every counter caches by string: changing a hint recounts only the
 * few new texts (stripped arguments and `[compacted] …` lines).
 */

/** The tokenizers the playground offers. */
export type TokenizerId = 'o200k' | 'cl100k' | 'chars';

/** Every tokenizer id, default first. */
export const TOKENIZER_IDS: readonly TokenizerId[] = ['o200k', 'cl100k', 'chars'];

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

/** The number of Unicode code points in `text` (a surrogate pair counts once). */
export function countCodePoints(text: string): number {
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
 * Loads a tokenizer. The BPE tables are large (about 2 MB each), so they are
 * imported only when first chosen.
 */
export async function loadTokenCounter(id: TokenizerId): Promise<TokenCounter> {
  switch (id) {
    case 'o200k': {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      return createTokenCounter(id, (text) => countTokens(text, AS_TEXT));
    }
    case 'cl100k': {
      const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
      return createTokenCounter(id, (text) => countTokens(text, AS_TEXT));
    }
    case 'chars':
      return createTokenCounter(id, (text) => Math.ceil(countCodePoints(text) / 4));
  }
}
