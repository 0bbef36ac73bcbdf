/**
 * The loss guard: after an import, the tool calls the source holds (every
 * call item, by id) against those the report counts. Where the import left
 * calls out (an inline subagent, a rewound branch, an item type it does not
 * know), counted a repeated one once, or sanitize dropped some (calls before
 * the first user message), one line says how many and why, so no figure
 * disagrees with the file without saying so. The page's import summary and
 * the CLI's counting commands print the same line.
 */
import { sanitize } from '../stream/sanitize.ts';
import type { StreamElement } from '../types.ts';
import { UNREADABLE_LINE_NOTE_CODE } from './source.ts';
import { IMPORT_FORMAT_LABELS, type ImportResult } from './types.ts';

/** The calls of one import, from the source to the report. */
export interface ImportAccount {
  /** Distinct call ids in the source (the importer's own count, else imported + noted). */
  sourceCalls: number;
  /** Calls in the imported stream. */
  importedCalls: number;
  /** Calls the report counts (after sanitize, when the report sanitizes). */
  countedCalls: number;
  /** Calls the import left out or counted once, per note code. */
  leftOut: { code: string; calls: number }[];
  /** Calls sanitize dropped. */
  droppedBySanitize: number;
  /** Source calls no note accounts for: the figure that must stay 0. */
  unexplained: number;
  /** Items skipped without a call in them, per note code. */
  skipped: { code: string; count: number }[];
  /** Lines of a JSON Lines source that did not read: how many, and the first. */
  unreadableLines?: { count: number; line: number };
}

function countCalls(elements: readonly StreamElement[]): number {
  return elements.filter((element) => element.type === 'tool_call_request').length;
}

/** The account of an import; `sanitized`: whether the report counts the sanitized stream. */
export function accountImport(result: ImportResult, sanitized = true): ImportAccount {
  const elements = result.elements ?? [];
  const importedCalls = countCalls(elements);
  const countedCalls = sanitized ? countCalls(sanitize(elements)) : importedCalls;
  const leftOut = result.notes
    .filter((note) => (note.calls ?? 0) > 0)
    .map((note) => ({ code: note.code, calls: note.calls ?? 0 }));
  const noted = leftOut.reduce((sum, entry) => sum + entry.calls, 0);
  const sourceCalls = result.sourceCalls ?? importedCalls + noted;
  const unreadable = result.notes.find((note) => note.code === UNREADABLE_LINE_NOTE_CODE);
  const account: ImportAccount = {
    sourceCalls,
    importedCalls,
    countedCalls,
    leftOut,
    droppedBySanitize: importedCalls - countedCalls,
    unexplained: sourceCalls - importedCalls - noted,
    skipped: result.notes
      .filter((note) => (note.calls ?? 0) === 0 && note !== unreadable)
      .map((note) => ({ code: note.code, count: note.count })),
  };
  if (unreadable !== undefined) {
    account.unreadableLines = { count: unreadable.count, line: unreadable.line ?? 1 };
  }
  return account;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The account as one line: the calls from the file to the report, and what was skipped. */
export function describeImportAccount(result: ImportResult, account: ImportAccount): string {
  const format = result.format === null ? 'an unknown format' : IMPORT_FORMAT_LABELS[result.format];
  const reasons: string[] = [];
  for (const { code, calls } of account.leftOut) reasons.push(`${calls} by ${code}`);
  if (account.droppedBySanitize > 0) {
    reasons.push(
      `${account.droppedBySanitize} dropped by sanitize (before the first user message)`,
    );
  }
  if (account.unexplained !== 0) reasons.push(`${account.unexplained} unexplained`);
  const calls =
    account.sourceCalls === account.countedCalls && reasons.length === 0
      ? `${plural(account.sourceCalls, 'tool call')} in the file, all counted`
      : `${plural(account.sourceCalls, 'tool call')} in the file, ${account.countedCalls} counted: ${reasons.join(', ')}`;
  const skipped =
    account.skipped.length === 0
      ? 'nothing skipped or changed'
      : `skipped or changed: ${account.skipped.map(({ code, count }) => `${code} ×${count}`).join(', ')}`;
  const unreadable = account.unreadableLines;
  const lines =
    unreadable === undefined
      ? ''
      : `; ${plural(unreadable.count, 'line')} unreadable and skipped (${unreadable.count === 1 ? 'line' : 'the first at line'} ${unreadable.line}): a call in it is known only where a later result names it`;
  const because = result.readBecause === undefined ? '' : `: ${result.readBecause}`;
  return `read as ${format}${because}${lines}; ${calls}; ${skipped}`;
}
