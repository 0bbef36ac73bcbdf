/**
 * OpenCode session exports (`opencode export <session>`): `{info, messages:
 * [{info, parts}]}`, where an assistant message's parts are its reasoning,
 * text and tool calls (each tool part holds its call and its state).
 * OpenCode 2.0 names the two `session_v2` and `session_message`, may write a
 * message's fields beside its parts instead of under `info`, and puts a
 * tool's output in `state.content` blocks instead of `state.output`.
 * Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder } from './builder.ts';
import { createSplitUsage, type RecordedBy, ResponseUsageTracker } from './recorded-usage.ts';
import type { JsonDocument } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

/** The session and its messages, under 1.x's names or 2.0's. */
function readExport(value: JsonObject): {
  session: JsonValue | undefined;
  messages: JsonValue | undefined;
} {
  return 'session_v2' in value
    ? { session: value.session_v2, messages: value.session_message ?? value.messages }
    : { session: value.info, messages: value.messages };
}

/** A message's own fields: under `info` (1.x), or beside its parts (2.0). */
function messageInfo(message: JsonObject): JsonObject | undefined {
  if (isJsonObject(message.info)) return message.info;
  return typeof message.role === 'string' ? message : undefined;
}

/** Whether a JSON document is an OpenCode export; the reason when not. */
export function sniffOpenCode(value: JsonValue): Sniffed {
  if (!isJsonObject(value)) return misfit('it is not a JSON object');
  const { session, messages } = readExport(value);
  if (!isJsonObject(session) || !Array.isArray(messages))
    return misfit(
      'it has no "info" and "messages" (or OpenCode 2.0\'s "session_v2" and "session_message")',
    );
  const bad = messages.find(
    (m) => !isJsonObject(m) || messageInfo(m) === undefined || !Array.isArray(m.parts),
  );
  if (bad !== undefined) return misfit('a message is not {"info", "parts"}');
  return fits(
    'session_v2' in value
      ? 'it has OpenCode 2.0\'s "session_v2", and every message has "parts"'
      : 'it has "info" and "messages", every message {"info", "parts"}',
  );
}

/** Imports an OpenCode session export. */
export function importOpenCode(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('opencode');
  const root = document.value;
  const runtime: RecordedBy = { runtime: 'opencode' };
  if (isJsonObject(root)) {
    const { session } = readExport(root);
    if (isJsonObject(session)) runtime.version = getString(session, 'version');
  }
  const tracker = new ResponseUsageTracker(out.elements, () => ({ ...runtime }));
  const { messages } = isJsonObject(root) ? readExport(root) : { messages: undefined };
  for (const message of Array.isArray(messages) ? messages : []) {
    const info = isJsonObject(message) ? messageInfo(message) : undefined;
    if (!isJsonObject(message) || info === undefined) continue;
    const created = isJsonObject(info.time) ? info.time.created : undefined;
    const role = info.role;
    if (role === 'assistant') {
      // The model a message came from: its own fields, or a `model` object as user messages hold it.
      const model = isJsonObject(info.model) ? info.model : info;
      runtime.model = getString(info, 'modelID') ?? getString(model, 'modelID');
      runtime.provider = getString(info, 'providerID') ?? getString(model, 'providerID');
    }
    let opened = false;
    for (const item of getArray(message, 'parts')) {
      if (!isJsonObject(item)) continue;
      const part = item;
      const line = document.lineOf(part);
      const start = isJsonObject(part.time) ? part.time.start : undefined;
      const time = start ?? created;
      if (role === 'user') tracker.endOutput();
      else tracker.beginOutput();
      switch (part.type) {
        case 'text': {
          const text = getString(part, 'text') ?? '';
          if (role === 'user') {
            if (opened) out.userText(text, time, line);
            else out.userMessage(text, time, line);
            opened = true;
          } else {
            out.message(text, time, line);
          }
          break;
        }
        case 'reasoning':
          out.reasoning(getString(part, 'text') ?? '', time, line);
          break;
        case 'tool':
          importTool(part, created, line, out);
          break;
        case 'step-start':
          // Each step is one call to the model: its usage is on its step-finish.
          tracker.endOutput();
          tracker.beginOutput();
          out.note(
            'opencode/step-start',
            '"step-start" parts are OpenCode\'s bookkeeping (steps, token counts, file snapshots), not messages; skipped.',
            line,
          );
          break;
        case 'step-finish':
          keepStepUsage(part, tracker, line, out);
          break;
        case 'snapshot':
        case 'patch':
          out.note(
            `opencode/${part.type}`,
            `"${part.type}" parts are OpenCode's bookkeeping (steps, token counts, file snapshots), not messages; skipped.`,
            line,
          );
          break;
        default:
          out.note(
            `opencode/part-${String(part.type)}`,
            `Parts of the type "${String(part.type)}" (files, agents, compaction markers) have no JP event; skipped.`,
            line,
          );
      }
    }
  }
  tracker.finish();
  return out.finish();
}

