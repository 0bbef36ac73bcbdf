/**
 * OpenCode session exports (`opencode export <session>`): `{info, messages:
 * [{info, parts}]}`, where an assistant message's parts are its reasoning,
 * text and tool calls (each tool part holds its call and its state).
 * Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder } from './builder.ts';
import type { JsonDocument } from './source.ts';
import type { ImportResult } from './types.ts';

/** Whether a JSON document is an OpenCode export; the reason when not. */
export function sniffOpenCode(value: JsonValue): string | undefined {
  if (!isJsonObject(value)) return 'it is not a JSON object';
  if (!isJsonObject(value.info) || !Array.isArray(value.messages))
    return 'it has no "info" and "messages"';
  const bad = value.messages.find(
    (m) => !isJsonObject(m) || !isJsonObject(m.info) || !Array.isArray(m.parts),
  );
  if (bad !== undefined) return 'a message is not {"info", "parts"}';
  return undefined;
}

/** Imports an OpenCode session export. */
export function importOpenCode(document: JsonDocument): ImportResult {
  const out = new StreamBuilder('opencode');
  const root = document.value;
  for (const message of isJsonObject(root) ? getArray(root, 'messages') : []) {
    if (!isJsonObject(message) || !isJsonObject(message.info)) continue;
    const info = message.info;
    const created = isJsonObject(info.time) ? info.time.created : undefined;
    const role = info.role;
    let opened = false;
    for (const item of getArray(message, 'parts')) {
      if (!isJsonObject(item)) continue;
      const part = item;
      const line = document.lineOf(part);
      const start = isJsonObject(part.time) ? part.time.start : undefined;
      const time = start ?? created;
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
        case 'step-finish':
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
    out.error({
      line: line ?? 1,
      column: 1,
      severity: 'error',
      message: `${line === undefined ? 'A' : `Line ${line}: a`} tool part without a string "callID" and "tool" is skipped.`,
      code: 'opencode/bad-tool',
    });
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
      getString(state, 'output') ?? '',
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
