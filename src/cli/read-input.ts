/**
 * Reading one input of the CLI: a regular file, or standard input for `-`.
 * Both stop at {@link MAX_CLI_INPUT_BYTES}, so `/dev/zero` or an endless
 * pipe ends with one line instead of exhausting memory; anything else (a
 * FIFO, a device, a socket) is refused before it is opened, since opening a
 * FIFO without a writer blocks forever. The bytes must be UTF-8, as JP
 * reads them.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { describeInputTooLarge, MAX_CLI_INPUT_BYTES } from '../core/json/limits.ts';
import { decodeUtf8 } from '../core/json/utf8.ts';
import type { Diagnostic } from '../core/types.ts';

/** Why an input could not be read: the one line the CLI prints after `PATH:line:col: error: `. */
export type ReadFailure = { kind: 'io'; reason: string } | { kind: 'text'; diagnostic: Diagnostic };

/** The text of `path` (`-` for standard input), or why it cannot be read; `stream`: its last line may be cut mid-character. */
export function readInputText(
  path: string,
  kind: 'stream' | 'other' = 'other',
): { ok: true; text: string } | { ok: false; failure: ReadFailure } {
  const bytes = readInputBytes(path);
  if (typeof bytes === 'string') return { ok: false, failure: { kind: 'io', reason: bytes } };
  const decoded = decodeUtf8(bytes, { lastLineMayBeCut: kind === 'stream' });
  return decoded.ok
    ? { ok: true, text: decoded.text }
    : { ok: false, failure: { kind: 'text', diagnostic: decoded.diagnostic } };
}

/** The bytes, or the reason they cannot be read. */
function readInputBytes(path: string): Uint8Array | string {
  if (path === '-') return readAll(0);
  let fd: number;
  try {
    const kind = describeNonFile(statSync(path));
    if (kind !== undefined) return kind;
    // O_NONBLOCK: if a FIFO replaced the file since the stat, opening it still returns at once.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return describeError(error);
  }
  try {
    const stats = fstatSync(fd);
    const kind = describeNonFile(stats);
    if (kind === undefined && stats.size === 0 && isStandardOutput(stats)) return EMPTIED_BY_SHELL;
    return kind ?? readAll(fd);
  } catch (error) {
    return describeError(error);
  } finally {
    closeSync(fd);
  }
}

/** `compact f > f`: the shell empties f before the command starts, so all there is to do is say so. */
const EMPTIED_BY_SHELL =
  'is empty, and standard output is this same file: the shell emptied it before the command ran ' +
  '(`> FILE` on the file being read). Restore it from a copy; to replace an input, use --output FILE, ' +
  'which writes it only when the command succeeds';

/** Whether standard output is the file `stats` describes. */
function isStandardOutput(stats: import('node:fs').Stats): boolean {
  try {
    const out = fstatSync(1);
    return out.isFile() && out.dev === stats.dev && out.ino === stats.ino;
  } catch {
    return false;
  }
}

function describeNonFile(stats: import('node:fs').Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'is a folder, not a file';
  const kind = stats.isFIFO()
    ? 'a named pipe (FIFO)'
    : stats.isCharacterDevice() || stats.isBlockDevice()
      ? 'a device'
      : stats.isSocket()
        ? 'a socket'
        : 'not a regular file';
  return `is ${kind}, not a regular file; pass a file, or - to read standard input`;
}

function describeError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  return 'cannot be read';
}

const CHUNK = 1024 * 1024;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Reads `fd` to its end, or to one byte past the limit. */
function readAll(fd: number): Uint8Array | string {
  const chunks: Buffer[] = [];
  let total = 0;
  while (true) {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let read: number;
    try {
      read = readSync(fd, chunk, 0, CHUNK, null);
    } catch (error) {
      // Standard input may be a non-blocking pipe with nothing in it yet: wait, then try again.
      if ((error as { code?: string }).code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 10);
        continue;
      }
      return describeError(error);
    }
    if (read === 0) break;
    total += read;
    if (total > MAX_CLI_INPUT_BYTES) return describeInputTooLarge();
    chunks.push(read === CHUNK ? chunk : chunk.subarray(0, read));
  }
  return Buffer.concat(chunks, total);
}
