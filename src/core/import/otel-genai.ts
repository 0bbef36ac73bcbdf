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
import { attachAt, createRecordedUsage, readCount } from './recorded-usage.ts';
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
  const answered = new Set<string>();
  for (const span of spans) {
    const line = document.lineOf(span);
    const attributes = attributesOf(span);
    const time = Number(startOf(span) / NANOS_PER_MS) || undefined;
    const input = messagesOf(attributes, 'gen_ai.input.messages');
    const output = messagesOf(attributes, 'gen_ai.output.messages');
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
    for (const message of input.slice(start)) {
      if (message.role === 'assistant') {
        if (start === 0) importParts(message, time, line, out, answered);
        continue;
      }
      if (message.role === 'system') continue;
      importParts(message, time, line, out, answered);
    }
    const first = out.elements.length;
    for (const message of output) importParts(message, time, line, out, answered);
    // The conventions count cached tokens in `gen_ai.usage.input_tokens`.
    const usage = createRecordedUsage({
      prompt_tokens: readCount(attributes.get('gen_ai.usage.input_tokens')),
      cache_read_tokens: readCount(attributes.get('gen_ai.usage.cache_read.input_tokens') ?? 0),
      cache_write_tokens: readCount(attributes.get('gen_ai.usage.cache_write.input_tokens') ?? 0),
      output_tokens: readCount(attributes.get('gen_ai.usage.output_tokens')),
    });
    if (!attachAt(out.elements, first, usage)) {
      out.note(
        'otel-genai/usage-not-kept',
        'Usage that is not whole token counts, or of a call whose output imported nothing, is not kept.',
        line,
      );
    }
  }
  return out.finish();
}

function importParts(
  message: JsonObject,
  time: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
  answered: Set<string>,
): void {
  let opened = false;
  for (const part of getArray(message, 'parts')) {
    if (!isJsonObject(part)) continue;
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
      case 'tool_call': {
        const id = getString(part, 'id');
        const name = getString(part, 'name');
        if (id === undefined || name === undefined || answered.has(`call:${id}`)) break;
        answered.add(`call:${id}`);
        out.toolCall(id, name, toArguments(part.arguments).args, time, line);
        break;
      }
      case 'tool_call_response': {
        const id = getString(part, 'id');
        if (id === undefined || answered.has(id)) break;
        answered.add(id);
        const response = part.response;
        out.toolResult(
          id,
          typeof response === 'string' ? response : JSON.stringify(response ?? null),
          false,
          time,
          line,
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
