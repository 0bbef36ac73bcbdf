/**
 * Server-side tools: calls the API ran for the model (web search, code
 * execution, tool search, remote MCP) rather than the agent. They hold much
 * of a conversation's tokens, so each imports as a tool call and its result
 * under a stable name a hint can key on: the block's own `name` where it has
 * one (Anthropic `server_tool_use`, `mcp_tool_use`; OpenAI `mcp_call`), else
 * the item type (OpenAI `web_search_call`, …). The names are listed in the
 * README's format section.
 */
import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getString } from './builder.ts';

/** Anthropic blocks that are a call the API itself runs. */
export const ANTHROPIC_SERVER_CALLS: ReadonlySet<string> = new Set([
  'server_tool_use',
  'mcp_tool_use',
]);

/**
 * Whether an Anthropic block is the result of a server-side call: any
 * `*_tool_result` other than the agent's own `tool_result`, paired with its
 * call by `tool_use_id` (`web_search_tool_result`,
 * `code_execution_tool_result`, `bash_code_execution_tool_result`,
 * `tool_search_tool_result`, `mcp_tool_result`, and those to come).
 */
export function isAnthropicServerResult(block: JsonObject): boolean {
  const type = block.type;
  return typeof type === 'string' && type !== 'tool_result' && type.endsWith('_tool_result');
}

/** A server-side result's text: text parts joined; any other content as its JSON, so its size counts. */
export function serverResultText(content: JsonValue | undefined): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (
    Array.isArray(content) &&
    content.every((part) => isJsonObject(part) && part.type === 'text')
  ) {
    return content.map((part) => (isJsonObject(part) ? String(part.text ?? '') : '')).join('\n');
  }
  return JSON.stringify(content);
}

/** Whether a server-side result reports a failure (`is_error`, an `*_error` content, an `error_code`). */
export function isServerResultError(block: JsonObject): boolean {
  if (block.is_error === true) return true;
  const content = block.content;
  if (!isJsonObject(content)) return false;
  const type = getString(content, 'type') ?? '';
  return type.endsWith('_error') || 'error_code' in content;
}
