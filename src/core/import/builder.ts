/**
 * Builds a JP event stream from a foreign transcript, one event at a time:
 * turns, requests, responses, tool calls and their results, with timestamps
 * from the source where it has them and a stable, documented sequence where
 * it does not (docs/import-formats.md). Also collects the import notes
 * (grouped by kind) and the diagnostics of malformed items.
 */
import { isJsonObject, isSameJson } from '../json/values.ts';
import { formatTimestamp, type Instant, parseTimestamp } from '../stream/timestamp.ts';
import type { Diagnostic, JsonObject, JsonValue, StreamElement } from '../types.ts';
import type { ImportFormat, ImportNote, ImportResult } from './types.ts';

/** Where the sequence of invented timestamps starts when the source has none at all. */
export const SEQUENCE_START = '2026-01-01 00:00:00.0';

const NANOS_PER_MS = 1_000_000n;
const ONE_SECOND = 1_000_000_000n;

/** The longest title shown: from a first user message, a metadata.json or a subagent's description. */
const TITLE_LENGTH = 80;

/** A timestamp as a source records it: ISO text, epoch milliseconds, or nothing. */
export type SourceTime = JsonValue | undefined;

/** The instant of a source timestamp, or `undefined` when it has none that reads. */
export function readSourceTime(time: SourceTime): Instant | undefined {
  if (typeof time === 'string') return parseTimestamp(time);
  // Epoch milliseconds (OpenCode); a whole number in a plausible range only.
  if (typeof time === 'number' && Number.isInteger(time) && time > 0 && time < 1e15) {
    return BigInt(time) * NANOS_PER_MS;
  }
  return undefined;
}

/** The note an import gives when its source has no timestamps (the replay reads it: gaps unknown). */
export const NO_TIMESTAMP_NOTE_CODE = 'import/no-timestamp';

/** What the notes of a repeated call and a repeated result say ({@link StreamBuilder.toolCall}). */
const REPEATED_MESSAGES = {
  call: 'A tool call written again (the same id, name and arguments: a line, entry, message or item written twice) is counted once.',
  result:
    'A tool result for a call already answered (a message or item written twice) is read once, by id.',
} as const;

/** The suffix of an id given to a different call under an id used before: `Bash:0#2`, `Bash:0#3`… */
const REUSED_ID_MARK = '#';

/** A call imported under a source id: the id it has in the stream, what it is, and whether it was answered. */
interface ImportedCall {
  streamId: string;
  name: string;
  args: JsonObject;
  answered: boolean;
}

