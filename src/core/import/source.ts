/**
 * Reading a transcript's text: JSON Lines one line at a time (a malformed
 * line is a diagnostic with its line and column, and the other lines still
 * read), or one JSON document with the line of each object and array in it,
 * so that notes can say where an item is.
 */
import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import { describeTooDeepNesting, findTooDeepNesting, MAX_NESTING_DEPTH } from '../json/limits.ts';
import { skipJsonString, skipWhitespace } from '../json/scan.ts';
import { findSyntaxError } from '../json/syntax-error.ts';
import { parseJson } from '../json/values.ts';
import type { Diagnostic, JsonValue } from '../types.ts';
import { IMPORT_FORMAT_LABELS, type ImportFormat, type ImportResult } from './types.ts';

/** One line of a JSON Lines file that parsed. */
export interface JsonLine {
  /** 1-based line number. */
  line: number;
  value: JsonValue;
}

/** A JSON Lines text, read. */
export interface JsonLines {
  lines: JsonLine[];
  /** One error per line that is not JSON (or nested deeper than JP reads). */
  diagnostics: Diagnostic[];
  /** How many non-blank lines the text has. */
  nonBlank: number;
  /**
   * The lines that did not read, with their text: a line cut mid-write may
   * still name the call it held, which {@link noteUnreadableLines} looks for.
   */
  unreadable: UnreadableLine[];
}

/** A line that did not read: where, its text, and why. */
export interface UnreadableLine {
  line: number;
  text: string;
  /** Not JSON (as when cut mid-write), or nested deeper than JP reads. */
  problem: 'not-json' | 'too-deep';
  /** Where and how it breaks, for the message. */
  detail: string;
}

// Values are nested inside a JP element (`arguments` of a tool call), which
// is inside the events array: keep two levels for them.
const LINE_DEPTH = MAX_NESTING_DEPTH - 2;

/**
 * Reads JSON Lines. Each line is parsed on its own, so memory and time grow
 * with the longest line, not the file. `onLine` is called every 1,000 lines
 * with the share of the text read, for progress on long files.
 */
export function readJsonLines(text: string, onProgress?: (share: number) => void): JsonLines {
  const read: JsonLines = { lines: [], diagnostics: [], nonBlank: 0, unreadable: [] };
  let start = 0;
  let number = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    number++;
    const lineText = text.slice(start, end);
    addJsonLine(read, lineText.endsWith('\r') ? lineText.slice(0, -1) : lineText, number);
    if (onProgress && number % 1000 === 0) onProgress(end / Math.max(text.length, 1));
    start = end + 1;
  }
  return read;
}

/** Reads one line (without its line ending) into `read`: a blank line is skipped, a bad one is a diagnostic. */
export function addJsonLine(read: JsonLines, text: string, number: number): void {
  const lineText = number === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (lineText.trim() === '') return;
  read.nonBlank++;
  const parsed = readLine(lineText, number);
  if ('value' in parsed) {
    read.lines.push({ line: number, value: parsed.value });
    return;
  }
  read.diagnostics.push(parsed.diagnostic);
  read.unreadable.push({
    line: number,
    text: lineText,
    problem: parsed.problem,
    detail: parsed.detail,
  });
}

/**
 * What an unreadable line's error says: the line is skipped and the others
 * are read, or, when no other line held anything to import, that there is
 * nothing to read (the import then fails: the words and the exit agree).
 */
function describeUnreadableLine(
  { line, problem, detail }: Pick<UnreadableLine, 'line' | 'problem' | 'detail'>,
  nothingElse: boolean,
): string {
  const what =
    problem === 'not-json'
      ? `Line ${line} is not valid JSON${nothingElse ? ' (as when a file is cut mid-write)' : ''}`
      : `Line ${line} is nested deeper than JP reads`;
  const outcome = nothingElse
    ? ', and no other line holds anything to import (a message, a call, an answer), so there is nothing to read.'
    : ', so it is skipped; the other lines are read.';
  return `${what}${outcome} ${detail}`.trim();
}

/** The note of the lines that did not read (the loss guard prints it with their first line). */
export const UNREADABLE_LINE_NOTE_CODE = 'import/bad-line';

/**
 * Adds to a JSON Lines import what its unreadable lines cost, the same for
 * every format: their diagnostics, and one note with the first line's
 * number. A cut line that held a tool call whose result survives on a later
 * line is told by the result's id in the cut text: such calls count as the
 * file's and as left out by the note. A call cut before its id, or with no
 * result after it, cannot be told, and the note says its calls, if any, are
 * not counted.
 */
export function noteUnreadableLines(result: ImportResult, read: JsonLines): void {
  if (read.diagnostics.length === 0) return;
  const unreadable = read.unreadable;
  // Nothing else imported: the errors say so, rather than that the other lines are read.
  const nothingElse = result.elements !== undefined && result.elements.length === 0;
  const byLine = new Map(unreadable.map((entry) => [entry.line, entry]));
  const lineDiagnostics = nothingElse
    ? read.diagnostics.map((diagnostic) => {
        const entry = byLine.get(diagnostic.line);
        return entry === undefined
          ? diagnostic
          : { ...diagnostic, message: describeUnreadableLine(entry, true) };
      })
    : read.diagnostics;
  result.diagnostics = [...lineDiagnostics, ...result.diagnostics].sort((a, b) => a.line - b.line);
  const first = unreadable[0];
  if (first === undefined) return;
  const requested = new Set<string>();
  const answered = new Set<string>();
  for (const element of result.elements ?? []) {
    if (typeof element.id !== 'string') continue;
    if (element.type === 'tool_call_request') requested.add(element.id);
    else if (element.type === 'tool_call_response') answered.add(element.id);
  }
  let calls = 0;
  for (const id of answered) {
    if (requested.has(id)) continue;
    const quoted = JSON.stringify(id);
    if (unreadable.some(({ text }) => text.includes(quoted))) calls++;
  }
  const count = unreadable.length;
  result.notes.push({
    code: UNREADABLE_LINE_NOTE_CODE,
    message:
      `${count === 1 ? 'A line does' : `${count} lines do`} not read (not JSON, as when cut mid-write, or nested too deep) and ${count === 1 ? 'is' : 'are'} skipped` +
      (calls > 0
        ? `; ${calls === 1 ? 'a tool call it held is' : `${calls} tool calls they held are`} told by ${calls === 1 ? 'its result' : 'their results'} on a later line.`
        : '; a tool call it held, if any, cannot be told and is not counted.'),
    count,
    line: first.line,
    ...(calls > 0 ? { calls } : {}),
  });
  if (calls > 0 && result.sourceCalls !== undefined) result.sourceCalls += calls;
}

