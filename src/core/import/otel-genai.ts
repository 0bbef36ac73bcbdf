/**
 * OpenTelemetry GenAI spans in OTLP/JSON (`{resourceSpans: [{scopeSpans:
 * [{spans: […]}]}]}`): one span per model call, its messages in the
 * `gen_ai.input.messages` and `gen_ai.output.messages` attributes (JSON
 * strings of `{role, parts: [text | reasoning | tool_call |
 * tool_call_response]}`) and its usage in `gen_ai.usage.*`. Every span
 * repeats the history in its input, so only what follows the previous
 * call's input is new. Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import {
  attachRecordedByAt,
  attachUsageAt,
  createRecordedUsage,
  readCount,
} from './recorded-usage.ts';
import type { JsonDocument } from './source.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

const NANOS_PER_MS = 1_000_000n;

/** The spans of an OTLP/JSON traces document. */
function spansOf(value: JsonValue): JsonObject[] {
  if (!isJsonObject(value)) return [];
  return getArray(value, 'resourceSpans').flatMap((resource) =>
    isJsonObject(resource)
      ? getArray(resource, 'scopeSpans').flatMap((scope) =>
          isJsonObject(scope) ? getArray(scope, 'spans').filter(isJsonObject) : [],
        )
      : [],
  );
}

/** A span's attributes by key, their OTLP `AnyValue` unwrapped (int64 as text becomes a number). */
function attributesOf(span: JsonObject): Map<string, JsonValue> {
  const attributes = new Map<string, JsonValue>();
  for (const attribute of getArray(span, 'attributes')) {
    if (
      !isJsonObject(attribute) ||
      typeof attribute.key !== 'string' ||
      !isJsonObject(attribute.value)
    )
      continue;
    const value = attribute.value;
    if (typeof value.stringValue === 'string') attributes.set(attribute.key, value.stringValue);
    else if (typeof value.intValue === 'string' && /^\d+$/.test(value.intValue))
      attributes.set(attribute.key, Number(value.intValue));
    else if (typeof value.intValue === 'number') attributes.set(attribute.key, value.intValue);
    else if (typeof value.doubleValue === 'number')
      attributes.set(attribute.key, value.doubleValue);
  }
  return attributes;
}

/** Whether a JSON document is OTLP/JSON traces with GenAI spans; the reason when not. */
export function sniffOtelGenAi(value: JsonValue): Sniffed {
  if (!isJsonObject(value) || !Array.isArray(value.resourceSpans))
    return misfit('it is not OTLP/JSON traces ({"resourceSpans": […]})');
  const genAi = spansOf(value).some((span) => attributesOf(span).has('gen_ai.operation.name'));
  return genAi
    ? fits('it is OTLP/JSON traces ("resourceSpans"), and a span has "gen_ai.operation.name"')
    : misfit('no span has GenAI attributes (gen_ai.operation.name)');
}

/** Span start, as epoch milliseconds (OTLP writes nanoseconds as text). */
function startOf(span: JsonObject): bigint {
  const nanos = span.startTimeUnixNano;
  return typeof nanos === 'string' && /^\d+$/.test(nanos) ? BigInt(nanos) : 0n;
}

function messagesOf(attributes: Map<string, JsonValue>, key: string): JsonObject[] {
  const text = attributes.get(key);
  if (typeof text !== 'string') return [];
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return Array.isArray(parsed) ? parsed.filter(isJsonObject) : [];
  } catch {
    return [];
  }
}

/** A message as the history repeats it: its role and parts (an output's `finish_reason` is not repeated). */
function messageKey(message: JsonObject): string {
  return JSON.stringify([message.role ?? null, message.parts ?? null]);
}

/** How many messages at the start of `input` repeat `history`. */
function commonPrefixLength(input: readonly string[], history: readonly string[]): number {
  let at = 0;
  while (at < input.length && at < history.length && input[at] === history[at]) at += 1;
  return at;
}