function importTool(
  part: JsonObject,
  created: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
) {
  const id = getString(part, 'callID');
  const name = getString(part, 'tool');
  const state = isJsonObject(part.state) ? part.state : {};
  if (id === undefined || name === undefined) {
    out.skipItem(line, 'opencode/bad-tool', `a tool part without a string "callID" and "tool"`);
    return;
  }
  const times = isJsonObject(state.time) ? state.time : {};
  out.toolCall(
    id,
    name,
    isJsonObject(state.input) ? state.input : {},
    times.start ?? created,
    line,
  );
  if (times.compacted !== undefined) {
    out.note(
      'opencode/compacted',
      'Tool results OpenCode pruned from its context (time.compacted) are imported as they were before the prune, so the playground can decide about them itself.',
      line,
    );
  }
  if (state.status === 'completed') {
    out.toolResult(
      id,
      toolOutput(state, line, out),
      false,
      times.end ?? times.start ?? created,
      line,
    );
  } else if (state.status === 'error') {
    out.toolResult(
      id,
      getString(state, 'error') ?? '',
      true,
      times.end ?? times.start ?? created,
      line,
    );
  } else {
    out.note(
      'opencode/unfinished-tool',
      'Tool calls still pending or running when the session was exported have only their request; sanitize answers them as interrupted.',
      line,
    );
  }
}

/** A completed tool's output: `state.output` (1.x), or the text of `state.content` blocks (2.0). */
function toolOutput(state: JsonObject, line: number | undefined, out: StreamBuilder): string {
  const output = getString(state, 'output');
  if (output !== undefined || !Array.isArray(state.content)) return output ?? '';
  return joinTextParts(state.content, ['text'], () =>
    out.note(
      'opencode/non-text-output',
      'Tool output blocks that are not text (images, files) have no text to count; left out.',
      line,
    ),
  );
}

/**
 * A step's usage, from its step-finish part: OpenCode's `input` leaves out
 * the cache reads and writes, and `output` the reasoning.
 */
function keepStepUsage(
  part: JsonObject,
  tracker: ResponseUsageTracker,
  line: number | undefined,
  out: StreamBuilder,
): void {
  out.note(
    'opencode/step-finish',
    '"step-finish" parts are OpenCode\'s bookkeeping (steps, token counts, file snapshots), not messages; their token counts are kept as the step\'s recorded usage.',
    line,
  );
  const tokens = isJsonObject(part.tokens) ? part.tokens : undefined;
  if (tokens === undefined) return;
  const cache = isJsonObject(tokens.cache) ? tokens.cache : {};
  const usage = createSplitUsage({
    uncached: tokens.input,
    read: cache.read,
    write: cache.write,
    output: tokens.output,
    reasoning: tokens.reasoning ?? 0,
    reasoningApart: true,
  });
  if (usage === undefined || !tracker.attach(usage)) {
    out.note(
      'opencode/usage-not-kept',
      'Step token counts that are not whole numbers, or of a step with nothing imported, are not kept.',
      line,
    );
  }
}