function readLine(
  text: string,
  line: number,
):
  | { value: JsonValue }
  | { diagnostic: Diagnostic; problem: UnreadableLine['problem']; detail: string } {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    const problem = findSyntaxError(text);
    const offset = problem?.offset ?? 0;
    // The scanner read the line alone: its "line 1" is this line.
    const detail = problem
      ? problem.message
          .replace(/^The events text /, 'The line ')
          .replace(/\bat line 1, column /g, 'at column ')
      : '';
    return {
      problem: 'not-json',
      detail,
      diagnostic: {
        line,
        column: offset + 1,
        endLine: line,
        endColumn: offset + 1 + Math.max(problem?.length ?? 1, 1),
        severity: 'error',
        message: describeUnreadableLine({ line, problem: 'not-json', detail }, false),
        code: 'import/bad-line',
      },
    };
  }
  const deep = findTooDeepNesting(text, LINE_DEPTH);
  if (deep !== undefined) {
    const detail = describeTooDeepNesting(LINE_DEPTH);
    return {
      problem: 'too-deep',
      detail,
      diagnostic: {
        line,
        column: deep + 1,
        severity: 'error',
        message: describeUnreadableLine({ line, problem: 'too-deep', detail }, false),
        code: 'import/too-deep',
      },
    };
  }
  return { value };
}

/** A JSON document, parsed, with the line of every object and array in it. */
export interface JsonDocument {
  value: JsonValue;
  /** The 1-based line where an object or array of `value` starts. */
  lineOf(node: JsonValue | undefined): number | undefined;
}

/** Parses one JSON document; `undefined` when it is not JSON. */
export function readJsonDocument(text: string): JsonDocument | undefined {
  // A UTF-8 byte-order mark is no part of the JSON: read as white space, so every offset stays.
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const value = parseJson(body);
  if (value === undefined) return undefined;
  let lines: WeakMap<object, number> | undefined;
  return {
    value,
    lineOf(node) {
      if (typeof node !== 'object' || node === null) return undefined;
      // Located on first use only: most imports need no line at all.
      lines ??= locateNodes(body, value);
      return lines.get(node);
    },
  };
}

/**
 * A diagnostic for a document of `format` nested deeper than JP reads, if it
 * is: at the bracket that goes too deep, naming the format (a document is
 * read whole, so the whole file is refused, where a JSON Lines format skips
 * only the line).
 */
export function checkDocumentDepth(text: string, format: ImportFormat): Diagnostic | undefined {
  const deep = findTooDeepNesting(text, LINE_DEPTH);
  if (deep === undefined) return undefined;
  return diagnosticAt(
    new LineIndex(text),
    deep,
    deep + 1,
    'error',
    `This ${IMPORT_FORMAT_LABELS[format]} document nests arrays and objects more than ${LINE_DEPTH} levels deep here. ` +
      `Imported, its values go into JP's events.json, which JP reads with serde_json (at most ${MAX_NESTING_DEPTH} levels, ` +
      'the events array and the event included), so it is not read; being one document, none of it is. Flatten the value, or remove it.',
    'import/too-deep',
  );
}

/**
 * Walks the text beside the parsed value and records where each object and
 * array starts. The walk follows the text, so a duplicate key (whose first
 * value `JSON.parse` drops) can only misplace a line, never derail it.
 */
function locateNodes(text: string, root: JsonValue): WeakMap<object, number> {
  const index = new LineIndex(text);
  const found = new WeakMap<object, number>();
  const skipSpace = (i: number) => skipWhitespace(text, i);
  const walk = (start: number, node: JsonValue | undefined): number => {
    let i = skipSpace(start);
    const char = text[i];
    if (char === '"') return skipJsonString(text, i);
    if (char !== '[' && char !== '{') {
      while (i < text.length && !/[\s,\]}]/.test(text[i] as string)) i++;
      return i;
    }
    if (typeof node === 'object' && node !== null) found.set(node, index.position(i).line);
    i = skipSpace(i + 1);
    if (char === '[') {
      const items = Array.isArray(node) ? node : [];
      let n = 0;
      while (i < text.length && text[i] !== ']') {
        i = skipSpace(walk(i, items[n++]));
        if (text[i] === ',') i = skipSpace(i + 1);
      }
      return i + 1;
    }
    const object = typeof node === 'object' && node !== null && !Array.isArray(node) ? node : {};
    while (i < text.length && text[i] !== '}') {
      const keyEnd = skipJsonString(text, i);
      const key = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipSpace(keyEnd);
      if (text[i] === ':') i++;
      i = skipSpace(walk(i, Object.hasOwn(object, key) ? object[key] : undefined));
      if (text[i] === ',') i = skipSpace(i + 1);
    }
    return i + 1;
  };
  walk(0, root);
  return found;
}
