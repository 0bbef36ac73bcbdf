/**
 * `--output FILE`: the command's standard output written to FILE without
 * losing data. What FILE is decides how (`planOutput`, output-target.ts):
 *
 * - a regular file, or nothing yet: the output is held until the command
 *   succeeds, then written to a temporary file beside FILE's target
 *   (`.NAME.PID.tmp`, links followed) with FILE's mode and owner, and
 *   renamed over it; so a failure (bad input, a full disk) never leaves FILE
 *   empty or half written, `compact f --output f` reads f before replacing
 *   it, and a symbolic link stays a link to the new file;
 * - a regular file a new file would change (its hard links, its owner, the
 *   command's own standard output): the held output is written over it in
 *   place once the command succeeds;
 * - a pipe or a character device (`/dev/null`, `/dev/stdout` on a terminal):
 *   the output goes into it as it is produced, as with `>`;
 * - anything else, or what this user may not write: refused, naming FILE,
 *   before the command runs.
 *
 * The output is held in memory, not in the temporary file, while the command
 * runs: the commands compute synchronously, and Node.js runs a signal
 * handler only between tasks, so a handler installed for the whole run would
 * keep Ctrl-C from stopping a long command (or one reading a standard input
 * that never ends). As it is, an interrupted command is killed at once and
 * has made no file; the temporary file exists only while FILE is written,
 * when SIGHUP, SIGINT and SIGTERM are held (see {@link holdSignals}).
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { constants as osConstants } from 'node:os';
import { basename, dirname, join } from 'node:path';
import {
  CliError,
  type CliIo,
  CliWriteError,
  describeWriteError,
  OutputReaderGone,
} from './cli-io.ts';
import { type OutputTarget, planOutput, readOutputTarget } from './output-target.ts';

/** `--output FILE` (or `--output=FILE`) taken out of the arguments, which the commands parse. */
export function takeOutputOption(args: readonly string[]): {
  args: string[];
  output: string | undefined;
} {
  const rest: string[] = [];
  let output: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === '--output' || arg.startsWith('--output=')) {
      const value = arg === '--output' ? args[++i] : arg.slice('--output='.length);
      if (value === undefined || value === '') throw new CliError('--output needs a FILE');
      if (output !== undefined) throw new CliError('--output is given twice');
      output = value;
      continue;
    }
    rest.push(arg);
  }
  return { args: rest, output };
}

/** FILE being written: `io` writes into it; `finish` ends it. */
export interface OutputFile {
  io: CliIo;
  /**
   * Writes the held output into FILE when `keep` (the command succeeded),
   * else drops it; closes what was written through. Throws CliWriteError,
   * naming FILE, on failure.
   */
  finish(keep: boolean): void;
}

/** Opens `--output FILE`, or refuses it (CliWriteError naming FILE) before the command runs. */
export function openOutputFile(path: string, io: CliIo): OutputFile {
  const fail = (reason: string): never => {
    throw new CliWriteError(`${path}: error: cannot write the output: ${reason}`);
  };
  const target = readOutputTarget(path);
  const plan = planOutput(target);
  switch (plan.how) {
    case 'refuse':
      return fail(plan.reason);
    case 'write-through':
      return openWriteThrough(path, io, fail);
    case 'replace':
    case 'overwrite': {
      const held = createHeldOutput();
      return {
        io: { ...io, stdout: held.add },
        finish: (keep) => {
          if (!keep) return;
          holdSignals();
          if (plan.how === 'replace') replaceFile(target, held, fail);
          else overwriteFile(path, held, fail);
        },
      };
    }
  }
}

/** A pipe or a device: written as the output comes, as `>` would. */
function openWriteThrough(path: string, io: CliIo, fail: (reason: string) => never): OutputFile {
  let fd: number;
  try {
    // No O_CREAT or O_TRUNC: this opens what is there, and makes nothing.
    fd = openSync(path, constants.O_WRONLY | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    return fail(describeWriteError(error));
  }
  if (fstatSync(fd).isFile()) {
    // Replaced by a regular file since it was looked at: writing from its start would leave its tail.
    closeSync(fd);
    return fail('it became a regular file while it was being opened; run the command again');
  }
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
  return {
    io: {
      ...io,
      stdout: (text) => {
        try {
          writeFully(fd, Buffer.from(text, 'utf8'), null);
        } catch (error) {
          close();
          // The pipe's reader has gone (`--output fifo` read by `head -1`): end quietly, as with `| head`.
          if ((error as { code?: string }).code === 'EPIPE') throw new OutputReaderGone();
          fail(describeWriteError(error));
        }
      },
    },
    finish: close,
  };
}

/** The output kept in memory until the command succeeds, as UTF-8 chunks. */
interface HeldOutput {
  add(text: string): void;
  chunks: Buffer[];
  /** Bytes held. */
  size(): number;
}

function createHeldOutput(): HeldOutput {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add: (text) => {
      const chunk = Buffer.from(text, 'utf8');
      chunks.push(chunk);
      size += chunk.length;
    },
    chunks,
    size: () => size,
  };
}

