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
import type { JsonDocument, JsonLine } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import type { ImportResult } from './types.ts';

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** Whether a JSON document is a Gemini CLI session; the reason when not. */
export function sniffGeminiDocument(value: JsonValue): string | undefined {
  if (!isJsonObject(value)) return 'it is not a JSON object';
  if (typeof value.sessionId !== 'string' || !Array.isArray(value.messages)) {
    return 'it has no "sessionId" and "messages"';
  }
  const first = value.messages.find((m) => !isJsonObject(m) || !MESSAGE_TYPES.has(String(m.type)));
  if (first !== undefined) return 'a message has no Gemini "type" (user, gemini, info…)';
  return undefined;
}

/** Whether JSON Lines are a Gemini CLI session; the reason when not. */
export function sniffGeminiLines(lines: readonly JsonLine[]): string | undefined {
  for (const { line, value } of lines) {
    if (!isJsonObject(value)) return `line ${line} is not a JSON object`;
    if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string')
      return undefined;
    if ('$set' in value) continue;
    if (typeof value.id === 'string' && MESSAGE_TYPES.has(String(value.type))) return undefined;
    return `line ${line} is neither a session header ({"sessionId", "projectHash"}) nor a message ({"id", "type": "user" | "gemini"})`;
  }
  return 'the file has no lines';
}

interface Record {
  value: JsonObject;
  line: number | undefined;
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
    for (const { line, value } of source.lines) {
      if (!isJsonObject(value)) continue;
      if (typeof value.id === 'string' && typeof value.type === 'string') {
        records.push({ value, line });
      } else if (!('$set' in value) && typeof value.sessionId !== 'string') {
        out.note('gemini-cli/unknown-line', 'Lines that are not messages are skipped.', line);
      }
    }
  }

  // A message appended again under its id replaces the earlier copy, in the earlier place.
  const order: string[] = [];
  const latest = new Map<string, Record>();
  let anonymous = 0;
  for (const record of records) {
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
      for (const thought of getArray(value, 'thoughts')) {
        if (!isJsonObject(thought)) continue;
        const text = [getString(thought, 'subject'), getString(thought, 'description')]
          .filter((part) => part !== undefined && part !== '')
          .join('\n\n');
        if (text !== '') out.reasoning(text, thought.timestamp ?? time, line);
      }
      const text = partsText(value.content, line, out);
      if (text !== '') out.message(text, time, line);
      for (const call of getArray(value, 'toolCalls')) {
        if (isJsonObject(call)) importToolCall(call, time, line, out);
      }
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

function importToolCall(
  call: JsonObject,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const id = getString(call, 'id');
  const name = getString(call, 'name');
  if (id === undefined || name === undefined) {
    out.error({
      line: line ?? 1,
      column: 1,
      severity: 'error',
      message: `${line === undefined ? 'A' : `Line ${line}: a`} tool call without a string "id" and "name" is skipped.`,
      code: 'gemini-cli/bad-tool-call',
    });
    return;
  }
  const { args } = toArguments(call.args);
  out.toolCall(id, name, args, time, line);
  const results = getArray(call, 'result');
  if (results.length === 0) {
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
