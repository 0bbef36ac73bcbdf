/**
 * Kimi Code wire journals (`~/.kimi-code/sessions/…/agents/<agent>/wire.jsonl`):
 * a `{type: "metadata", protocol_version, created_at}` line, then flat
 * operations `{type, …, time}` (epoch milliseconds). The conversation is in
 * `context.append_message` (user turns) and `context.append_loop_event`
 * (`content.part`, `tool.call`, `tool.result`, `step.begin`, `step.end`);
 * each step is one call to the model, its usage on `step.end`.
 * Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getString, StreamBuilder, toArguments } from './builder.ts';
import { createSplitUsage, type RecordedBy, ResponseUsageTracker } from './recorded-usage.ts';
import type { JsonLine } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** Whether parsed lines are a Kimi Code wire journal; the reason when not. */
export function sniffKimiCode(lines: readonly JsonLine[]): Sniffed {
  const first = lines[0]?.value;
  if (
    !isJsonObject(first) ||
    first.type !== 'metadata' ||
    typeof first.protocol_version !== 'string'
  ) {
    return misfit('line 1 is not a {"type": "metadata", "protocol_version"} line');
  }
  for (const { line, value } of lines.slice(1)) {
    if (!isJsonObject(value) || typeof value.type !== 'string' || !value.type.includes('.'))
      return misfit(`line ${line} is not a {"type": "<kind>.<operation>"} operation`);
  }
  return fits('line 1 is a {"type": "metadata", "protocol_version"} line');
}

/** Imports a Kimi Code wire journal. */
export function importKimiCode(lines: readonly JsonLine[]): ImportResult {
  const out = new StreamBuilder('kimi-code');
  // Each step's model and provider are on the llm.request written before it.
  const runtime: RecordedBy = { runtime: 'kimi-code' };
  const tracker = new ResponseUsageTracker(out.elements, () => ({ ...runtime }));
  for (const { line, value } of lines) {
    if (!isJsonObject(value) || typeof value.type !== 'string') continue;
    const time = value.time;
    if (value.type === 'llm.request') {
      runtime.model = getString(value, 'model') ?? runtime.model;
      runtime.provider = getString(value, 'provider') ?? runtime.provider;
      tracker.describeOpen();
    }
    if (value.type === 'context.append_message' && isJsonObject(value.message)) {
      const message = value.message;
      if (message.role === 'user') {
        tracker.endOutput();
        out.userMessage(partsText(message.content, line, out), time, line);
      } else {
        out.note(
          'kimi-code/append-message',
          'Appended messages other than user turns are also loop events; skipped here.',
          line,
        );
      }
    } else if (value.type === 'context.append_loop_event' && isJsonObject(value.event)) {
      importLoopEvent(value.event, time, line, out, tracker);
    } else {
      out.note(
        `kimi-code/${value.type}`,
        `"${value.type}" operations (configuration, prompts as typed, requests, usage repeated from step.end, permissions, turn bookkeeping) are not messages; skipped.`,
        line,
      );
    }
  }
  tracker.finish();
  return out.finish();
}

function partsText(content: JsonValue | undefined, line: number, out: StreamBuilder): string {
  return joinTextParts(content, ['text'], () =>
    out.note('kimi-code/non-text-part', 'Non-text parts (images) are left out.', line),
  );
}

function importLoopEvent(
  event: JsonObject,
  time: JsonValue | undefined,
  line: number,
  out: StreamBuilder,
  tracker: ResponseUsageTracker,
): void {
  switch (event.type) {
    case 'step.begin':
      tracker.endOutput();
      tracker.beginOutput();
      return;
    case 'step.end': {
      const usage = isJsonObject(event.usage) ? event.usage : undefined;
      if (usage === undefined) return;
      const recorded = createSplitUsage({
        uncached: usage.inputOther,
        read: usage.inputCacheRead,
        write: usage.inputCacheCreation,
        output: usage.output,
      });
      if (recorded === undefined || !tracker.attach(recorded)) {
        out.note(
          'kimi-code/usage-not-kept',
          'Step usage that is not whole token counts, or of a step with nothing imported (a cancelled turn), is not kept.',
          line,
        );
      }
      return;
    }
    case 'content.part': {
      const part = isJsonObject(event.part) ? event.part : {};
      tracker.beginOutput();
      if (part.type === 'text' && typeof part.text === 'string') out.message(part.text, time, line);
      else if (part.type === 'think' && typeof part.think === 'string')
        out.reasoning(part.think, time, line);
      else out.note('kimi-code/non-text-part', 'Non-text parts (images) are left out.', line);
      return;
    }
    case 'tool.call': {
      const id = getString(event, 'toolCallId');
      const name = getString(event, 'name');
      if (id === undefined || name === undefined) {
        out.skipItem(
          line,
          'kimi-code/bad-call',
          `a tool.call without a string "toolCallId" and "name"`,
        );
        return;
      }
      tracker.beginOutput();
      out.toolCall(id, name, toArguments(event.args).args, time, line);
      return;
    }
    case 'tool.result': {
      const id = getString(event, 'toolCallId');
      if (id === undefined) {
        out.skipItem(line, 'kimi-code/bad-result', `a tool.result without a string "toolCallId"`);
        return;
      }
      const result = isJsonObject(event.result) ? event.result : {};
      const output = result.output;
      const text = typeof output === 'string' ? output : JSON.stringify(output ?? result);
      out.toolResult(id, text, result.isError === true || result.is_error === true, time, line);
      return;
    }
    default:
      out.note(
        `kimi-code/event-${String(event.type)}`,
        `Loop events of the type "${String(event.type)}" have no JP event; skipped.`,
        line,
      );
  }
}