/** Collects the events, notes and diagnostics of one import. */
export class StreamBuilder {
  readonly elements: StreamElement[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly notes = new Map<string, ImportNote>();
  private last: Instant | undefined;
  private untimed = 0;
  private firstUntimedLine: number | undefined;
  private title: string | undefined;
  /** The distinct ids of the source's tool calls, imported or not (the loss guard's source figure). */
  private readonly sourceCallIds = new Set<string>();
  /** The calls imported under each source id, in order ({@link toolCall}). */
  private readonly callsById = new Map<string, ImportedCall[]>();
  /** The ids the imported calls have in the stream (a reused source id gets a new one). */
  private readonly streamCallIds = new Set<string>();
  /**
   * The source's calls known by id, name and arguments, imported or left
   * out: a different call under an id used before counts on its own.
   */
  private readonly namedSourceCalls = new SourceCallTally();
  /** Source calls with no id nor key to count them by ({@link skipCall}). */
  private callsWithoutKey = 0;
  /** The ids of results read for calls not imported (yet): each read once ({@link toolResult}). */
  private readonly resultIds = new Set<string>();

  constructor(readonly format: ImportFormat) {}

  /**
   * Counts a tool call of the source on sight, whether or not it is
   * imported: an importer calls it where it reads a call item it leaves
   * out, so a call it leaves out without a note shows in the loss guard as
   * unexplained. By its id alone, or, given its name and arguments, under
   * the repeat rule of {@link toolCall} (a different call under a used id
   * counts too). Returns whether it was a call not counted yet.
   */
  sourceCall(id: string, call?: { name: string; args: JsonObject }): boolean {
    const before = this.sourceCallCount();
    this.countSourceCall(id, call);
    return this.sourceCallCount() > before;
  }

  private countSourceCall(id: string, call: { name: string; args: JsonObject } | undefined): void {
    this.sourceCallIds.add(id);
    if (call !== undefined) this.namedSourceCalls.add({ id, ...call });
  }

  /** The source's calls so far: each id once, and each further different call under one. */
  private sourceCallCount(): number {
    const named = this.namedSourceCalls;
    return this.sourceCallIds.size + (named.size - named.ids) + this.callsWithoutKey;
  }

  /** Whether a call of this id was seen already. */
  hasCall(id: string): boolean {
    return this.sourceCallIds.has(id);
  }

  /**
   * The canonical timestamp for an event: the source's when it reads, else
   * one second after the event before (from {@link SEQUENCE_START}), so the
   * order of the stream and JP's time lookups stay as the source has them.
   */
  time(source: SourceTime, line?: number): string {
    const instant = readSourceTime(source);
    if (instant !== undefined) {
      this.last = instant;
      return formatTimestamp(instant);
    }
    this.untimed++;
    if (this.firstUntimedLine === undefined) this.firstUntimedLine = line;
    const start = parseTimestamp(SEQUENCE_START) as Instant;
    this.last = this.last === undefined ? start : this.last + ONE_SECOND;
    return formatTimestamp(this.last);
  }

  /** Opens a turn with the user's message. */
  userMessage(content: string, time: SourceTime, line?: number): void {
    const timestamp = this.time(time, line);
    this.title ??= createTitle(content);
    this.elements.push({ timestamp, type: 'turn_start' });
    this.elements.push({ timestamp, type: 'chat_request', content });
  }

  /**
   * A JP `config_delta` (spec 1.3): configuration the runtime sent that is
   * not conversation, such as its system prompt. It is never
   * provider-visible and opens no turn.
   */
  configDelta(delta: JsonObject, time: SourceTime, line?: number): void {
    this.elements.push({ timestamp: this.time(time, line), type: 'config_delta', delta });
  }

  /**
   * Opens a turn without a message of the user: where the runtime went on
   * by itself in a new context (after compacting).
   */
  turnStart(time: SourceTime, line?: number): void {
    this.elements.push({ timestamp: this.time(time, line), type: 'turn_start' });
  }

  /**
   * A JP `compaction` (spec 1.3) the runtime made itself: its summary stands
   * for turns `fromTurn..=toTurn` (0-based, both inclusive) in every request
   * projected after it (spec 4).
   */
  summaryCompaction(
    summary: string,
    fromTurn: number,
    toTurn: number,
    time: SourceTime,
    line?: number,
  ): void {
    this.elements.push({
      type: 'compaction',
      timestamp: this.time(time, line),
      from_turn: fromTurn,
      to_turn: toTurn,
      summary: { summary },
    });
  }

  /** A further user message in the same turn (a second text block of one message). */
  userText(content: string, time: SourceTime, line?: number): void {
    this.elements.push({ timestamp: this.time(time, line), type: 'chat_request', content });
  }

  /** The assistant's answer text. */
  message(text: string, time: SourceTime, line?: number): void {
    this.elements.push({ timestamp: this.time(time, line), type: 'chat_response', message: text });
  }

  /** The assistant's reasoning; `metadata` holds provider data such as a signature. */
  reasoning(text: string, time: SourceTime, line?: number, metadata?: JsonObject): void {
    const element: StreamElement = {
      timestamp: this.time(time, line),
      type: 'chat_response',
      reasoning: text,
    };
    if (metadata && Object.keys(metadata).length > 0) element.metadata = metadata;
    this.elements.push(element);
  }

  /**
   * A tool call, under the name exactly as the source records it. A call
   * whose id, name and arguments were imported before (a line, entry,
   * message or item written twice, as on a resume) is the same call: it is
   * left out with a `<format>/repeated-call` note, so it counts once. A
   * different call under an id used before (a counter that restarted, as
   * Kimi CLI's `Name:N` does) is another call: it is kept, under the id with
   * `#2` (`#3`…) appended so the stream's ids stay unique, with a
   * `<format>/reused-call-id` note; a result of the id answers its latest
   * call not answered yet ({@link toolResult}). The one home of that rule for every format.
   * Returns whether the call was imported.
   */
  toolCall(id: string, name: string, args: JsonObject, time: SourceTime, line?: number): boolean {
    this.countSourceCall(id, { name, args });
    const earlier = this.callsById.get(id);
    if (earlier !== undefined && this.isRepeat(id, name, args)) {
      this.note(`${this.format}/repeated-call`, REPEATED_MESSAGES.call, line);
      return false;
    }
    let streamId = id;
    if (earlier !== undefined) {
      this.note(
        `${this.format}/reused-call-id`,
        `A tool call under an id an earlier, different call has (another name or other arguments: a counter that restarted) is another call: kept, under the id with ${REUSED_ID_MARK}2 (${REUSED_ID_MARK}3…) appended, and a result of that id answers its latest call not answered yet.`,
        line,
      );
    }
    if (this.streamCallIds.has(streamId)) streamId = this.freshStreamId(id);
    const calls = earlier ?? [];
    // A result read before its call (written out of order) answers it.
    calls.push({ streamId, name, args, answered: earlier === undefined && this.resultIds.has(id) });
    this.callsById.set(id, calls);
    this.streamCallIds.add(streamId);
    this.elements.push({
      timestamp: this.time(time, line),
      type: 'tool_call_request',
      id: streamId,
      name,
      arguments: args,
    });
    return true;
  }

  /**
   * Whether a call of this id, name and arguments was imported already: the
   * same call written again. Without `args`, the id and name decide (a
   * runtime that announces a call twice may restate its arguments).
   */
  isRepeat(id: string, name: string, args?: JsonObject): boolean {
    return (
      this.callsById
        .get(id)
        ?.some(
          (earlier) =>
            earlier.name === name &&
            (args === undefined || isSameCall({ id, ...earlier }, { id, name, args })),
        ) ?? false
    );
  }

  /**
   * Whether a result of this id would be a repeat: every call imported
   * under it is answered, or (with none imported) a result of it was read.
   */
  isAnswered(id: string): boolean {
    const calls = this.callsById.get(id);
    return calls === undefined ? this.resultIds.has(id) : latestOpen(calls) === undefined;
  }

  /** An id no imported call has: `id#2`, `id#3`… */
  private freshStreamId(id: string): string {
    for (let n = 2; ; n++) {
      const candidate = `${id}${REUSED_ID_MARK}${n}`;
      if (!this.streamCallIds.has(candidate)) return candidate;
    }
  }

  /**
   * A tool's result. It answers the latest call of its id not answered yet
   * (under the id that call has in the stream: a call cut short before a
   * counter restarted keeps no result of the next); a result for a call already
   * answered (a message or item written twice) is left out with a
   * `<format>/repeated-result` note, so one call has one result, the first.
   * A result with no call of its id imported is read once per id. Returns
   * whether the result was imported.
   */
  toolResult(
    id: string,
    content: string,
    isError: boolean,
    time: SourceTime,
    line?: number,
  ): boolean {
    const calls = this.callsById.get(id);
    let streamId = id;
    if (calls !== undefined) {
      const open = latestOpen(calls);
      if (open === undefined) return this.repeatedResult(line);
      open.answered = true;
      streamId = open.streamId;
    } else if (this.resultIds.has(id)) {
      return this.repeatedResult(line);
    } else {
      this.resultIds.add(id);
    }
    this.elements.push({
      timestamp: this.time(time, line),
      type: 'tool_call_response',
      id: streamId,
      content,
      is_error: isError,
    });
    return true;
  }

  private repeatedResult(line: number | undefined): false {
    this.note(`${this.format}/repeated-result`, REPEATED_MESSAGES.result, line);
    return false;
  }

  /**
   * Records one skipped or changed item; notes of one `code` are grouped.
   * `calls` is how many tool calls of the source the item stands for (the
   * loss guard adds them up).
   */
  note(code: string, message: string, line?: number, calls = 0): void {
    const existing = this.notes.get(code);
    if (existing) {
      existing.count++;
      if (existing.line === undefined && line !== undefined) existing.line = line;
      if (calls > 0) existing.calls = (existing.calls ?? 0) + calls;
      return;
    }
    const note: ImportNote = { code, message, count: 1 };
    if (line !== undefined) note.line = line;
    if (calls > 0) note.calls = calls;
    this.notes.set(code, note);
  }

  /**
   * Words a grouped note once every item of its kind is known (how many,
   * and where they went), keeping its place among the notes. Does nothing
   * when no item of `code` was noted.
   */
  describeNote(code: string, message: string): void {
    const note = this.notes.get(code);
    if (note) note.message = message;
  }

  /** Merges `metadata` into the event at `index` (one made since {@link length} was read), if there is one. */
  annotate(index: number, metadata: JsonObject): void {
    const element = this.elements[index];
    if (!element) return;
    const existing = isJsonObject(element.metadata) ? element.metadata : {};
    element.metadata = { ...existing, ...metadata };
  }

  /** How many events were made so far. */
  get length(): number {
    return this.elements.length;
  }

  /** A malformed item: an error with its position; the import goes on. */
  error(diagnostic: Diagnostic): void {
    this.diagnostics.push(diagnostic);
  }

  /**
   * A malformed item skipped: `item` says what it is and lacks ("a tool_use
   * without a string \"id\""); the error reads "Line N: a … is skipped." (or
   * "A … is skipped." where the source has no lines).
   */
  skipItem(line: number | undefined, code: string, item: string): void {
    const message =
      line === undefined
        ? `${item.charAt(0).toUpperCase()}${item.slice(1)} is skipped.`
        : `Line ${line}: ${item} is skipped.`;
    this.error({ line: line ?? 1, column: 1, severity: 'error', message, code });
  }

  /**
   * A tool-call item too malformed to import (no id or no name), skipped
   * like {@link skipItem}, and counted as a call of the source the import
   * left out, so the loss guard accounts for it: once per `key` (its id, or
   * where it has none a key of its place in the source), none for a repeat.
   */
  skipCall(line: number | undefined, code: string, item: string, key: string | undefined): void {
    this.skipItem(line, code, item);
    if (key === undefined) this.callsWithoutKey++;
    else if (!this.sourceCall(key)) return;
    this.note(
      code,
      'Tool calls without a string id and name cannot be imported; each is also an error with its line.',
      line,
      1,
    );
  }

  /** A line that is not the record the format writes (`record` names it), skipped. */
  skipLine(line: number, code: string, record: string): void {
    this.error({
      line,
      column: 1,
      severity: 'error',
      message: `Line ${line} is not ${record}, so it is skipped.`,
      code,
    });
  }

  /** The result, with a note about invented timestamps when there were any. */
  finish(): ImportResult {
    const notes = [...this.notes.values()];
    if (this.untimed > 0) {
      const note: ImportNote = {
        code: NO_TIMESTAMP_NOTE_CODE,
        message:
          'Events without a timestamp in the source get one second after the event before ' +
          `(starting at ${SEQUENCE_START} when none came before), so their order is kept.`,
        count: this.untimed,
      };
      if (this.firstUntimedLine !== undefined) note.line = this.firstUntimedLine;
      notes.push(note);
    }
    const result: ImportResult = {
      format: this.format,
      elements: this.elements,
      diagnostics: this.diagnostics,
      notes,
    };
    if (this.title !== undefined) result.title = this.title;
    const sourceCalls = this.sourceCallCount();
    if (sourceCalls > 0) result.sourceCalls = sourceCalls;
    return result;
  }
}

/** A call of a source as the repeat rule sees it: its id, name and arguments. */
export interface SourceCall {
  id: string;
  name: string;
  args: JsonObject;
}

/**
 * Whether two calls are the same call written twice: the same id, name and
 * arguments ({@link StreamBuilder.toolCall}'s rule).
 */
export function isSameCall(a: SourceCall, b: SourceCall): boolean {
  return a.id === b.id && a.name === b.name && isSameJson(a.args, b.args);
}

/**
 * The distinct calls of a source under the repeat rule, for an importer
 * that counts its source's calls itself (Claude Code): a call written twice
 * counts once; a different call under a used id counts on its own.
 */
export class SourceCallTally {
  private readonly byId = new Map<string, SourceCall[]>();
  private count = 0;

