/**
 * Helpers to build diagnostics with exact positions from offsets into the
 * user's text.
 */
import type { Diagnostic, Severity } from './types.ts';

/** Maps 0-based UTF-16 offsets of a text to 1-based line and column. */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
  }

  /** The 1-based line and column of a 0-based offset. */
  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.lineStarts[low] as number) + 1 };
  }

  /** The 0-based offset of a 1-based line and column. */
  offset(line: number, column: number): number {
    return (this.lineStarts[line - 1] ?? 0) + column - 1;
  }
}

/** A diagnostic spanning `[start, end)` offsets of a text indexed by `index`. */
export function diagnosticAt(
  index: LineIndex,
  start: number,
  end: number,
  severity: Severity,
  message: string,
  code?: string,
): Diagnostic {
  const from = index.position(start);
  const to = index.position(Math.max(end, start + 1));
  const diagnostic: Diagnostic = {
    line: from.line,
    column: from.column,
    endLine: to.line,
    endColumn: to.column,
    severity,
    message,
  };
  if (code !== undefined) diagnostic.code = code;
  return diagnostic;
}

/** Whether any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** One line for a terminal: `file:line:column: severity: message`. */
export function formatDiagnostic(file: string, diagnostic: Diagnostic): string {
  return `${file}:${diagnostic.line}:${diagnostic.column}: ${diagnostic.severity}: ${diagnostic.message}`;
}