/** A new file beside the target, with its mode and owner, renamed over it. */
function replaceFile(target: OutputTarget, held: HeldOutput, fail: (reason: string) => never) {
  const { resolvedPath, stats } = target;
  const temporary = join(dirname(resolvedPath), `.${basename(resolvedPath)}.${process.pid}.tmp`);
  let fd: number;
  try {
    // A new FILE gets the mode `>` would give it (0666 less the umask).
    fd = openSync(temporary, 'wx');
  } catch (error) {
    return fail(describeWriteError(error));
  }
  let open = true;
  try {
    writeRange(fd, held.chunks, 0, held.size());
    if (stats !== undefined) {
      const made = fstatSync(fd);
      // chown before chmod: chown clears the set-user-ID and set-group-ID bits.
      if (made.uid !== stats.uid || made.gid !== stats.gid) fchownSync(fd, stats.uid, stats.gid);
      fchmodSync(fd, stats.mode & 0o7777);
    }
    // On disk before the rename, so a crash right after it cannot leave FILE empty.
    fsyncSync(fd);
    open = false;
    closeSync(fd);
    renameSync(temporary, resolvedPath);
  } catch (error) {
    if (open) closeSync(fd);
    rmSync(temporary, { force: true });
    fail(describeWriteError(error));
  }
}

/**
 * FILE written over in place. The part past its old end is written first:
 * a disk that fills fails there, before any old byte is touched, and FILE is
 * cut back to its old length; the rest then overwrites blocks FILE already
 * has.
 */
function overwriteFile(path: string, held: HeldOutput, fail: (reason: string) => never) {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    return fail(describeWriteError(error));
  }
  try {
    const before = fstatSync(fd).size;
    const size = held.size();
    if (size > before) {
      try {
        writeRange(fd, held.chunks, before, size);
      } catch (error) {
        ftruncateSync(fd, before);
        fail(`${describeWriteError(error)}; it is as it was`);
      }
    }
    try {
      writeRange(fd, held.chunks, 0, Math.min(before, size));
      ftruncateSync(fd, size);
      fsyncSync(fd);
    } catch (error) {
      fail(`${describeWriteError(error)}; it may be partly overwritten`);
    }
  } finally {
    closeSync(fd);
  }
}

/** Writes bytes `from` to `to` of the chunks joined, each at its own offset in the file. */
function writeRange(fd: number, chunks: readonly Buffer[], from: number, to: number) {
  let offset = 0;
  for (const chunk of chunks) {
    const start = Math.max(from, offset);
    const end = Math.min(to, offset + chunk.length);
    if (start < end) writeFully(fd, chunk.subarray(start - offset, end - offset), start);
    offset += chunk.length;
    if (offset >= to) break;
  }
}

/** `writeSync` until all of `bytes` is written (at `position`, or where the file is for null). */
function writeFully(fd: number, bytes: Uint8Array, position: number | null) {
  let done = 0;
  while (done < bytes.length) {
    const at = position === null ? null : position + done;
    done += writeSync(fd, bytes, done, bytes.length - done, at);
  }
}

const HELD_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const;

/** The conventional exit code of a command ended by `signal`: 128 plus its number (SIGINT 130, SIGTERM 143). */
export function getSignalExitCode(signal: (typeof HELD_SIGNALS)[number]): number {
  return 128 + osConstants.signals[signal];
}

function exitOnSignal(signal: NodeJS.Signals) {
  process.exit(getSignalExitCode(signal as (typeof HELD_SIGNALS)[number]));
}

/**
 * Holds SIGHUP, SIGINT and SIGTERM while FILE is written: a handler
 * installed, a signal no longer kills the process mid-write (leaving the
 * temporary file, or FILE half overwritten); Node.js runs the handler once
 * the synchronous write has ended, with the temporary file renamed or
 * removed, and the command then exits with the signal's conventional code
 * ({@link deliverHeldSignals}).
 */
function holdSignals() {
  for (const signal of HELD_SIGNALS) {
    if (!process.listeners(signal).includes(exitOnSignal)) process.on(signal, exitOnSignal);
  }
}

/**
 * Lets a signal that came while FILE was written end the command now, with
 * its conventional exit code, then stops holding signals. A timer, not an
 * immediate: the event loop reads pending signals while it waits for one.
 */
export async function deliverHeldSignals(): Promise<void> {
  if (!process.listeners('SIGINT').includes(exitOnSignal)) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (const signal of HELD_SIGNALS) process.off(signal, exitOnSignal);
}
