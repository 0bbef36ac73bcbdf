import { formatDiagnostic as formatCoreDiagnostic } from '../core/diagnostics.ts';
import type { Diagnostic } from '../core/types.ts';
import { readInputText } from './read-input.ts';
import { escapeForTerminal, escapeLines } from './terminal.ts';

/** Where the CLI reads and writes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * The text of a file, or of standard input for `-`; throws CliError when
   * it cannot be read. `stream`: a stream or transcript, whose last line
   * may have been cut mid-write, even inside a character (`DecodeOptions`).
   */
  readText(path: string, kind?: InputKind): string;
}

/** What an input is: a stream or transcript, or any other file (a config, a metadata.json). */
export type InputKind = 'stream' | 'other';

/** A problem with the user's input or arguments: printed as one line, exit code 2. */
export class CliError extends Error {}

/** The output could not be written (a full disk, a read-only folder): one line, exit code 1. */
export class CliWriteError extends CliError {}

/**
 * The reader of a pipe the output goes to closed it (`--output FIFO` read by
 * `head -1`): the command ends quietly with exit code 0, as with `| head`.
 */
export class OutputReaderGone extends Error {}

/**
 * `FILE:line:col: severity: message` on one line: a line break in the path
 * or in a quoted value is escaped, so data cannot start a line of its own.
 */
export function formatDiagnostic(file: string, diagnostic: Diagnostic): string {
  return formatCoreDiagnostic(escapeForTerminal(file), {
    ...diagnostic,
    message: escapeForTerminal(diagnostic.message),
  });
}

/** A failed write as a few words: ENOSPC → "no space left on the device". */
export function describeWriteError(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'no such folder';
    case 'EISDIR':
      return 'is a folder';
    case 'EFBIG':
      return 'the file would be too large';
    case 'EBADF':
      return 'the descriptor is closed';
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return message.split('\n')[0] ?? message;
    }
  }
}

let outputErrorsHandled = false;

/**
 * Standard output that fails: a closed pipe (`report … | head -1`) ends the
 * command quietly, as the reader asked; any other failure (a full disk) is
 * one line and exit code 1, never a stack trace.
 */
function handleOutputErrors(): void {
  if (outputErrorsHandled) return;
  outputErrorsHandled = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write(`error: cannot write the output: ${describeWriteError(error)}\n`);
    process.exit(1);
  });
  // Nothing can be said about a standard error that fails; it must not crash the command.
  process.stderr.on('error', () => {});
}

/**
 * The real process's input and output. Everything on stderr is for people
 * and may quote the data (a path, a value), so it is escaped for the
 * terminal; stdout carries JSON or the escaped tables.
 */
export function createNodeIo(): CliIo {
  handleOutputErrors();
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(escapeLines(text)),
    readText: (path, kind = 'other') => {
      const read = readInputText(path, kind);
      if (read.ok) return read.text;
      const { failure } = read;
      throw new CliError(
        failure.kind === 'io'
          ? `${path}:1:1: error: ${failure.reason}`
          : formatDiagnostic(path, failure.diagnostic),
      );
    },
  };
}
