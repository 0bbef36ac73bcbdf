/**
 * Context Lens LHAR recordings (LLM HTTP Archive; `docs/LHAR.md` and
 * `schema/lhar.schema.json` of larsderidder/context-lens): one `entry` per
 * real API call, after a `session` line (`.lhar`, JSON Lines), or all in
 * `{lhar: {version, creator, sessions, entries}}` (`.lhar.json`). Each
 * entry has the call's usage (`gen_ai.usage`, whose `input_tokens` leaves
 * out the cache, and `usage_ext`); the messages are only in the
 * provider-native `raw.request_body` / `raw.response_body`, present when the
 * proxy ran with full privacy off. Anthropic Messages, Chat Completions and
 * Responses bodies are read. Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import { importToolUseBlock } from './claude-code.ts';
import { importHostedCall, isUnknownCallItem } from './openai-responses.ts';
import {
  attachRecordedByAt,
  attachUsageAt,
  createSplitUsage,
  type RecordedBy,
} from './recorded-usage.ts';
import {
  ANTHROPIC_SERVER_CALLS,
  isAnthropicServerResult,
  isServerResultError,
  serverResultText,
} from './server-tools.ts';
import type { JsonDocument, JsonLine } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** Whether a JSON document is a wrapped LHAR export; the reason when not. */
export function sniffLharDocument(value: JsonValue): Sniffed {
  const lhar = isJsonObject(value) ? value.lhar : undefined;
  if (
    !isJsonObject(lhar) ||
    typeof lhar.version !== 'string' ||
    !isJsonObject(lhar.creator) ||
    !Array.isArray(lhar.entries)
  ) {
    return misfit('it is not {"lhar": {"version", "creator", "sessions", "entries"}}');
  }
  return lhar.entries.every(isEntry)
    ? fits(
        'it is {"lhar": {"version", "creator", "entries"}}, every entry a {"type": "entry", "gen_ai"}',
      )
    : misfit('an entry is not {"type": "entry", "gen_ai"}');
}

/** Whether parsed lines are an LHAR recording; the reason when not. */
export function sniffLharLines(lines: readonly JsonLine[]): Sniffed {
  const first = lines[0]?.value;
  if (
    !isJsonObject(first) ||
    first.type !== 'session' ||
    typeof first.trace_id !== 'string' ||
    typeof first.started_at !== 'string'
  ) {
    return misfit('line 1 is not a {"type": "session", "trace_id", "started_at"} line');
  }
  for (const { line, value } of lines.slice(1)) {
    if (!isEntry(value) && !(isJsonObject(value) && value.type === 'session'))
      return misfit(
        `line ${line} is neither a session line nor an {"type": "entry", "gen_ai"} entry`,
      );
  }
  return fits('line 1 is an LHAR session line ({"type": "session", "trace_id", "started_at"})');
}

function isEntry(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value) && value.type === 'entry' && isJsonObject(value.gen_ai);
}

interface Entry {
  value: JsonObject;
  line: number | undefined;
}

