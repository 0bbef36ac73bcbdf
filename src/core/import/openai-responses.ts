/**
 * OpenAI Responses input items: an `input` array, or a request body holding
 * one. Items are `message`, `reasoning`, `function_call` and
 * `function_call_output` (and their custom-tool forms). Mapping and sources:
 * docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, type SourceTime, StreamBuilder, toArguments } from './builder.ts';
import { getApiArray, readBodyModel } from './openai-chat.ts';
import { ResponseUsageTracker } from './recorded-usage.ts';
import type { JsonDocument } from './source.ts';
import { joinOpenAiContent } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** The item types of a conversation; any other typed item is noted, never a refusal. */
const CONVERSATION_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'computer_call',
  'computer_call_output',
]);

/**
 * Hosted tools: items the API ran for the model, each a call and its result
 * in one item (`computer_call` and `local_shell_call` have their own output
 * items). The fields that are the call's input; the item's other fields
 * (results, outputs, error) are its result.
 */
const HOSTED_CALL_INPUTS: ReadonlyMap<string, readonly string[]> = new Map([
  ['web_search_call', ['action']],
  ['file_search_call', ['queries']],
  ['code_interpreter_call', ['code', 'container_id']],
  ['mcp_call', ['server_label', 'arguments']],
  ['tool_search_call', ['arguments', 'query', 'action']],
  ['image_generation_call', []],
]);

/** Item fields that are neither input nor result: the envelope. */
const ENVELOPE_KEYS = new Set(['id', 'type', 'status', 'call_id', 'name']);

/**
 * Whether a document is a Responses input; the reason when not. The
 * envelope: an `input` array (or a bare array) of objects, each with a
 * string `type` or a `role`, at least one a conversation item. An item
 * type the importer does not know is not a refusal (it is noted).
 */
export function sniffOpenAiResponses(value: JsonValue): Sniffed {
  const items = getApiArray(value, 'input');
  if (!items) return misfit('it is neither an input array nor an object with "input"');
  if (items.length === 0) return misfit('the input array is empty');
  let typed = false;
  let known: string | undefined;
  for (const [index, item] of items.entries()) {
    if (!isJsonObject(item)) return misfit(`item ${index + 1} is not an object`);
    const type = getString(item, 'type');
    if (type !== undefined) {
      typed = true;
      if (CONVERSATION_ITEMS.has(type) || HOSTED_CALL_INPUTS.has(type))
        known ??= `item ${index + 1} is a Responses "${type}" item`;
    } else if (typeof item.role !== 'string') {
      return misfit(`item ${index + 1} has neither "type" nor "role"`);
    } else {
      known ??= `item ${index + 1} is a {"role", "content"} message`;
    }
  }
  if (known === undefined) return misfit('no item is a Responses message or call');
  // A bare role/content array (no "type" anywhere) is a Chat Completions messages array.
  if (!typed && Array.isArray(value)) return misfit('no item has a Responses "type"');
  return fits(Array.isArray(value) ? known : `it is an object with "input", and ${known}`);
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
  // A response is the run of output items between two inputs (a user message, a call's output).
  const model = readBodyModel(root);
  const responses = new ResponseUsageTracker(
    out.elements,
    model === undefined ? undefined : () => ({ runtime: 'openai-responses', model }),
  );
  for (const entry of getApiArray(root, 'input') ?? []) {
    if (!isJsonObject(entry)) continue;
    const item: JsonObject = entry;
    const line = document.lineOf(item);
    const type = getString(item, 'type') ?? 'message';
    if (type.endsWith('_output') || (type === 'message' && item.role === 'user'))
      responses.endOutput();
    else if (type !== 'message' || item.role === 'assistant') responses.beginOutput();
    switch (type) {
      case 'message':
        if (item.role === 'user')
          out.userMessage(joinOpenAiContent(item.content, line, out), undefined, line);
        else if (item.role === 'assistant')
          out.message(joinOpenAiContent(item.content, line, out), undefined, line);
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
          out.skipCall(
            line,
            'openai-responses/bad-call',
            `a ${type} without a string "call_id" and "name"`,
            id,
          );
          break;
        }
        const { args } =
          type === 'function_call'
            ? toArguments(item.arguments)
            : { args: { input: item.input ?? '' } };
        out.toolCall(id, name, args, undefined, line);
        break;
      }
      case 'computer_call':
      case 'local_shell_call': {
        const id = getString(item, 'call_id') ?? getString(item, 'id');
        if (id === undefined) {
          out.skipCall(
            line,
            'openai-responses/bad-call',
            `a ${type} without a string "call_id"`,
            id,
          );
          break;
        }
        out.toolCall(id, type, isJsonObject(item.action) ? item.action : {}, undefined, line);
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'computer_call_output':
      case 'local_shell_call_output': {
        const id = getString(item, 'call_id');
        if (id === undefined) {
          out.skipItem(line, 'openai-responses/bad-output', `a ${type} without a string "call_id"`);
          break;
        }
        const output = item.output;
        const text =
          typeof output === 'string'
            ? output
            : type === 'computer_call_output'
              ? JSON.stringify(output ?? null)
              : joinOpenAiContent(output, line, out);
        // The Responses API has no error flag on outputs: none is inferred.
        out.toolResult(id, text, false, undefined, line);
        break;
      }
      default: {
        if (importHostedCall(item, type, line, out)) break;
        // A repeated one is counted once.
        const call = isUnknownCallItem(type, item) && out.sourceCall(String(item.id));
        out.note(
          `openai-responses/item-${type}`,
          `Items of the type "${type}" are not ones the importer knows (references, listings, approvals, or newer than it); skipped.`,
          line,
          call ? 1 : 0,
        );
      }
    }
  }
  responses.finish();
  return out.finish();
}

