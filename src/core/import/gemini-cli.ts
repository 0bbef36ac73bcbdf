/**
 * Gemini CLI sessions: either one JSON object `{sessionId, messages: […]}`
 * (`~/.gemini/tmp/<project>/chats/session-*.json`), or JSON Lines of the
 * same records, where a message is appended again, by id, each time it
 * grows, and `$set` lines update the session header. Mapping and sources:
 * docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import {
  attachRecordedByAt,
  attachRecordedUsage,
  createRecordedUsage,
  readCount,
} from './recorded-usage.ts';
import type { JsonDocument, JsonLine } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** Whether a JSON document is a Gemini CLI session; the reason when not. */
export function sniffGeminiDocument(value: JsonValue): Sniffed {
  if (!isJsonObject(value)) return misfit('it is not a JSON object');
  if (typeof value.sessionId !== 'string' || !Array.isArray(value.messages)) {
    return misfit('it has no "sessionId" and "messages"');
  }
  const first = value.messages.find((m) => !isJsonObject(m) || !MESSAGE_TYPES.has(String(m.type)));
  if (first !== undefined) return misfit('a message has no Gemini "type" (user, gemini, info…)');
  return fits('it has a "sessionId", and its messages have Gemini types (user, gemini, info…)');
}

/** Whether JSON Lines are a Gemini CLI session; the reason when not. */
export function sniffGeminiLines(lines: readonly JsonLine[]): Sniffed {
  for (const { line, value } of lines) {
    if (!isJsonObject(value)) return misfit(`line ${line} is not a JSON object`);
    if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string')
      return fits(`line ${line} is a session header ({"sessionId", "projectHash"})`);
    if ('$set' in value || '$rewindTo' in value) continue;
    if (typeof value.id === 'string' && MESSAGE_TYPES.has(String(value.type)))
      return fits(`line ${line} is a Gemini "${String(value.type)}" message with an "id"`);
    return misfit(
      `line ${line} is neither a session header ({"sessionId", "projectHash"}) nor a message ({"id", "type": "user" | "gemini"})`,
    );
  }
  return misfit('the file has no lines');
}

interface Record {
  value: JsonObject;
  line: number | undefined;
  /** For a `{"$rewindTo": id}` line: the message the session went back to. */
  rewindTo?: string;
}

/** The message records of a JSON Lines session, rewinds in their place. */
function collectLines(lines: readonly JsonLine[], records: Record[], out: StreamBuilder): void {
  for (const { line, value } of lines) {
    if (!isJsonObject(value)) continue;
    if (typeof value.$rewindTo === 'string') {
      records.push({ value, line, rewindTo: value.$rewindTo });
    } else if (typeof value.id === 'string' && typeof value.type === 'string') {
      records.push({ value, line });
    } else if (isJsonObject(value.$set)) {
      // A `$set` with `messages` replaces the model's context (a compression,
      // a session start); the conversation before it is imported as it was.
      const messages = getArray(value.$set, 'messages');
      if (messages.length > 0) {
        out.note(
          'gemini-cli/set-messages',
          'A "$set" that replaces the messages (Gemini CLI compressing its context) is not applied: the conversation is imported as it was before, with the messages it adds.',
          line,
        );
      }
      for (const message of messages) {
        if (isJsonObject(message) && typeof message.id === 'string')
          records.push({ value: message, line });
      }
    } else if (typeof value.sessionId !== 'string') {
      out.note('gemini-cli/unknown-line', 'Lines that are not messages are skipped.', line);
    }
  }
}

/**
 * `{"$rewindTo": id}`: the user went back to before that message. Gemini CLI
 * drops it and every later message (all of them when the id is unknown), so
 * the import does too, with a note.
 */
function rewind(
  order: string[],
  latest: Map<string, Record>,
  id: string,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const at = order.indexOf(id);
  const dropped = order.splice(Math.max(at, 0));
  // The calls of the dropped messages are in the file but not in the report: the note counts them.
  let calls = 0;
  for (const gone of dropped) {
    for (const call of getArray(latest.get(gone)?.value ?? {}, 'toolCalls')) {
      const callId = isJsonObject(call) ? getString(call, 'id') : undefined;
      if (callId !== undefined && out.sourceCall(callId)) calls++;
    }
    latest.delete(gone);
  }
  out.note(
    'gemini-cli/rewind',
    'A "$rewindTo" line takes the session back to before a message: that message and the later ones (all of them when the id is unknown) are dropped, as Gemini CLI does; their tool calls are not counted.',
    line,
    calls,
  );
}