/** Imports an LHAR recording from its lines or its wrapped document. */
export function importLhar(
  source: { document: JsonDocument } | { lines: JsonLine[] },
): ImportResult {
  const out = new StreamBuilder('lhar');
  const entries: Entry[] = [];
  if ('document' in source) {
    const root = source.document.value;
    const lhar = isJsonObject(root) && isJsonObject(root.lhar) ? root.lhar : {};
    for (const entry of getArray(lhar, 'entries')) {
      if (isEntry(entry)) entries.push({ value: entry, line: source.document.lineOf(entry) });
    }
  } else {
    for (const { line, value } of source.lines) {
      if (isEntry(value)) entries.push({ value, line });
      else
        out.note(
          'lhar/session',
          'Session lines (trace id, tool, model) are not messages; skipped.',
          line,
        );
    }
  }
  // Entries are written as calls finish; `sequence` is the order they were made in.
  entries.sort((a, b) => sequenceOf(a.value) - sequenceOf(b.value));

  // How many request messages each conversation (trace and agent) had at its last call.
  const seen = new Map<string, number>();
  // The conversations whose last call's answer was not recorded (no body, or one that does not read).
  const unanswered = new Set<string>();
  const answered = new Set<string>();
  const entryIds = new Set<string>();
  for (const { value: entry, line } of entries) {
    const entryId = getString(entry, 'id');
    if (entryId !== undefined) {
      if (entryIds.has(entryId)) {
        out.note(
          'lhar/repeated-entry',
          'An entry whose id came before (written twice) is read once.',
          line,
        );
        continue;
      }
      entryIds.add(entryId);
    }
    const time = entry.timestamp;
    const raw = isJsonObject(entry.raw) ? entry.raw : {};
    const request = isJsonObject(raw.request_body) ? raw.request_body : undefined;
    const response = raw.response_body;
    if (request === undefined && (response === undefined || response === null)) {
      out.note(
        'lhar/no-bodies',
        'Entries recorded without their bodies (the proxy ran with privacy on) hold only token figures, no messages; skipped with their usage.',
        line,
      );
      continue;
    }
    const source = isJsonObject(entry.source) ? entry.source : {};
    const key = `${String(entry.trace_id)}/${String(source.agent_role ?? '')}`;
    if (request) importRequest(request, key, seen, unanswered, answered, time, line, out);
    const first = out.elements.length;
    const body = typeof response === 'string' ? readStreamedBody(response) : response;
    if (isJsonObject(body)) {
      importResponse(body, time, line, out);
      unanswered.delete(key);
    } else {
      // Its answer, calls and all, is in the next request's history: read from there.
      unanswered.add(key);
      if (typeof response === 'string') {
        out.note(
          'lhar/streamed-body',
          "Response bodies kept as an event stream with no event that reads are skipped; the call's answer is read from the next request, if any.",
          line,
        );
      }
    }
    const genAi = entry.gen_ai as JsonObject;
    const usage = isJsonObject(genAi.usage) ? genAi.usage : {};
    const extra = isJsonObject(entry.usage_ext) ? entry.usage_ext : {};
    const recorded = createSplitUsage({
      uncached: usage.input_tokens,
      read: extra.cache_read_tokens,
      write: extra.cache_write_tokens,
      output: usage.output_tokens,
      reasoning: extra.thinking_tokens,
    });
    attachUsageAt(out, first, recorded, line, 'a call whose answer imported nothing');
    attachRecordedByAt(out, first, readRecordedBy(genAi));
  }
  return out.finish();
}

/**
 * What recorded an entry's call: the model the response names (else the
 * one requested) and the provider (`gen_ai.system`). The agent behind the
 * proxy is the entry's `source.tool`; the runtime here is the format.
 */
function readRecordedBy(genAi: JsonObject): RecordedBy {
  const request = isJsonObject(genAi.request) ? genAi.request : {};
  const response = isJsonObject(genAi.response) ? genAi.response : {};
  return {
    runtime: 'lhar',
    model: getString(response, 'model') ?? getString(request, 'model'),
    provider: getString(genAi, 'system'),
  };
}

function sequenceOf(entry: JsonObject): number {
  return typeof entry.sequence === 'number' ? entry.sequence : 0;
}

/** A request's messages (Anthropic, Chat Completions) or input items (Responses). */
function requestItems(request: JsonObject): JsonValue[] {
  if (Array.isArray(request.messages)) return request.messages;
  if (Array.isArray(request.input)) return request.input;
  if (typeof request.input === 'string') return [{ role: 'user', content: request.input }];
  return [];
}

/**
 * What a request adds to the conversation: the user's new messages and the
 * tool results. A request repeats the whole history, so only the items
 * after the previous call's are new; when the history shrank (a compaction)
 * the new ones are those after its last assistant message. The answers in a
 * request were imported from the earlier calls' responses.
 */
function importRequest(
  request: JsonObject,
  key: string,
  seen: Map<string, number>,
  unanswered: ReadonlySet<string>,
  answered: Set<string>,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const items = requestItems(request);
  const before = seen.get(key);
  let start = before ?? 0;
  if (before !== undefined && items.length < before) {
    out.note(
      'lhar/history-shrank',
      'A request whose history is shorter than the one before (the agent compacted it) adds only what follows its last answer.',
      line,
    );
    start = items.length;
    while (start > 0 && !isAnswer(items[start - 1])) start--;
  }
  seen.set(key, items.length);
  let opened = false;
  for (const item of items.slice(start)) {
    if (!isJsonObject(item)) continue;
    if (isAnswer(item)) {
      if (before === undefined) importHistoryAnswer(item, 'lhar/history', time, line, out);
      else if (unanswered.has(key))
        importHistoryAnswer(item, 'lhar/answer-from-request', time, line, out);
      continue;
    }
    if (item.role === 'tool' || item.type === 'function_call_output') {
      const id = getString(item, 'tool_call_id') ?? getString(item, 'call_id');
      const content = item.role === 'tool' ? item.content : item.output;
      if (id !== undefined)
        result(id, textOf(content, line, out), false, answered, time, line, out);
      continue;
    }
    if (item.role === 'system' || item.role === 'developer') continue;
    const content = item.content;
    const texts: string[] = [];
    if (typeof content === 'string') texts.push(content);
    for (const block of Array.isArray(content) ? content : []) {
      if (!isJsonObject(block)) continue;
      if (block.type === 'tool_result') {
        const id = getString(block, 'tool_use_id');
        if (id !== undefined)
          result(
            id,
            textOf(block.content, line, out),
            block.is_error === true,
            answered,
            time,
            line,
            out,
          );
      } else if (typeof block.text === 'string') texts.push(block.text);
      else out.note('lhar/non-text-part', 'Non-text parts (images, files) are left out.', line);
    }
    for (const text of texts) {
      if (opened) out.userText(text, time, line);
      else out.userMessage(text, time, line);
      opened = true;
    }
  }
}