/** Imports OTLP/JSON GenAI spans, one model call per span, in start order. */
export function importOtelGenAi(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('otel-genai');
  const spans = spansOf(document.value)
    .filter((span) => attributesOf(span).has('gen_ai.operation.name'))
    .sort((a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0));
  // What the previous call of a trace sent and got back, and of any trace:
  // instrumentations give each call a trace of its own as often as they
  // share one, and a call's input repeats the history either way.
  const lastOfTrace = new Map<string, string[]>();
  let lastOfAny: string[] | undefined;
  const calls: CallState = { skipped: new Set(), withoutId: new Map(), unanswered: [] };
  for (const span of spans) {
    const line = document.lineOf(span);
    const attributes = attributesOf(span);
    const time = Number(startOf(span) / NANOS_PER_MS) || undefined;
    const input = messagesOf(attributes, 'gen_ai.input.messages');
    const output = messagesOf(attributes, 'gen_ai.output.messages');
    if (input.length === 0 && output.length === 0) {
      // A tool's or an agent's span (`execute_tool`, `invoke_agent`), or a call recorded
      // without its messages: nothing to read, and no history for the next call to repeat.
      out.note(
        'otel-genai/span-without-messages',
        'GenAI spans without input or output messages (tool executions, agent invocations, calls recorded without content) have nothing to import; skipped.',
        line,
      );
      continue;
    }
    const trace = String(span.traceId ?? '');
    const sameTrace = lastOfTrace.get(trace);
    const history = sameTrace ?? lastOfAny;
    const inputKeys = input.map(messageKey);
    const start = history === undefined ? 0 : commonPrefixLength(inputKeys, history);
    const conversation = [...inputKeys, ...output.map(messageKey)];
    lastOfTrace.set(trace, conversation);
    lastOfAny = conversation;
    if (sameTrace !== undefined && start < sameTrace.length) {
      out.note(
        'otel-genai/history-shrank',
        'A call whose input does not repeat the call before in full is read from where it differs; answers already imported are not repeated.',
        line,
      );
    }
    for (const [offset, message] of input.slice(start).entries()) {
      const place = start + offset;
      if (message.role === 'system') continue;
      // An answer after the repeated history was in no output before (a call whose output
      // was not captured): its calls are read here; its text only at a conversation's start.
      const callsOnly = message.role === 'assistant' && start > 0;
      importParts(message, place, time, line, out, calls, callsOnly);
    }
    const first = out.elements.length;
    for (const [offset, message] of output.entries())
      importParts(message, input.length + offset, time, line, out, calls, false);
    // The conventions count cached tokens in `gen_ai.usage.input_tokens`.
    const usage = createRecordedUsage({
      prompt_tokens: readCount(attributes.get('gen_ai.usage.input_tokens')),
      cache_read_tokens: readCount(attributes.get('gen_ai.usage.cache_read.input_tokens') ?? 0),
      cache_write_tokens: readCount(attributes.get('gen_ai.usage.cache_write.input_tokens') ?? 0),
      output_tokens: readCount(attributes.get('gen_ai.usage.output_tokens')),
    });
    attachUsageAt(out, first, usage, line, 'a call whose output imported nothing');
    const text = (key: string) => {
      const value = attributes.get(key);
      return typeof value === 'string' ? value : undefined;
    };
    attachRecordedByAt(out, first, {
      runtime: 'otel-genai',
      model: text('gen_ai.response.model') ?? text('gen_ai.request.model'),
      provider: text('gen_ai.provider.name') ?? text('gen_ai.system'),
    });
  }
  return out.finish();
}

/**
 * The calls of one import the builder does not keep: those skipped for want
 * of a name, and those the source wrote without an id. (Which calls were
 * imported and answered, the builder knows: `isRepeat`, `isAnswered`.)
 */
interface CallState {
  /** The ids of calls skipped without a name: each an error once, though every later input repeats it. */
  skipped: Set<string>;
  /** The id given to each call without one, and answered by each response without one, by its place in the conversation. */
  withoutId: Map<string, string>;
  /** Calls without an id not yet answered, oldest first: a response without an id answers the oldest. */
  unanswered: string[];
}

/**
 * The id of a call part: its own, or for one without (the conventions make
 * `id` optional; Gemini's calls have none) one made from its place in the
 * conversation, which every later span repeats: `otel-<message>-<n>`.
 */
