/**
 * GitHub Copilot CLI sessions (`~/.copilot/session-state/<id>/events.jsonl`):
 * one event per line, `{type, data, id, timestamp, parentId}`, with dotted
 * types (`user.message`, `assistant.message`, `tool.execution_start`, …).
 * A call is announced in `assistant.message.data.toolRequests` and again by
 * `tool.execution_start`; it counts once, by `toolCallId`. Mapping and
 * sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder, toArguments } from './builder.ts';
import { attachRecordedByAt } from './recorded-usage.ts';
import { dropRepeatedLines } from './repeated-lines.ts';
import type { JsonLine } from './source.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** Event types that only a Copilot CLI session writes first or carries the conversation. */
const CONVERSATION_TYPES = new Set(['session.start', 'user.message', 'assistant.message']);

/** Whether parsed lines are a Copilot CLI events.jsonl; the reason when not. */
export function sniffCopilotCli(lines: readonly JsonLine[]): Sniffed {
  let conversation: string | undefined;
  for (const { line, value } of lines) {
    if (
      !isJsonObject(value) ||
      typeof value.type !== 'string' ||
      !value.type.includes('.') ||
      !isJsonObject(value.data) ||
      typeof value.id !== 'string' ||
      typeof value.timestamp !== 'string'
    ) {
      return misfit(
        `line ${line} is not a {"type": "<kind>.<event>", "data", "id", "timestamp"} event`,
      );
    }
    if (CONVERSATION_TYPES.has(value.type))
      conversation ??= `line ${line} is a "${value.type}" event`;
  }
  return conversation === undefined
    ? misfit('no line is a session.start, user.message or assistant.message')
    : fits(`${conversation} ({"type": "<kind>.<event>", "data", "id", "timestamp"})`);
}

/** Imports a Copilot CLI events.jsonl. */
export function importCopilotCli(lines: readonly JsonLine[]): ImportResult {
  const out = new StreamBuilder('copilot-cli');
  let version: string | undefined;
  // Every event has its own id: an identical event again is the same event written twice.
  const once = dropRepeatedLines(lines, out, (value) => isJsonObject(value) && 'id' in value);
  for (const { line, value } of once) {
    if (!isJsonObject(value) || !isJsonObject(value.data) || typeof value.type !== 'string') {
      out.skipLine(line, 'copilot-cli/bad-line', 'a {"type", "data"} event');
      continue;
    }
    const data = value.data;
    const time = value.timestamp;
    switch (value.type) {
      case 'user.message':
        // `transformedContent` adds the date and reminders Copilot injects; the user's words are `content`.
        out.userMessage(getString(data, 'content') ?? '', time, line);
        break;
      case 'assistant.message': {
        const first = out.length;
        importAssistant(data, time, line, out);
        attachRecordedByAt(out, first, {
          runtime: 'copilot-cli',
          version,
          model: getString(data, 'model'),
        });
        break;
      }
      case 'tool.execution_start': {
        const id = getString(data, 'toolCallId');
        const name = getString(data, 'toolName');
        // The call the assistant message requested, announced again: its id and tool name (a
        // start without a name repeats its id's call); the arguments may be restated.
        if (id !== undefined && out.hasCall(id) && (name === undefined || out.isRepeat(id, name))) {
          out.note(
            'copilot-cli/execution-start',
            'tool.execution_start events repeat a call the assistant message already requested (the same toolCallId and tool name); counted once.',
            line,
          );
        } else if (id === undefined || name === undefined) {
          badCall(line, out);
        } else {
          out.toolCall(id, name, toArguments(data.arguments).args, time, line);
        }
        break;
      }
      case 'tool.execution_complete': {
        const id = getString(data, 'toolCallId');
        if (id === undefined) {
          badCall(line, out);
          break;
        }
        const result = isJsonObject(data.result) ? data.result : {};
        const content = getString(result, 'content');
        if (content === undefined) {
          out.note(
            'copilot-cli/no-result-content',
            'Tool completions without result.content (what the model sees) import as an empty result.',
            line,
          );
        }
        // `detailedContent` is for display (a diff); the model saw `content`.
        out.toolResult(id, content ?? '', data.success === false, time, line);
        break;
      }
      case 'system.message':
        out.note(
          'copilot-cli/system.message',
          '"system.message" events (the system prompt, written again after a compaction) are skipped: JP keeps instructions in its config, not in the stream.',
          line,
        );
        break;
      case 'session.compaction_complete':
        out.note(
          'copilot-cli/compaction',
          "Copilot compacted the conversation here; the events before are imported as they were, and Copilot's summary is skipped.",
          line,
        );
        break;
      default:
        if (value.type === 'session.start') version ??= getString(data, 'copilotVersion');
        out.note(
          `copilot-cli/${value.type}`,
          `"${value.type}" events (session, turn, permission and usage bookkeeping) are not messages; skipped.`,
          line,
        );
    }
  }
  return out.finish();
}

function badCall(line: number, out: StreamBuilder): void {
  out.skipItem(line, 'copilot-cli/bad-call', `a tool event without a string "toolCallId" and name`);
}

function importAssistant(
  data: JsonObject,
  time: JsonValue | undefined,
  line: number,
  out: StreamBuilder,
): void {
  const reasoning = getString(data, 'reasoningText');
  if (reasoning !== undefined && reasoning !== '') out.reasoning(reasoning, time, line);
  if (typeof data.reasoningOpaque === 'string' || typeof data.encryptedContent === 'string') {
    out.note(
      'copilot-cli/encrypted-reasoning',
      'Encrypted reasoning (reasoningOpaque, encryptedContent) has no text; skipped.',
      line,
    );
  }
  const content = getString(data, 'content') ?? '';
  if (content !== '') out.message(content, time, line);
  for (const request of getArray(data, 'toolRequests')) {
    if (!isJsonObject(request)) continue;
    const id = getString(request, 'toolCallId');
    const name = getString(request, 'name');
    if (id === undefined || name === undefined) {
      badCall(line, out);
      continue;
    }
    out.toolCall(id, name, toArguments(request.arguments).args, time, line);
  }
  if (typeof data.outputTokens === 'number') {
    out.note(
      'copilot-cli/output-tokens-only',
      'Copilot records only output tokens per response (input and cache totals once per model at shutdown), so no per-response usage is kept.',
      line,
    );
  }
}