/** Whether a request item is the model's: an assistant message, reasoning, or a call item (`function_call`, hosted `*_call`). */
function isAnswer(item: JsonValue | undefined): boolean {
  return (
    isJsonObject(item) &&
    (item.role === 'assistant' ||
      item.type === 'reasoning' ||
      (typeof item.type === 'string' && item.type.endsWith('_call')))
  );
}

const HISTORY_NOTES: Record<string, string> = {
  'lhar/history':
    'Answers already in the first recorded request (history from before the recording) are imported from that request, without usage.',
  'lhar/answer-from-request':
    'Answers whose response was not recorded (no body, or a stream with no event that reads) are imported from the next request, which repeats them, without usage.',
};

/** An answer read from a request: history from before the recording, or an answer whose response was not recorded. */
function importHistoryAnswer(
  item: JsonObject,
  code: 'lhar/history' | 'lhar/answer-from-request',
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  out.note(code, HISTORY_NOTES[code] as string, line);
  // Responses items are typed; Anthropic messages hold blocks; Chat messages hold `tool_calls`.
  if (typeof item.type === 'string') {
    importResponse({ output: [item] }, time, line, out);
  } else if (Array.isArray(item.content) && !Array.isArray(item.tool_calls)) {
    importResponse({ content: item.content }, time, line, out);
  } else {
    importResponse({ choices: [{ message: item }] }, time, line, out);
  }
}

function result(
  id: string,
  text: string,
  isError: boolean,
  answered: Set<string>,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  if (answered.has(id)) return;
  answered.add(id);
  out.toolResult(id, text, isError, time, line);
}

function textOf(
  content: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): string {
  return joinTextParts(content, ['text'], () =>
    out.note('lhar/non-text-part', 'Non-text parts (images, files) are left out.', line),
  );
}

/** A provider's response body: Anthropic `content`, Chat Completions `choices`, Responses `output`. */
function importResponse(
  body: JsonObject,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  for (const block of getArray(body, 'content')) {
    if (!isJsonObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string')
      out.message(block.text, time, line);
    else if (block.type === 'thinking' && typeof block.thinking === 'string')
      out.reasoning(block.thinking, time, line);
    else if (block.type === 'tool_use' || ANTHROPIC_SERVER_CALLS.has(String(block.type)))
      importToolUseBlock(block, out, 'lhar/bad-call', time, line);
    else if (isAnthropicServerResult(block) && typeof block.tool_use_id === 'string') {
      out.toolResult(
        block.tool_use_id,
        serverResultText(block.content),
        isServerResultError(block),
        time,
        line,
      );
    } else
      out.note(
        `lhar/block-${String(block.type)}`,
        `Response blocks of the type "${String(block.type)}" have no JP event; skipped.`,
        line,
      );
  }
  for (const choice of getArray(body, 'choices').slice(0, 1)) {
    const message = isJsonObject(choice) && isJsonObject(choice.message) ? choice.message : {};
    if (typeof message.content === 'string' && message.content !== '')
      out.message(message.content, time, line);
    for (const toolCall of getArray(message, 'tool_calls')) {
      const fn = isJsonObject(toolCall) && isJsonObject(toolCall.function) ? toolCall.function : {};
      call(
        isJsonObject(toolCall) ? getString(toolCall, 'id') : undefined,
        getString(fn, 'name'),
        fn.arguments,
        time,
        line,
        out,
      );
    }
  }
  for (const item of getArray(body, 'output')) {
    if (!isJsonObject(item)) continue;
    if (item.type === 'message') {
      const text = textOf(item.content, line, out);
      if (text !== '') out.message(text, time, line);
    } else if (item.type === 'reasoning') {
      const text = getArray(item, 'summary')
        .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
        .filter((part) => part !== '')
        .join('\n\n');
      if (text !== '') out.reasoning(text, time, line);
    } else if (item.type === 'function_call') {
      call(getString(item, 'call_id'), getString(item, 'name'), item.arguments, time, line, out);
    } else if (!importHostedCall(item, String(item.type), line, out, time)) {
      // A call item of a type no importer knows is counted, once per id.
      const type = String(item.type);
      const isCall = isUnknownCallItem(type, item) && out.sourceCall(String(item.id));
      out.note(
        `lhar/item-${type}`,
        `Response items of the type "${type}" have no JP event; skipped.`,
        line,
        isCall ? 1 : 0,
      );
    }
  }
}

function call(
  id: string | undefined,
  name: string | undefined,
  args: JsonValue | undefined,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  if (id === undefined || name === undefined) {
    out.skipCall(line, 'lhar/bad-call', `a tool call without a string id and name`, id);
    return;
  }
  out.toolCall(id, name, toArguments(args).args, time, line);
}

/**
 * A response body the proxy kept as its server-sent events, as the body it
 * streamed: Responses' completed response (else its finished items),
 * Anthropic's content blocks put back together from their deltas, or the
 * Chat Completions choice from its chunks. Undefined when no event reads.
 */
function readStreamedBody(text: string): JsonObject | undefined {
  const events: JsonObject[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('data:')) continue;
    const data = raw.slice(5).trim();
    if (data === '[DONE]') continue;
    try {
      const value = JSON.parse(data) as JsonValue;
      if (isJsonObject(value)) events.push(value);
    } catch {
      // A line that is not JSON carries nothing the body needs.
    }
  }
  const completed = events.find((e) => e.type === 'response.completed');
  if (completed !== undefined && isJsonObject(completed.response)) return completed.response;
  const items = events.flatMap((e) =>
    e.type === 'response.output_item.done' && isJsonObject(e.item) ? [e.item] : [],
  );
  if (items.length > 0) return { output: items };
  const blocks = anthropicBlocks(events);
  if (blocks.length > 0) return { content: blocks };
  return chatChoice(events);
}

