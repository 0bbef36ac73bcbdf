/**
 * `--output FILE`: the command's standard output written to a temporary file
 * beside FILE and renamed over it only when the command succeeds, so a
 * failure (bad input, a full disk) never leaves FILE empty or half written,
 * and `compact f --output f` reads f before replacing it.
 */
import { chmodSync, closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError, type CliIo, CliWriteError, describeWriteError } from './cli-io.ts';

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

/** A file being written: `io` writes into it; `finish` renames it into place or removes it. */
export interface OutputFile {
  io: CliIo;
  /** Renames the temporary file over the target when `keep`, else removes it. Throws CliError on failure. */
  finish(keep: boolean): void;
}

export function openOutputFile(path: string, io: CliIo): OutputFile {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fail = (error: unknown): never => {
    throw new CliWriteError(
      `${path}: error: cannot write the output: ${describeWriteError(error)}`,
    );
  };
  let fd: number;
  try {
    fd = openSync(temporary, 'wx');
  } catch (error) {
    return fail(error);
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const discard = () => {
    close();
    rmSync(temporary, { force: true });
  };
  return {
    io: {
      ...io,
      stdout: (text) => {
        try {
          writeSync(fd, text);
        } catch (error) {
          discard();
          fail(error);
        }
      },
    },
    finish: (keep) => {
      if (!keep) {
        discard();
        return;
      }
      try {
        close();
        // A file being replaced keeps its permissions.
        const mode = existingMode(path);
        if (mode !== undefined) chmodSync(temporary, mode);
        renameSync(temporary, path);
      } catch (error) {
        discard();
        fail(error);
      }
    },
  };
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}
