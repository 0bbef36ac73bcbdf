/**
 * Anthropic Messages: a `messages` array, or a request body holding one.
 * Content blocks: `text`, `thinking`, `redacted_thinking`, `tool_use` and
 * `tool_result` (with `is_error`), and the server-side tools' calls and
 * results (server-tools.ts). Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getString, StreamBuilder } from './builder.ts';
import { importThinkingBlock, importToolUseBlock, resultText } from './claude-code.ts';
import { getApiArray, readBodyModel } from './openai-chat.ts';
import { attachRecordedByAt } from './recorded-usage.ts';
import {
  ANTHROPIC_SERVER_CALLS,
  isAnthropicServerResult,
  isServerResultError,
  serverResultText,
} from './server-tools.ts';
import type { JsonDocument } from './source.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'document',
  ...ANTHROPIC_SERVER_CALLS,
]);

/** The keys an Messages API message has: any other is another tool's envelope (Amp's `meta`, `state`, `usage`). */
const MESSAGE_KEYS = new Set(['role', 'content']);

/**
 * Whether a document is an Anthropic Messages transcript; the reason when
 * not. The whole envelope must fit: messages of `role` and `content` only,
 * results that name their call by `tool_use_id`. Only content blocks tell
 * it from Chat Completions, so a transcript of plain text is read as Chat
 * Completions (the events are the same).
 */
export function sniffAnthropic(value: JsonValue): Sniffed {
  const messages = getApiArray(value, 'messages');
  if (!messages) return misfit('it is neither a messages array nor an object with "messages"');
  let blocks: string | undefined;
  for (const [index, message] of messages.entries()) {
    if (!isJsonObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      return misfit(`message ${index + 1} has a role other than "user" or "assistant"`);
    }
    const foreign = Object.keys(message).find((key) => !MESSAGE_KEYS.has(key));
    if (foreign !== undefined) {
      return misfit(
        `message ${index + 1} has the key "${foreign}"; Messages API messages have only "role" and "content"`,
      );
    }
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (!isJsonObject(block)) continue;
        const type = String(block.type);
        if (
          (type === 'tool_result' || isAnthropicServerResult(block)) &&
          typeof block.tool_use_id !== 'string'
        ) {
          return misfit(`message ${index + 1} has a "${type}" block without "tool_use_id"`);
        }
        const marker = `message ${index + 1} has an Anthropic "${type}" block`;
        if (ANTHROPIC_BLOCKS.has(type) || isAnthropicServerResult(block)) blocks ??= marker;
        if (type === 'text' && 'cache_control' in block)
          blocks ??= `${marker} with "cache_control"`;
        // Anthropic's image and document blocks carry a `source` (Chat Completions' an `image_url`).
        if ((type === 'image' || type === 'document') && isJsonObject(block.source))
          blocks ??= `${marker} with a "source"`;
      }
    }
  }
  return blocks === undefined
    ? misfit('no message has an Anthropic content block (tool_use, tool_result, thinking)')
    : fits(blocks);
}

/** Imports an Anthropic Messages transcript. */
export function importAnthropic(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('anthropic-messages');
  const root = document.value;
  if (isJsonObject(root) && root.system !== undefined) {
    out.note(
      'anthropic-messages/system',
      'The request\'s "system" prompt is skipped: JP keeps instructions in its config, not in the stream.',
      document.lineOf(root),
    );
  }
  const model = readBodyModel(root);
  for (const message of getApiArray(root, 'messages') ?? []) {
    if (!isJsonObject(message)) continue;
    const first = out.length;
    importMessage(message, document, out);
    if (message.role !== 'user' && model !== undefined)
      attachRecordedByAt(out, first, { runtime: 'anthropic-messages', model });
  }
  return out.finish();
}

function importMessage(message: JsonObject, document: JsonDocument, out: StreamBuilder): void {
  const line = document.lineOf(message);
  const content = message.content;
  const user = message.role === 'user';
  if (typeof content === 'string') {
    if (user) out.userMessage(content, undefined, line);
    else out.message(content, undefined, line);
    return;
  }
  let opened = false;
  for (const block of Array.isArray(content) ? content : []) {
    if (!isJsonObject(block)) continue;
    const at = document.lineOf(block) ?? line;
    switch (block.type) {
      case 'text': {
        const text = getString(block, 'text') ?? '';
        if (!user) out.message(text, undefined, at);
        else if (opened) out.userText(text, undefined, at);
        else out.userMessage(text, undefined, at);
        opened ||= user;
        break;
      }
      case 'thinking':
        importThinkingBlock(
          block,
          out,
          'Thinking blocks with only a signature have no text to count; skipped.',
          undefined,
          at,
        );
        break;
      case 'redacted_thinking':
        out.note(
          'anthropic-messages/redacted-thinking',
          'Redacted thinking blocks hold encrypted data, no text; skipped.',
          at,
        );
        break;
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use':
        importToolUseBlock(block, out, 'anthropic-messages/bad-tool-use', undefined, at);
        break;
      case 'tool_result': {
        const id = getString(block, 'tool_use_id');
        if (id === undefined) {
          out.skipItem(
            at,
            'anthropic-messages/bad-tool-result',
            `a tool_result block without a string "tool_use_id"`,
          );
          break;
        }
        out.toolResult(
          id,
          resultText(block.content, at, out),
          block.is_error === true,
          undefined,
          at,
        );
        break;
      }
      default: {
        const id = getString(block, 'tool_use_id');
        if (isAnthropicServerResult(block) && id !== undefined) {
          out.toolResult(
            id,
            serverResultText(block.content),
            isServerResultError(block),
            undefined,
            at,
          );
          break;
        }
        out.note(
          `anthropic-messages/block-${String(block.type)}`,
          `Blocks of the type "${String(block.type)}" (images, documents) have no JP event; skipped.`,
          at,
        );
      }
    }
  }
}
