/**
 * Bytes to text, as JP reads its files: `events.json`, `metadata.json` and
 * config layers are UTF-8, and serde_json (like the `toml` crate) refuses a
 * file that is not valid UTF-8. Replacing bad bytes with U+FFFD, as
 * `TextDecoder` and Node's `'utf8'` do by default, would show figures for a
 * file JP cannot open, and `compact`/`reset` would write the replacement
 * characters back. So decoding refuses, at the first bad byte.
 */
import { formatCount } from '../counting/format.ts';
import { decodeUtf8Strict } from '../stream/base64.ts';
import type { Diagnostic } from '../types.ts';

/** The text, or why the bytes are not UTF-8 with the position of the first bad byte. */
export type DecodedText = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

/** How to decode. */
export interface DecodeOptions {
  /**
   * The text is a stream, whose last line may have been cut mid-write (a
   * session being written when it was copied): a character cut short at
   * the very end of the bytes becomes U+FFFD, so that line does not read
   * as JSON and is skipped as a line cut at an ASCII character is, rather
   * than the whole file refused. Never for a config: a TOML comment so cut
   * would read, where JP refuses the file.
   */
  lastLineMayBeCut?: boolean;
}

/**
 * Decodes UTF-8 strictly; a byte-order mark is kept as U+FEFF, as JP's
 * readers see it.
 */
export function decodeUtf8(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const wide = detectWideEncoding(bytes);
  if (wide !== undefined) {
    return {
      ok: false,
      diagnostic: {
        line: 1,
        column: 1,
        severity: 'error',
        code: 'input/utf16',
        message: `This file is ${wide.name} (${wide.detail}), not UTF-8. JP reads its files as UTF-8 only: convert it, e.g. with \`iconv -f ${wide.iconv} -t UTF-8\`, or save it as UTF-8.`,
      },
    };
  }
  const text = decodeUtf8Strict(bytes);
  if (text !== undefined) return { ok: true, text };
  if (options.lastLineMayBeCut) {
    const cut = decodeCutEnd(bytes);
    if (cut !== undefined) return { ok: true, text: cut };
  }
  // Only invalid text pays for the walk that finds where.
  const bad = findInvalidUtf8(bytes) ?? { offset: bytes.length, reason: 'is not valid UTF-8' };
  return { ok: false, diagnostic: describeInvalidUtf8(bytes, bad) };
}

/**
 * The text of bytes whose only fault is a character cut short at their very
 * end, with U+FFFD in its place; undefined for any other fault.
 */
export function decodeCutEnd(bytes: Uint8Array): string | undefined {
  // A lead byte among the last three, every byte after it a continuation, fewer than it needs.
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const lead = bytes[bytes.length - back] as number;
    if ((lead & 0xc0) === 0x80) continue;
    if (lead < 0xc2 || lead > 0xf4) return undefined;
    const needs = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (needs <= back) return undefined;
    const head = decodeUtf8Strict(bytes.subarray(0, bytes.length - back));
    return head === undefined ? undefined : `${head}\ufffd`;
  }
  return undefined;
}

/**
 * Which UTF-16 or UTF-32 a byte-order mark or the zero bytes of ASCII text
 * show, if any, with the name iconv knows it by. UTF-32's marks are checked
 * first: little-endian UTF-32's (FF FE 00 00) starts with UTF-16's.
 */
function detectWideEncoding(
  bytes: Uint8Array,
): { name: string; detail: string; iconv: string } | undefined {
  const [a, b, c, d] = bytes;
  const four = bytes.length >= 4;
  const withMark = 'with a byte-order mark';
  if (four && a === 0xff && b === 0xfe && c === 0 && d === 0)
    return { name: 'UTF-32', detail: `little-endian, ${withMark}`, iconv: 'UTF-32' };
  if (four && a === 0 && b === 0 && c === 0xfe && d === 0xff)
    return { name: 'UTF-32', detail: `big-endian, ${withMark}`, iconv: 'UTF-32' };
  if (a === 0xff && b === 0xfe)
    return { name: 'UTF-16', detail: `little-endian, ${withMark}`, iconv: 'UTF-16' };
  if (a === 0xfe && b === 0xff)
    return { name: 'UTF-16', detail: `big-endian, ${withMark}`, iconv: 'UTF-16' };
  // JSON and TOML start with ASCII: in UTF-32 three of every four bytes of it are zero, in UTF-16 every other.
  if (four && a !== 0 && b === 0 && c === 0 && d === 0)
    return { name: 'UTF-32', detail: 'little-endian', iconv: 'UTF-32LE' };
  if (four && a === 0 && b === 0 && c === 0 && d !== 0)
    return { name: 'UTF-32', detail: 'big-endian', iconv: 'UTF-32BE' };
  if (four && a !== 0 && b === 0 && c !== 0 && d === 0)
    return { name: 'UTF-16', detail: 'little-endian', iconv: 'UTF-16LE' };
  if (four && a === 0 && b !== 0 && c === 0 && d !== 0)
    return { name: 'UTF-16', detail: 'big-endian', iconv: 'UTF-16BE' };
  return undefined;
}

/** The first byte that makes `bytes` invalid UTF-8, with what is wrong there. */
export function findInvalidUtf8(bytes: Uint8Array): { offset: number; reason: string } | undefined {
  const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else if (lead >= 0x80 && lead <= 0xbf) {
      return {
        offset: i,
        reason: `the byte ${hex(lead)} continues a character that never started`,
      };
    } else if (lead === 0xc0 || lead === 0xc1) {
      return { offset: i, reason: `the byte ${hex(lead)} starts an overlong encoding` };
    } else {
      return { offset: i, reason: `the byte ${hex(lead)} never occurs in UTF-8` };
    }
    let code = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) {
        return {
          offset: i,
          reason: `the ${length}-byte character starting with ${hex(lead)} is cut short`,
        };
      }
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min) return { offset: i, reason: 'an overlong encoding' };
    if (code >= 0xd800 && code <= 0xdfff) {
      return { offset: i, reason: 'an encoded surrogate (CESU-8 or WTF-8, not UTF-8)' };
    }
    if (code > 0x10ffff) return { offset: i, reason: 'a code point beyond U+10FFFF' };
    i += length;
  }
  return undefined;
}

/** The refusal: byte offset, line and column (UTF-16 units, as every diagnostic), and the cause. */
function describeInvalidUtf8(
  bytes: Uint8Array,
  bad: { offset: number; reason: string },
): Diagnostic {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < bad.offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = (decodeUtf8Strict(bytes.subarray(lineStart, bad.offset))?.length ?? 0) + 1;
  return {
    line,
    column,
    severity: 'error',
    code: 'input/invalid-utf8',
    message: `Invalid UTF-8 at byte offset ${formatCount(bad.offset)}: ${bad.reason}. JP reads its files as UTF-8 and refuses this one; save it as UTF-8.`,
  };
}
