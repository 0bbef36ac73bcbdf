/**
 * A JSON Lines file read in chunks (a `File.stream()` in the worker), so a
 * long session is decoded line by line with progress instead of as one
 * string built at once. Splitting happens on the LF byte: in UTF-8 it never
 * occurs inside a multi-byte character, so a character split across two
 * chunks is decoded whole. Decoding is strict, as for every file JP reads
 * (`json/utf8.ts`), except for a character cut short at the very end, as a
 * session being written is: it becomes U+FFFD, and its line is skipped as
 * any line cut mid-write.
 */
import { decodeCutEnd } from '../json/utf8.ts';
import { decodeUtf8Strict } from '../stream/base64.ts';
import type { Diagnostic } from '../types.ts';

const LF = 0x0a;

/** How to read. */
export interface ChunkedLinesOptions {
  /** Called with each line, without its line ending (LF or CRLF), and its 1-based number. */
  onLine: (text: string, line: number) => void;
  /** Called after each chunk with the bytes read so far. */
  onProgress?: (bytesRead: number) => void;
}

/** How reading ended: the number of lines, or the first line that is not UTF-8. */
export type ChunkedLinesResult =
  | { ok: true; lines: number; bytes: number }
  | { ok: false; diagnostic: Diagnostic };

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Reads the lines of a UTF-8 byte stream as its chunks arrive. */
export async function readChunkedLines(
  chunks: AsyncIterable<Uint8Array>,
  options: ChunkedLinesOptions,
): Promise<ChunkedLinesResult> {
  // Bytes after the last LF seen, kept as parts: a long line is joined once, not per chunk.
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  let line = 0;
  let bytes = 0;
  // The last block may end in a character cut mid-write: as decodeUtf8's streams, U+FFFD in its place.
  const emit = (block: Uint8Array, last = false): Diagnostic | undefined => {
    const text = decodeUtf8Strict(block) ?? (last ? decodeCutEnd(block) : undefined);
    if (text === undefined) {
      return {
        line: line + 1,
        column: 1,
        severity: 'error',
        code: 'input/utf8',
        message: `Line ${line + 1} (or one of the lines after it in the same chunk) is not valid UTF-8; JP reads its files as UTF-8 only.`,
      };
    }
    for (const part of text.split('\n')) {
      line++;
      options.onLine(part.endsWith('\r') ? part.slice(0, -1) : part, line);
    }
    return undefined;
  };
  for await (const chunk of chunks) {
    bytes += chunk.length;
    const last = chunk.lastIndexOf(LF);
    if (last < 0) {
      pending.push(chunk);
      pendingLength += chunk.length;
    } else {
      const head = chunk.subarray(0, last);
      const complete = concat([...pending, head], pendingLength + head.length);
      const failed = emit(complete);
      if (failed) return { ok: false, diagnostic: failed };
      const rest = chunk.subarray(last + 1);
      pending = rest.length > 0 ? [rest] : [];
      pendingLength = rest.length;
    }
    options.onProgress?.(bytes);
  }
  if (pendingLength > 0) {
    const failed = emit(concat(pending, pendingLength), true);
    if (failed) return { ok: false, diagnostic: failed };
  }
  return { ok: true, lines: line, bytes };
}