/** Imports a Gemini CLI session from its parsed document or lines. */
export function importGemini(
  source: { document: JsonDocument } | { lines: JsonLine[] },
): ImportResult {
  const out = new StreamBuilder('gemini-cli');
  const records: Record[] = [];
  if ('document' in source) {
    const root = source.document.value;
    for (const message of isJsonObject(root) ? getArray(root, 'messages') : []) {
      if (isJsonObject(message))
        records.push({ value: message, line: source.document.lineOf(message) });
    }
  } else {
    collectLines(source.lines, records, out);
  }

  // A message appended again under its id replaces the earlier copy, in the earlier place.
  const order: string[] = [];
  const latest = new Map<string, Record>();
  let anonymous = 0;
  for (const record of records) {
    if (record.rewindTo !== undefined) {
      rewind(order, latest, record.rewindTo, record.line, out);
      continue;
    }
    const id = getString(record.value, 'id') ?? `#${anonymous++}`;
    if (latest.has(id)) {
      out.note(
        'gemini-cli/reappended',
        'Messages written again under the same id (Gemini CLI appends a message each time it grows) are imported once, as last written.',
        record.line,
      );
    } else {
      order.push(id);
    }
    latest.set(id, record);
  }

  for (const id of order) {
    const record = latest.get(id) as Record;
    importMessage(record, out);
  }
  return out.finish();
}

function partsText(
  content: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): string {
  return joinTextParts(content, ['text'], () =>
    out.note('gemini-cli/non-text-part', 'Non-text parts (files, images) are left out.', line),
  );
}

function importMessage({ value, line }: Record, out: StreamBuilder): void {
  const time = value.timestamp;
  switch (value.type) {
    case 'user':
      out.userMessage(partsText(value.content, line, out), time, line);
      return;
    case 'gemini': {
      const first = out.elements.length;
      for (const thought of getArray(value, 'thoughts')) {
        if (!isJsonObject(thought)) continue;
        const text = [getString(thought, 'subject'), getString(thought, 'description')]
          .filter((part) => part !== undefined && part !== '')
          .join('\n\n');
        if (text !== '') out.reasoning(text, thought.timestamp ?? time, line);
      }
      const text = partsText(value.content, line, out);
      if (text !== '') out.message(text, time, line);
      importToolCalls(getArray(value, 'toolCalls').filter(isJsonObject), time, line, out);
      keepUsage(value.tokens, first, line, out);
      attachRecordedByAt(out, first, { runtime: 'gemini-cli', model: getString(value, 'model') });
      return;
    }
    default:
      out.note(
        `gemini-cli/${String(value.type)}`,
        `"${String(value.type)}" messages are Gemini CLI's own notices to the user, not sent to the model; skipped.`,
        line,
      );
  }
}

/**
 * A message's tool calls, then their results, each in the message's order:
 * the model asked for them all in one response (parallel calls), and their
 * results went back together in the next request. Call, result, call,
 * result… would make each call after the first a request never sent.
 */
function importToolCalls(
  calls: readonly JsonObject[],
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const made: { id: string; call: JsonObject; imported: boolean }[] = [];
  for (const call of calls) {
    const id = getString(call, 'id');
    const name = getString(call, 'name');
    if (id === undefined || name === undefined) {
      out.skipItem(
        line,
        'gemini-cli/bad-tool-call',
        `a tool call without a string "id" and "name"`,
      );
      continue;
    }
    const { args } = toArguments(call.args);
    made.push({ id, call, imported: out.toolCall(id, name, args, time, line) });
  }
  for (const { id, call, imported } of made) importToolResult(id, call, imported, time, line, out);
}

function importToolResult(
  id: string,
  call: JsonObject,
  imported: boolean,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const results = getArray(call, 'result');
  if (results.length === 0) {
    if (!imported) return;
    out.note(
      'gemini-cli/no-result',
      'Tool calls with no recorded result (cancelled or still running) have only their request; sanitize answers them as interrupted.',
      line,
    );
    return;
  }
  const texts = results.map((result) => {
    const response =
      isJsonObject(result) && isJsonObject(result.functionResponse)
        ? result.functionResponse.response
        : undefined;
    if (isJsonObject(response)) {
      if (typeof response.output === 'string') return response.output;
      if (typeof response.error === 'string') return response.error;
    }
    return JSON.stringify(response ?? result);
  });
  out.toolResult(id, texts.join('\n'), call.status !== 'success', call.timestamp ?? time, line);
}

/**
 * Gemini's `tokens` of one response as recorded usage: `input` is the whole
 * prompt (cached included) and `tool` the tool-use prompt, both input;
 * `output` excludes `thoughts`, which are billed as output.
 */
function keepUsage(
  tokens: JsonValue | undefined,
  first: number,
  line: number | undefined,
  out: StreamBuilder,
): void {
  if (tokens === undefined || tokens === null) return;
  const figures = isJsonObject(tokens) ? tokens : {};
  const input = readCount(figures.input);
  const tool = readCount(figures.tool ?? 0);
  const output = readCount(figures.output);
  const thoughts = readCount(figures.thoughts ?? 0);
  const usage = createRecordedUsage({
    prompt_tokens: input === undefined || tool === undefined ? undefined : input + tool,
    cache_read_tokens: readCount(figures.cached ?? 0),
    cache_write_tokens: 0,
    output_tokens: output === undefined || thoughts === undefined ? undefined : output + thoughts,
    reasoning_tokens: thoughts,
  });
  const element = out.elements[first];
  if (usage === undefined || element === undefined) {
    out.note(
      'gemini-cli/usage-not-kept',
      'Token figures that are not whole counts, or of a response with nothing imported, are not kept.',
      line,
    );
    return;
  }
  attachRecordedUsage(element, usage);
}