/** Anthropic's streamed content blocks, by index, with their text, thinking and input deltas applied. */
function anthropicBlocks(events: readonly JsonObject[]): JsonObject[] {
  const blocks = new Map<number, JsonObject>();
  const inputs = new Map<number, string>();
  for (const event of events) {
    const index = typeof event.index === 'number' ? event.index : -1;
    if (event.type === 'content_block_start' && isJsonObject(event.content_block)) {
      blocks.set(index, { ...event.content_block });
    }
    const block = blocks.get(index);
    const delta = isJsonObject(event.delta) ? event.delta : undefined;
    if (event.type !== 'content_block_delta' || block === undefined || delta === undefined)
      continue;
    if (typeof delta.text === 'string')
      block.text = `${getString(block, 'text') ?? ''}${delta.text}`;
    if (typeof delta.thinking === 'string')
      block.thinking = `${getString(block, 'thinking') ?? ''}${delta.thinking}`;
    if (typeof delta.partial_json === 'string')
      inputs.set(index, `${inputs.get(index) ?? ''}${delta.partial_json}`);
  }
  for (const [index, input] of inputs) {
    const block = blocks.get(index) as JsonObject;
    block.input = toArguments(input).args;
  }
  return [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
}

/** The first Chat Completions choice, its content and tool calls merged from the chunks' deltas. */
function chatChoice(events: readonly JsonObject[]): JsonObject | undefined {
  let content = '';
  let read = false;
  const calls = new Map<number, { id?: string; name?: string; args: string }>();
  for (const event of events) {
    const choice = getArray(event, 'choices')[0];
    const delta = isJsonObject(choice) && isJsonObject(choice.delta) ? choice.delta : undefined;
    if (delta === undefined) continue;
    read = true;
    if (typeof delta.content === 'string') content += delta.content;
    for (const part of getArray(delta, 'tool_calls')) {
      if (!isJsonObject(part)) continue;
      const index = typeof part.index === 'number' ? part.index : 0;
      const call = calls.get(index) ?? { args: '' };
      const fn = isJsonObject(part.function) ? part.function : {};
      call.id ??= getString(part, 'id');
      call.name ??= getString(fn, 'name');
      call.args += getString(fn, 'arguments') ?? '';
      calls.set(index, call);
    }
  }
  if (!read) return undefined;
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({
      ...(call.id === undefined ? {} : { id: call.id }),
      type: 'function',
      function: { ...(call.name === undefined ? {} : { name: call.name }), arguments: call.args },
    }));
  return { choices: [{ message: { content, tool_calls: toolCalls } }] };
}