  /** Adds a call; whether it is a new one. */
  add(call: SourceCall): boolean {
    const calls = this.byId.get(call.id) ?? [];
    if (calls.some((earlier) => isSameCall(earlier, call))) return false;
    calls.push(call);
    this.byId.set(call.id, calls);
    this.count++;
    return true;
  }

  /** Whether the same call was added. */
  has(call: SourceCall): boolean {
    return this.byId.get(call.id)?.some((earlier) => isSameCall(earlier, call)) ?? false;
  }

  /** Whether a call of this id was added. */
  hasId(id: string): boolean {
    return this.byId.has(id);
  }

  /** How many distinct calls were added. */
  get size(): number {
    return this.count;
  }

  /** How many distinct ids they have. */
  get ids(): number {
    return this.byId.size;
  }
}

/** The latest call not answered yet, if any. */
function latestOpen(calls: readonly ImportedCall[]): ImportedCall | undefined {
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i] as ImportedCall;
    if (!call.answered) return call;
  }
  return undefined;
}

/**
 * What agents wrap around text the user did not type as a request: Claude
 * Code's slash commands (`<command-name>/clear</command-name>`…), their
 * output, hook text and system reminders.
 */
const WRAPPER_TAGS = [
  'command-name',
  'command-message',
  'command-args',
  'command-contents',
  'local-command-caveat',
  'local-command-stdout',
  'local-command-stderr',
  'system-reminder',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'user-prompt-submit-hook',
  // What Claude Code's IDE extensions add before the user's words.
  'ide_opened_file',
  'ide_selection',
];
const WRAPPED = new RegExp(`<(${WRAPPER_TAGS.join('|')})>[\\s\\S]*?</\\1>`, 'g');

