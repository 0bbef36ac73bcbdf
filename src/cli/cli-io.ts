import { formatDiagnostic as formatCoreDiagnostic } from '../core/diagnostics.ts';
import type { Diagnostic } from '../core/types.ts';
import { readInputText } from './read-input.ts';
import { escapeForTerminal, escapeLines } from './terminal.ts';

/** Where the CLI reads and writes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The text of a file, or of standard input for `-`; throws CliError when it cannot be read. */
  readText(path: string): string;
}

/** A problem with the user's input or arguments: printed as one line, exit code 2. */
export class CliError extends Error {}

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

/**
 * The real process's input and output. Everything on stderr is for people
 * and may quote the data (a path, a value), so it is escaped for the
 * terminal; stdout carries JSON or the escaped tables.
 */
export function createNodeIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(escapeLines(text)),
    readText: (path) => {
      const read = readInputText(path);
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