/**
 * A hosted tool's item (`web_search_call`, …) as a call and its result, in
 * every format that records Responses items (LHAR too); false when `type`
 * is no hosted tool.
 */
export function importHostedCall(
  item: JsonObject,
  type: string,
  line: number | undefined,
  out: StreamBuilder,
  time?: SourceTime,
): boolean {
  const inputs = HOSTED_CALL_INPUTS.get(type);
  if (inputs === undefined) return false;
  emitHostedCall(item, type, inputs, line, out, time);
  return true;
}

/**
 * A hosted tool's item as a call and its result: named by the item's own
 * `name` where it has one (`mcp_call`), else by its type; the input fields
 * are the arguments, the others (results, outputs, error) the result.
 */
function emitHostedCall(
  item: JsonObject,
  type: string,
  inputs: readonly string[],
  line: number | undefined,
  out: StreamBuilder,
  time: SourceTime,
): void {
  const id = getString(item, 'id') ?? getString(item, 'call_id');
  if (id === undefined) {
    out.skipCall(line, `${out.format}/bad-call`, `a ${type} item without a string "id"`, id);
    return;
  }
  const args: JsonObject = {};
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(item)) {
    if (ENVELOPE_KEYS.has(key)) continue;
    if (inputs.includes(key)) {
      if (key === 'arguments') Object.assign(args, toArguments(value).args);
      else args[key] = value;
    } else rest[key] = value;
  }
  const values = Object.values(rest);
  const only = values.length === 1 ? values[0] : undefined;
  const content = values.length === 0 ? '' : typeof only === 'string' ? only : JSON.stringify(rest);
  const failed = (rest.error !== undefined && rest.error !== null) || item.status === 'failed';
  if (!out.toolCall(id, getString(item, 'name') ?? type, args, time, line)) return;
  out.toolResult(id, content, failed, time, line);
}

/**
 * Whether an item of a type no importer knows is a tool call (Responses'
 * and Codex's `*_call` items with an id): one the figures lack, so the note
 * that skips it counts it.
 */
export function isUnknownCallItem(type: string, item: JsonObject): boolean {
  return type.endsWith('_call') && typeof item.id === 'string';
}
