/**
 * Kimi CLI contexts (`~/.kimi/sessions/<hash>/<session>/context.jsonl`, or
 * `<session>.jsonl` in older versions): one OpenAI-chat-like message per
 * line, keyed by `role`, with Kimi's own bookkeeping roles `_checkpoint`,
 * `_usage` and `_system_prompt` between them. Those roles are the envelope
 * the format is recognised by. The file has no timestamps (they are in
 * `wire.jsonl`). Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import { dropRepeatedLines } from './repeated-lines.ts';
import type { JsonLine } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

const MESSAGE_ROLES = new Set(['user', 'assistant', 'tool', 'system']);
const BOOKKEEPING_ROLES = new Set(['_checkpoint', '_usage', '_system_prompt']);

/** Whether parsed lines are a Kimi CLI context; the reason when not. */
export function sniffKimiCli(lines: readonly JsonLine[]): Sniffed {
  let bookkeeping: string | undefined;
  let message = false;
  for (const { line, value } of lines) {
    const role = isJsonObject(value) ? value.role : undefined;
    if (typeof role !== 'string' || (!MESSAGE_ROLES.has(role) && !BOOKKEEPING_ROLES.has(role)))
      return misfit(
        `line ${line} is not a {"role": "user" | "assistant" | "tool" | "_checkpoint" | "_usage"} line`,
      );
    if (BOOKKEEPING_ROLES.has(role)) bookkeeping ??= `line ${line} has the Kimi role "${role}"`;
    else message = true;
  }
  if (bookkeeping === undefined)
    return misfit('no line has a Kimi bookkeeping role (_checkpoint, _usage)');
  return message ? fits(bookkeeping) : misfit('no line is a message');
}

/**
 * Whether a line names what it holds: a message with calls (their ids).
 * A checkpoint's number and a result's call id come again when Kimi's
 * counters restart: such a line is written twice only beside its twin or
 * in a repeated stretch with a message of calls.
 */
function namesItself(value: JsonValue): boolean {
  return isJsonObject(value) && getArray(value, 'tool_calls').length > 0;
}

/** Imports a Kimi CLI context. */
export function importKimiCli(lines: readonly JsonLine[]): ImportResult {
  const out = new StreamBuilder('kimi-cli');
  for (const { line, value } of dropRepeatedLines(lines, out, namesItself)) {
    // Detection looks at the first lines only: a later line can be anything.
    if (!isJsonObject(value)) {
      out.skipLine(line, 'kimi-cli/not-object', 'a JSON object');
      continue;
    }
    const text = () =>
      joinTextParts(value.content, ['text', 'think'], () =>
        out.note('kimi-cli/non-text-part', 'Non-text parts (images) are left out.', line),
      );
    switch (value.role) {
      case 'user':
        out.userMessage(text(), undefined, line);
        break;
      case 'assistant':
        importAssistant(value, line, out);
        break;
      case 'tool': {
        const id = getString(value, 'tool_call_id');
        if (id === undefined) {
          out.skipItem(
            line,
            'kimi-cli/bad-result',
            `a tool message without a string "tool_call_id"`,
          );
          break;
        }
        // Kimi records no error flag on a tool message: none is inferred from the text.
        out.toolResult(id, text(), false, undefined, line);
        break;
      }
      default:
        noteOtherLine(value.role, line, out);
    }
  }
  return out.finish();
}

/** A line that is no message: Kimi's bookkeeping, a role the importer does not know, or none. */
function noteOtherLine(role: JsonValue | undefined, line: number, out: StreamBuilder): void {
  if (typeof role !== 'string') {
    out.note(
      'kimi-cli/no-role',
      'Lines without a string "role" are not lines Kimi CLI writes; skipped.',
      line,
    );
  } else if (BOOKKEEPING_ROLES.has(role)) {
    out.note(
      `kimi-cli/${role}`,
      `"${role}" lines (Kimi's checkpoints, context sizes and system prompt) are not messages; skipped.`,
      line,
    );
  } else {
    out.note(
      `kimi-cli/role-${role}`,
      `Lines of the role "${role}" are not ones the importer knows (newer than it); skipped.`,
      line,
    );
  }
}

function importAssistant(value: JsonObject, line: number, out: StreamBuilder): void {
  for (const part of getArray(value, 'content')) {
    if (!isJsonObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') {
      if (part.text !== '') out.message(part.text, undefined, line);
    } else if (part.type === 'think' && typeof part.think === 'string') {
      if (part.think !== '') out.reasoning(part.think, undefined, line);
    } else {
      out.note('kimi-cli/non-text-part', 'Non-text parts (images) are left out.', line);
    }
  }
  if (typeof value.content === 'string' && value.content !== '')
    out.message(value.content, undefined, line);
  for (const call of getArray(value, 'tool_calls')) {
    const fn = isJsonObject(call) && isJsonObject(call.function) ? call.function : undefined;
    const id = isJsonObject(call) ? getString(call, 'id') : undefined;
    const name = fn ? getString(fn, 'name') : undefined;
    if (fn === undefined || id === undefined || name === undefined) {
      out.skipItem(
        line,
        'kimi-cli/bad-call',
        `a tool call without a string "id" and "function.name"`,
      );
      continue;
    }
    const { args, wrapped } = toArguments(fn.arguments);
    if (out.toolCall(id, name, args, undefined, line) && wrapped) {
      out.note(
        'kimi-cli/arguments-not-object',
        'Arguments that are not a JSON object are kept whole under "input".',
        line,
      );
    }
  }
}
