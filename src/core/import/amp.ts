/**
 * Amp threads, in the two forms Amp prints them: the thread document of
 * `amp threads export <T-…>` (`{v, id: "T-…", created, messages: […]}`,
 * tool results as `{type: "tool_result", toolUseID, run: {status, result}}`),
 * and the line stream of `amp -x … --stream-json` (Claude-Code-like
 * `{type, message, session_id: "T-…"}` lines, without uuids). Amp's thread
 * ids begin with `T-`: the envelope both forms are recognised by.
 * Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder } from './builder.ts';
import { importToolUseBlock } from './claude-code.ts';
import { attachRecordedByAt, attachUsageAt, createSplitUsage } from './recorded-usage.ts';
import { dropRepeatedLines } from './repeated-lines.ts';
import type { JsonDocument, JsonLine } from './source.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

const THREAD_ID = /^T-[0-9a-f-]+$/i;
const STREAM_TYPES = new Set(['system', 'user', 'assistant', 'result']);

/** Whether a JSON document is an Amp thread export; the reason when not. */
export function sniffAmpThread(value: JsonValue): Sniffed {
  if (!isJsonObject(value)) return misfit('it is not a JSON object');
  if (typeof value.id !== 'string' || !THREAD_ID.test(value.id) || typeof value.v !== 'number')
    return misfit('it has no Amp thread "v" and "id" ("T-…")');
  if (!Array.isArray(value.messages)) return misfit('it has no "messages"');
  const bad = value.messages.find(
    (m) => !isJsonObject(m) || typeof m.role !== 'string' || !Array.isArray(m.content),
  );
  return bad === undefined
    ? fits('its "id" is an Amp thread id ("T-…") beside "v" and "messages"')
    : misfit('a message is not {"role", "content": […]}');
}

/** Whether parsed lines are an Amp --stream-json stream; the reason when not. */
export function sniffAmpStream(lines: readonly JsonLine[]): Sniffed {
  let message: number | undefined;
  for (const { line, value } of lines) {
    // A line type the importer does not know is noted, never a refusal: the envelope is the thread id.
    if (
      !isJsonObject(value) ||
      typeof value.type !== 'string' ||
      typeof value.session_id !== 'string' ||
      !THREAD_ID.test(value.session_id)
    ) {
      return misfit(`line ${line} is not an Amp stream line ({"type", "session_id": "T-…"})`);
    }
    if ((value.type === 'user' || value.type === 'assistant') && isJsonObject(value.message))
      message ??= line;
  }
  return message === undefined
    ? misfit('no line is a user or assistant message')
    : fits(`line ${message} is a message with an Amp thread id as "session_id" ("T-…")`);
}

/** Imports an Amp thread export. */
export function importAmpThread(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('amp');
  const root = document.value;
  const version = isJsonObject(root) ? readClientVersion(root) : undefined;
  for (const message of isJsonObject(root) ? getArray(root, 'messages') : []) {
    if (!isJsonObject(message)) continue;
    const line = document.lineOf(message);
    const meta = isJsonObject(message.meta) ? message.meta : {};
    const usage = isJsonObject(message.usage) ? message.usage : undefined;
    const time = meta.sentAt ?? usage?.timestamp;
    if (message.role === 'user') importUser(message, time, line, out, 'thread');
    else if (message.role === 'assistant') {
      const first = out.elements.length;
      importAssistant(message, time, line, out);
      if (usage) {
        keepUsage(
          {
            uncached: usage.inputTokens,
            read: usage.cacheReadInputTokens,
            write: usage.cacheCreationInputTokens,
            output: usage.outputTokens,
          },
          first,
          line,
          out,
        );
      }
      const model = usage === undefined ? undefined : getString(usage, 'model');
      attachRecordedByAt(out, first, { runtime: 'amp', version, model });
    } else {
      out.note(
        'amp/other-message',
        'Messages that are neither user nor assistant are skipped.',
        line,
      );
    }
  }
  return out.finish();
}

/** Imports an Amp --stream-json stream. */
export function importAmpStream(lines: readonly JsonLine[]): ImportResult {
  const out = new StreamBuilder('amp');
  for (const { line, value } of dropRepeatedLines(lines, out, namesItself)) {
    if (!isJsonObject(value)) continue;
    const message = isJsonObject(value.message) ? value.message : undefined;
    if (value.type === 'user' && message) importUser(message, undefined, line, out, 'stream');
    else if (value.type === 'assistant' && message) {
      const first = out.elements.length;
      importAssistant(message, undefined, line, out);
      const usage = isJsonObject(message.usage) ? message.usage : undefined;
      if (usage) {
        keepUsage(
          {
            uncached: usage.input_tokens,
            read: usage.cache_read_input_tokens,
            write: usage.cache_creation_input_tokens,
            output: usage.output_tokens,
          },
          first,
          line,
          out,
        );
      }
      // The stream records no model on its lines (a message's own `model` where it has one).
      attachRecordedByAt(out, first, { runtime: 'amp', model: getString(message, 'model') });
    } else if (STREAM_TYPES.has(String(value.type))) {
      out.note(
        `amp/${String(value.type)}`,
        `"${String(value.type)}" lines (the tool list at start, the closing result) are not messages; skipped.`,
        line,
      );
    } else {
      out.note(
        `amp/${String(value.type)}`,
        `"${String(value.type)}" lines are not ones the importer knows (newer than it); skipped.`,
        line,
      );
    }
  }
  return out.finish();
}

