/**
 * The json folder owns JSON text below the event level: scanning for exact
 * positions (this file), the first syntax error as a sentence
 * (syntax-error.ts), input limits (limits.ts), strict UTF-8 (utf8.ts), lone
 * surrogates (surrogates.ts), number text kept through a round trip
 * (number-text.ts), keys written twice (duplicate-keys.ts), own-key reads
 * of values (values.ts) and walks over values (walk.ts).
 *
 * Scanning JSON text for positions. These scanners assume text JSON.parse
 * has accepted, except `findSyntaxError` (syntax-error.ts), which runs only
 * when it has not.
 */

export const SPACE = 0x20;
export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;

export function isJsonWhitespace(code: number): boolean {
  return code === SPACE || code === LF || code === CR || code === TAB;
}

export function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isJsonWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** The offset just past the well-formed JSON value starting at `start`. */
export function skipValue(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return skipJsonString(text, start);
  if (first !== 0x7b && first !== 0x5b) {
    let i = start;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === 0x2c || code === 0x5d || code === 0x7d || isJsonWhitespace(code)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = skipJsonString(text, i);
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

/** Start and end offsets of each element of the top-level array. */
export function scanArrayElements(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = skipWhitespace(text, 0) + 1; // past '['
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length || text.charCodeAt(i) === 0x5d) break;
    starts.push(i);
    i = skipValue(text, i);
    ends.push(i);
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) === 0x2c) i++;
  }
  return { starts, ends };
}

/** Where a top-level field of the object at `objectStart` sits, if it is there. */
export function locateField(
  text: string,
  objectStart: number,
  field: string,
): { keyStart: number; valueStart: number; valueEnd: number } | undefined {
  if (text.charCodeAt(objectStart) !== 0x7b) return undefined;
  let i = objectStart + 1;
  let found: { keyStart: number; valueStart: number; valueEnd: number } | undefined;
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length || text.charCodeAt(i) !== QUOTE) return found;
    const keyStart = i;
    const keyEnd = skipJsonString(text, i);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd) + 1; // past ':'
    const valueStart = skipWhitespace(text, i);
    const valueEnd = skipValue(text, valueStart);
    // The last occurrence wins, as in JSON.parse.
    if (key === field) found = { keyStart, valueStart, valueEnd };
    i = skipWhitespace(text, valueEnd);
    if (text.charCodeAt(i) !== 0x2c) return found;
    i++;
  }
}

/** The offset just past the JSON string whose opening quote is at `start` (the text's end if unclosed). */
export function skipJsonString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