function callId(
  part: JsonObject,
  place: number,
  occurrence: number,
  calls: CallState,
  line: number | undefined,
  out: StreamBuilder,
): string {
  const own = getString(part, 'id');
  if (own !== undefined) return own;
  const key = `${place}/${occurrence}/${JSON.stringify(part)}`;
  const known = calls.withoutId.get(key);
  if (known !== undefined) return known;
  const id = `otel-${place}-${calls.withoutId.size}`;
  calls.withoutId.set(key, id);
  calls.unanswered.push(id);
  out.note(
    'otel-genai/call-without-id',
    'Tool calls without an id get one from their place (otel-<message>-<n>); a response without an id answers the oldest of them not yet answered.',
    line,
  );
  return id;
}

/**
 * The id a response part answers: its own, else the oldest call without an
 * id not yet answered (kept by the response's place, so the same response
 * repeated in a later span's history answers the same call).
 */
function responseId(
  part: JsonObject,
  place: number,
  occurrence: number,
  calls: CallState,
): string | undefined {
  const own = getString(part, 'id');
  if (own !== undefined) return own;
  const key = `response ${place}/${occurrence}/${JSON.stringify(part)}`;
  const known = calls.withoutId.get(key);
  if (known !== undefined) return known;
  const id = calls.unanswered.shift();
  if (id !== undefined) calls.withoutId.set(key, id);
  return id;
}

function importCall(
  id: string,
  name: string,
  args: JsonValue | undefined,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): void {
  const parsed = toArguments(args).args;
  // Every call's input repeats the history: the same call again (id, name and arguments) is no news.
  if (out.isRepeat(id, name, parsed)) return;
  out.toolCall(id, name, parsed, time, line);
}

function importResponse(
  id: string | undefined,
  response: JsonValue | undefined,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
  calls: CallState,
): void {
  if (id === undefined) {
    out.note(
      'otel-genai/response-without-call',
      'Tool responses without an id, with no call without an id left to answer, are skipped.',
      line,
    );
    return;
  }
  if (out.isAnswered(id)) return;
  calls.unanswered = calls.unanswered.filter((waiting) => waiting !== id);
  out.toolResult(
    id,
    typeof response === 'string' ? response : JSON.stringify(response ?? null),
    false,
    time,
    line,
  );
}

/**
 * A message's parts; `place` is the message's index in the conversation
 * (the span's input, then its output). `callsOnly`: only its tool calls.
 */
function importParts(
  message: JsonObject,
  place: number,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
  calls: CallState,
  callsOnly: boolean,
): void {
  let opened = false;
  // How many parts like each came before in the message: a part without an id is known by its
  // place, its content and this count (a history that drops a reasoning part shifts the indexes).
  const seen = new Map<string, number>();
  for (const part of getArray(message, 'parts')) {
    if (!isJsonObject(part)) continue;
    const json = JSON.stringify(part);
    const occurrence = seen.get(json) ?? 0;
    seen.set(json, occurrence + 1);
    if (callsOnly && part.type !== 'tool_call' && part.type !== 'server_tool_call') continue;
    const content = getString(part, 'content');
    switch (part.type) {
      case 'text':
        if (content === undefined) break;
        if (message.role === 'user') {
          if (opened) out.userText(content, time, line);
          else out.userMessage(content, time, line);
          opened = true;
        } else out.message(content, time, line);
        break;
      case 'reasoning':
        if (content !== undefined && content !== '') out.reasoning(content, time, line);
        break;
      case 'tool_call':
      case 'server_tool_call': {
        // A server tool (the provider ran it: web search, code execution) is a call like any.
        const name = getString(part, 'name');
        const id = callId(part, place, occurrence, calls, line, out);
        if (name === undefined) {
          if (!calls.skipped.has(id))
            out.skipCall(
              line,
              'otel-genai/bad-call',
              `a ${part.type} part without a string "name"`,
              id,
            );
          calls.skipped.add(id);
          break;
        }
        const args = part.type === 'tool_call' ? part.arguments : part.server_tool_call;
        importCall(id, name, args, time, line, out);
        break;
      }
      case 'tool_call_response':
      case 'server_tool_call_response': {
        const response =
          part.type === 'tool_call_response' ? part.response : part.server_tool_call_response;
        importResponse(
          responseId(part, place, occurrence, calls),
          response,
          time,
          line,
          out,
          calls,
        );
        break;
      }
      default:
        out.note(
          `otel-genai/part-${String(part.type)}`,
          `Message parts of the type "${String(part.type)}" (files, blobs) have no text to count; left out.`,
          line,
        );
    }
  }
}