/**
 * Whether a stream line names what it holds: a response (its message id),
 * a call. A result line names only its call: it is written twice only
 * with it, or beside its twin.
 */
function namesItself(value: JsonValue): boolean {
  const message = isJsonObject(value) && isJsonObject(value.message) ? value.message : undefined;
  if (message === undefined) return false;
  if (typeof message.id === 'string') return true;
  return getArray(message, 'content').some(
    (block) => isJsonObject(block) && block.type === 'tool_use',
  );
}

function importUser(
  message: JsonObject,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
  form: 'thread' | 'stream',
): void {
  const content = message.content;
  if (typeof content === 'string') {
    out.userMessage(content, time, line);
    return;
  }
  let opened = false;
  for (const block of Array.isArray(content) ? content : []) {
    if (!isJsonObject(block)) continue;
    if (block.type === 'text') {
      const text = getString(block, 'text') ?? '';
      if (opened) out.userText(text, time, line);
      else out.userMessage(text, time, line);
      opened = true;
    } else if (block.type === 'tool_result') {
      // The thread writes `toolUseID` (camelCase); the stream writes `tool_use_id`.
      const id = getString(block, form === 'thread' ? 'toolUseID' : 'tool_use_id');
      if (id === undefined) {
        out.skipItem(line, 'amp/bad-result', `a tool_result without its tool id`);
        continue;
      }
      const { text, isError } = form === 'thread' ? threadResult(block) : streamResult(block);
      out.toolResult(id, text, isError, time, line);
    } else {
      out.note(
        `amp/user-${String(block.type)}`,
        `User blocks of the type "${String(block.type)}" (images, files) have no text to count; left out.`,
        line,
      );
    }
  }
}

/** A thread's tool result: `run.result` per tool; a failed shell command is only `exitCode` ≠ 0. */
function threadResult(block: JsonObject): { text: string; isError: boolean } {
  const run = isJsonObject(block.run) ? block.run : {};
  const result = run.result;
  const failed = run.status !== undefined && run.status !== 'done';
  if (typeof result === 'string') return { text: result, isError: failed };
  if (isJsonObject(result)) {
    const exit = result.exitCode;
    const isError = failed || (typeof exit === 'number' && exit !== 0);
    if (typeof result.output === 'string') return { text: result.output, isError };
    const parts = getArray(result, 'content');
    if (parts.length > 0 && parts.every((p) => isJsonObject(p) && typeof p.text === 'string')) {
      return { text: parts.map((p) => (p as JsonObject).text).join('\n'), isError };
    }
    return { text: JSON.stringify(result), isError };
  }
  return { text: result === undefined ? '' : JSON.stringify(result), isError: failed };
}

/** A stream's tool result: the text as streamed (JSON-encoded for most tools). */
function streamResult(block: JsonObject): { text: string; isError: boolean } {
  const content = block.content;
  const text =
    typeof content === 'string'
      ? content
      : getArray(block, 'content')
          .map((p) => (isJsonObject(p) && typeof p.text === 'string' ? p.text : ''))
          .join('\n');
  return { text, isError: block.is_error === true };
}

function importAssistant(
  message: JsonObject,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const content = message.content;
  if (typeof content === 'string') {
    out.message(content, time, line);
    return;
  }
  for (const block of Array.isArray(content) ? content : []) {
    if (!isJsonObject(block)) continue;
    const at = block.startTime ?? time;
    switch (block.type) {
      case 'text': {
        const text = getString(block, 'text') ?? '';
        if (text !== '') out.message(text, at, line);
        break;
      }
      case 'thinking': {
        const text = getString(block, 'thinking') ?? '';
        if (text !== '') out.reasoning(text, at, line);
        else
          out.note(
            'amp/encrypted-thinking',
            'Thinking blocks with only encrypted reasoning have no text; skipped.',
            line,
          );
        break;
      }
      case 'tool_use':
        importToolUseBlock(block, out, 'amp/bad-call', time, line);
        break;
      default:
        out.note(
          `amp/block-${String(block.type)}`,
          `Assistant blocks of the type "${String(block.type)}" have no JP event; skipped.`,
          line,
        );
    }
  }
}

/** The Amp client's version a thread export records (`env.initial.platform.clientVersion`). */
function readClientVersion(thread: JsonObject): string | undefined {
  const env = isJsonObject(thread.env) ? thread.env : {};
  const initial = isJsonObject(env.initial) ? env.initial : {};
  return isJsonObject(initial.platform) ? getString(initial.platform, 'clientVersion') : undefined;
}

/** Amp's usage (Anthropic's split: input excludes the cache reads and writes). */
function keepUsage(
  figures: Parameters<typeof createSplitUsage>[0],
  first: number,
  line: number | undefined,
  out: StreamBuilder,
): void {
  attachUsageAt(out, first, createSplitUsage(figures), line, 'a message with nothing imported');
}