/**
 * A title from a user message: its first non-empty line outside the
 * wrappers an agent adds, shortened; undefined when nothing the user wrote
 * is left (then the next user message names the conversation). The one
 * home of the title rule: imported sessions, JP streams in a workspace and
 * the CLI's `--by-conversation` all take their titles from here.
 */
export function createTitle(content: string): string | undefined {
  const line = content
    .replace(WRAPPED, '\n')
    .split('\n')
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (line === undefined) return undefined;
  return capTitle(line);
}

/**
 * A title cut to {@link TITLE_LENGTH} code points (never inside a surrogate
 * pair), with "…" when cut: a 5 MB `metadata.json` title must not pad every
 * `--by-conversation` row, nor fill the workspace's table.
 */
export function capTitle(title: string): string {
  if (title.length <= TITLE_LENGTH) return title;
  const points = Array.from(title.slice(0, TITLE_LENGTH * 2));
  return points.length <= TITLE_LENGTH ? title : `${points.slice(0, TITLE_LENGTH - 1).join('')}…`;
}

/**
 * Tool arguments as JP stores them (an object). A JSON string is parsed
 * (OpenAI and Codex send arguments as text); anything that is not an object
 * is kept whole under `input`, so nothing is lost.
 */
export function toArguments(value: JsonValue | undefined): { args: JsonObject; wrapped: boolean } {
  let parsed: JsonValue | undefined = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as JsonValue;
    } catch {
      return { args: { input: value }, wrapped: true };
    }
  }
  if (parsed === undefined) return { args: {}, wrapped: false };
  if (isJsonObject(parsed)) return { args: parsed, wrapped: false };
  return { args: { input: parsed }, wrapped: true };
}

/** A string field, or undefined. */
export function getString(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/** An array field, or an empty array. */
export function getArray(object: JsonObject, key: string): JsonValue[] {
  const value = object[key];
  return Array.isArray(value) ? value : [];
}
