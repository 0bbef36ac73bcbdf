/**
 * OpenAI Chat Completions: a `messages` array, or a request body holding
 * one. Assistant `tool_calls[]` pair with `role: "tool"` messages by
 * `tool_call_id`. Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import { attachRecordedByAt } from './recorded-usage.ts';
import type { JsonDocument } from './source.ts';
import { joinOpenAiContent } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** The messages array of an API transcript: the array itself, or a request body's `key`. */
export function getApiArray(value: JsonValue, key: string): JsonValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && Array.isArray(value[key])) return value[key];
  return undefined;
}

/**
 * The model a request body names (`model`), which the history's answers
 * came from as far as the file says; undefined for a bare messages array.
 */
export function readBodyModel(value: JsonValue): string | undefined {
  return isJsonObject(value) ? getString(value, 'model') : undefined;
}

/** What a Chat Completions message says: its content, or the calls it makes (`function_call` the older form). */
const MESSAGE_PAYLOAD_KEYS = ['content', 'tool_calls', 'function_call', 'refusal'];

/** The roles of Chat Completions messages (`function` is the older form of `tool`). */
const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** Whether a document is a Chat Completions transcript; the reason when not. */
export function sniffOpenAiChat(value: JsonValue): Sniffed {
  const messages = getApiArray(value, 'messages');
  if (!messages) return misfit('it is neither a messages array nor an object with "messages"');
  if (messages.length === 0) return misfit('the messages array is empty');
  for (const [index, message] of messages.entries()) {
    if (!isJsonObject(message) || typeof message.role !== 'string') {
      return misfit(`message ${index + 1} has no "role"`);
    }
    if (!CHAT_ROLES.has(message.role)) {
      return misfit(
        `message ${index + 1} has the role "${message.role}", not a Chat Completions role`,
      );
    }
    if ('parts' in message && !('content' in message)) {
      return misfit(`message ${index + 1} has "parts" instead of "content"`);
    }
    if (Array.isArray(message.content)) {
      const foreign = message.content.find(
        (part) =>
          isJsonObject(part) &&
          !['text', 'image_url', 'input_audio', 'file', 'refusal'].includes(String(part.type)),
      );
      if (foreign !== undefined && isJsonObject(foreign)) {
        return misfit(
          `message ${index + 1} has a "${String(foreign.type)}" part, not a Chat Completions part`,
        );
      }
    }
  }
  // Roles alone are no conversation: every message of a real request carries its content or calls.
  if (
    !messages.some(
      (message) => isJsonObject(message) && MESSAGE_PAYLOAD_KEYS.some((key) => key in message),
    )
  ) {
    return misfit('no message has "content", "tool_calls" or "function_call"');
  }
  return fits(
    "every message has a Chat Completions role and only Chat Completions parts (and no block is Anthropic's)",
  );
}

/** Imports a Chat Completions transcript. */
export function importOpenAiChat(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('openai-chat');
  const model = readBodyModel(document.value);
  for (const item of getApiArray(document.value, 'messages') ?? []) {
    if (!isJsonObject(item)) continue;
    const message: JsonObject = item;
    const line = document.lineOf(message);
    switch (message.role) {
      case 'user':
        out.userMessage(joinOpenAiContent(message.content, line, out), undefined, line);
        break;
      case 'assistant': {
        const first = out.length;
        const reasoning =
          getString(message, 'reasoning_content') ?? getString(message, 'reasoning');
        if (reasoning !== undefined && reasoning !== '') out.reasoning(reasoning, undefined, line);
        if (message.content !== null && message.content !== undefined) {
          const text = joinOpenAiContent(message.content, line, out);
          if (text !== '' || getArray(message, 'tool_calls').length === 0)
            out.message(text, undefined, line);
        }
        for (const call of getArray(message, 'tool_calls')) {
          const fn = isJsonObject(call) && isJsonObject(call.function) ? call.function : undefined;
          const id = isJsonObject(call) ? getString(call, 'id') : undefined;
          const name = fn ? getString(fn, 'name') : undefined;
          if (id === undefined || name === undefined || !fn) {
            out.skipCall(
              document.lineOf(call) ?? line,
              'openai-chat/bad-tool-call',
              'a tool call without a string "id" and "function.name"',
              id,
            );
            continue;
          }
          const { args, wrapped } = toArguments(fn.arguments);
          if (out.toolCall(id, name, args, undefined, line) && wrapped) {
            out.note(
              'openai-chat/arguments-not-object',
              'Arguments that are not a JSON object are kept whole under "input".',
              line,
            );
          }
        }
        if (model !== undefined) attachRecordedByAt(out, first, { runtime: 'openai-chat', model });
        break;
      }
      case 'tool': {
        const id = getString(message, 'tool_call_id');
        if (id === undefined) {
          out.skipItem(
            line,
            'openai-chat/bad-tool-message',
            `a tool message without a string "tool_call_id"`,
          );
          break;
        }
        // Chat Completions has no error flag on tool messages: none is inferred.
        out.toolResult(id, joinOpenAiContent(message.content, line, out), false, undefined, line);
        break;
      }
      case 'system':
      case 'developer':
        out.note(
          'openai-chat/instructions',
          'System and developer messages are skipped: JP keeps instructions in its config, not in the stream, and no hint applies to them.',
          line,
        );
        break;
      default:
        out.note(
          `openai-chat/role-${String(message.role)}`,
          `Messages with the role "${String(message.role)}" have no JP event; skipped.`,
          line,
        );
    }
  }
  return out.finish();
}
