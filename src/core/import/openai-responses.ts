/**
 * OpenAI Responses input items: an `input` array, or a request body holding
 * one. Items are `message`, `reasoning`, `function_call` and
 * `function_call_output` (and their custom-tool forms). Mapping and sources:
 * docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import { getApiArray } from './openai-chat.ts';
import type { JsonDocument } from './source.ts';
import { joinTextParts, OPENAI_TEXT_KEYS } from './text-parts.ts';
import type { ImportResult } from './types.ts';

const ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'mcp_call',
  'mcp_list_tools',
  'item_reference',
]);

/** Whether a document is a Responses input; the reason when not. */
export function sniffOpenAiResponses(value: JsonValue): string | undefined {
  const items = getApiArray(value, 'input');
  if (!items) return 'it is neither an input array nor an object with "input"';
  if (items.length === 0) return 'the input array is empty';
  let typed = false;
  for (const [index, item] of items.entries()) {
    if (!isJsonObject(item)) return `item ${index + 1} is not an object`;
    const type = getString(item, 'type');
    if (type !== undefined) {
      if (!ITEM_TYPES.has(type))
        return `item ${index + 1} has the type "${type}", not a Responses item`;
      typed = true;
    } else if (typeof item.role !== 'string') {
      return `item ${index + 1} has neither "type" nor "role"`;
    }
  }
  // A bare role/content array (no "type" anywhere) is a Chat Completions messages array.
  return typed || !Array.isArray(value) ? undefined : 'no item has a Responses "type"';
}

function contentText(
  content: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): string {
  return joinTextParts(content, OPENAI_TEXT_KEYS, () =>
    out.note(
      'openai-responses/non-text-part',
      'Non-text content parts (images, files, audio) have no text to count; left out.',
      line,
    ),
  );
}

/** Imports a Responses input. */
export function importOpenAiResponses(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('openai-responses');
  const root = document.value;
  if (isJsonObject(root) && typeof root.instructions === 'string') {
    out.note(
      'openai-responses/instructions',
      'The request\'s "instructions" are skipped: JP keeps instructions in its config, not in the stream.',
      document.lineOf(root),
    );
  }
  for (const entry of getApiArray(root, 'input') ?? []) {
    if (!isJsonObject(entry)) continue;
    const item: JsonObject = entry;
    const line = document.lineOf(item);
    const type = getString(item, 'type') ?? 'message';
    switch (type) {
      case 'message':
        if (item.role === 'user')
          out.userMessage(contentText(item.content, line, out), undefined, line);
        else if (item.role === 'assistant')
          out.message(contentText(item.content, line, out), undefined, line);
        else {
          out.note(
            'openai-responses/instructions',
            'System and developer messages are skipped: JP keeps instructions in its config, not in the stream.',
            line,
          );
        }
        break;
      case 'reasoning': {
        const text = getArray(item, 'summary')
          .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
          .filter((part) => part !== '')
          .join('\n\n');
        if (text !== '') out.reasoning(text, undefined, line);
        if (typeof item.encrypted_content === 'string' || text === '') {
          out.note(
            'openai-responses/encrypted-reasoning',
            'Reasoning items carry encrypted content or no summary, which has no text to count; only summary text is imported.',
            line,
          );
        }
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const id = getString(item, 'call_id');
        const name = getString(item, 'name');
        if (id === undefined || name === undefined) {
          out.error({
            line: line ?? 1,
            column: 1,
            severity: 'error',
            message: `A ${type} without a string "call_id" and "name" is skipped.`,
            code: 'openai-responses/bad-call',
          });
          break;
        }
        const { args } =
          type === 'function_call'
            ? toArguments(item.arguments)
            : { args: { input: item.input ?? '' } };
        out.toolCall(id, name, args, undefined, line);
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const id = getString(item, 'call_id');
        if (id === undefined) {
          out.error({
            line: line ?? 1,
            column: 1,
            severity: 'error',
            message: `A ${type} without a string "call_id" is skipped.`,
            code: 'openai-responses/bad-output',
          });
          break;
        }
        const output = item.output;
        const text = typeof output === 'string' ? output : contentText(output, line, out);
        // The Responses API has no error flag on outputs: none is inferred.
        out.toolResult(id, text, false, undefined, line);
        break;
      }
      default:
        out.note(
          `openai-responses/item-${type}`,
          `Items of the type "${type}" (hosted tools, references) have no JP event; skipped.`,
          line,
        );
    }
  }
  return out.finish();
}
