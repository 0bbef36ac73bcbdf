/**
 * Claude Code sessions (`~/.claude/projects/<dir>/<session>.jsonl`): one JSON
 * object per line. Message lines (`user`, `assistant`) link by `parentUuid`;
 * assistant lines that share `message.id` are one API response split into
 * several lines. Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { getArray, getString, StreamBuilder } from './builder.ts';
import { type JsonLine, type JsonLines, readJsonLines } from './source.ts';
import type { ImportResult } from './types.ts';

/** Line types that are Claude Code's bookkeeping, never sent to the model as such. */
const BOOKKEEPING = new Set([
  'attachment',
  'ai-title',
  'custom-title',
  'last-prompt',
  'queue-operation',
  'frame-link',
  'file-history-snapshot',
  'progress',
  'summary',
  'tag',
  'agent-name',
]);

const MESSAGE_TYPES = new Set(['user', 'assistant', 'system']);

/** Whether parsed lines look like a Claude Code session; the reason when not. */
export function sniffClaudeCode(lines: readonly JsonLine[]): string | undefined {
  for (const { line, value } of lines) {
    if (!isJsonObject(value)) return `line ${line} is not a JSON object`;
    const type = getString(value, 'type');
    if (type === 'user' || type === 'assistant') {
      if (
        isJsonObject(value.message) &&
        (typeof value.uuid === 'string' || 'parentUuid' in value)
      ) {
        return undefined;
      }
      return `line ${line} is a "${type}" line without "message" and "uuid"`;
    }
    if (type === undefined || (!BOOKKEEPING.has(type) && type !== 'system')) {
      return `line ${line} has ${type === undefined ? 'no "type"' : `the type "${type}"`}, not a Claude Code line type`;
    }
  }
  return 'no line is a "user" or "assistant" message';
}

interface Entry {
  record: JsonLine;
  value: JsonObject;
}

/** Imports a Claude Code session. */
export function importClaudeCode(
  text: string,
  onProgress?: (share: number) => void,
  read: JsonLines = readJsonLines(text, onProgress),
): ImportResult {
  const out = new StreamBuilder('claude-code');
  for (const diagnostic of read.diagnostics) out.error(diagnostic);

  const entries: Entry[] = [];
  for (const record of read.lines) {
    if (!isJsonObject(record.value)) {
      out.error({
        line: record.line,
        column: 1,
        severity: 'error',
        message: `Line ${record.line} is not a JSON object, so it is skipped.`,
        code: 'claude-code/not-object',
      });
      continue;
    }
    entries.push({ record, value: record.value });
  }

  const included = selectActiveBranch(entries, out);

  // Assistant lines with one message.id are one response: emitted together, at the first.
  const byMessageId = new Map<string, Entry[]>();
  for (const entry of included) {
    const id = messageId(entry.value);
    if (entry.value.type === 'assistant' && id !== undefined) {
      const group = byMessageId.get(id);
      if (group) group.push(entry);
      else byMessageId.set(id, [entry]);
    }
  }

  for (const entry of included) {
    const { value, record } = entry;
    const type = getString(value, 'type');
    if (type === 'system') {
      if (value.subtype === 'compact_boundary') {
        out.note(
          'claude-code/compact-boundary',
          "Claude Code compacted this conversation here (compact_boundary); it is imported as it was before, in full, so the playground's figures start from the whole history.",
          record.line,
        );
      } else {
        out.note(
          'claude-code/system',
          'System lines (Claude Code status messages such as hook output or API errors) are not part of what the model is sent; skipped.',
          record.line,
        );
      }
      continue;
    }
    if (type === 'assistant') {
      const id = messageId(value);
      const group = id === undefined ? [entry] : (byMessageId.get(id) ?? [entry]);
      if (group[0] !== entry) continue;
      emitAssistant(group, out);
      continue;
    }
    emitUser(entry, out);
  }
  return out.finish();
}

function messageId(value: JsonObject): string | undefined {
  return isJsonObject(value.message) ? getString(value.message, 'id') : undefined;
}

/**
 * The lines of the conversation as the user last saw it: walk `parentUuid`
 * back from the last main-chain line (across a compact boundary by its
 * `logicalParentUuid`). Lines off that path are a rewound or edited branch,
 * except tool results whose call is on it and split lines of a response on
 * it, which Claude Code may link to a sibling. Sidechains (subagent lines
 * inside the session), meta lines and bookkeeping are noted and skipped.
 */
function selectActiveBranch(entries: readonly Entry[], out: StreamBuilder): Entry[] {
  const byUuid = new Map<string, Entry>();
  const candidates: Entry[] = [];
  // A subagent's own file (`<session>/subagents/agent-*.jsonl`) is all sidechain: it is the conversation.
  const isSubagent = !entries.some(
    ({ value }) =>
      (value.type === 'user' || value.type === 'assistant') && value.isSidechain !== true,
  );
  if (isSubagent && entries.some(({ value }) => value.isSidechain === true)) {
    out.note(
      'claude-code/subagent',
      "Every message of this file is a sidechain: it is a subagent's conversation, imported as a conversation of its own.",
      entries[0]?.record.line,
    );
  }
  for (const entry of entries) {
    const { value, record } = entry;
    const type = getString(value, 'type') ?? '';
    const uuid = getString(value, 'uuid');
    const sidechain = value.isSidechain === true && !isSubagent;
    if (uuid !== undefined && !sidechain) byUuid.set(uuid, entry);
    if (sidechain) {
      out.note(
        'claude-code/sidechain',
        'Sidechain lines (a subagent\'s own conversation inside the session file) are skipped; the parent keeps the subagent\'s call and result. Subagents saved in "<session>/subagents/" import as conversations of their own.',
        record.line,
      );
      continue;
    }
    if (BOOKKEEPING.has(type)) {
      out.note(
        `claude-code/${type}`,
        `"${type}" lines are Claude Code's bookkeeping (titles, queued prompts, attachments it lists for itself), not messages; skipped.`,
        record.line,
      );
      continue;
    }
    if (!MESSAGE_TYPES.has(type)) {
      out.note(
        `claude-code/unknown-${type}`,
        `Lines of the unknown type "${type}" are skipped.`,
        record.line,
      );
      continue;
    }
    if (value.isMeta === true) {
      out.note(
        'claude-code/meta',
        'Meta lines (text Claude Code adds for itself, such as command caveats) are skipped.',
        record.line,
      );
      continue;
    }
    if (value.isCompactSummary === true) {
      out.note(
        'claude-code/compact-summary',
        "The summary Claude Code wrote when it compacted the conversation is skipped: the history before it is imported instead, so the playground's compaction starts from the whole conversation.",
        record.line,
      );
      continue;
    }
    candidates.push(entry);
  }

  const last = [...candidates].reverse().find((entry) => getString(entry.value, 'uuid'));
  if (!last) return candidates;
  const onPath = new Set<Entry>();
  let cursor: Entry | undefined = last;
  while (cursor && !onPath.has(cursor)) {
    onPath.add(cursor);
    const parent: string | undefined =
      getString(cursor.value, 'parentUuid') ?? getString(cursor.value, 'logicalParentUuid');
    cursor = parent === undefined ? undefined : byUuid.get(parent);
  }

  const callIds = new Set<string>();
  const responseIds = new Set<string>();
  for (const entry of candidates) {
    if (!onPath.has(entry) || entry.value.type !== 'assistant') continue;
    const id = messageId(entry.value);
    if (id !== undefined) responseIds.add(id);
    for (const block of contentBlocks(entry.value)) {
      if (block.type === 'tool_use' && typeof block.id === 'string') callIds.add(block.id);
    }
  }
  return candidates.filter((entry) => {
    if (onPath.has(entry) || getString(entry.value, 'uuid') === undefined) return true;
    const id = messageId(entry.value);
    if (entry.value.type === 'assistant' && id !== undefined && responseIds.has(id)) return true;
    const blocks = contentBlocks(entry.value);
    if (
      entry.value.type === 'user' &&
      blocks.length > 0 &&
      blocks.every((b) => b.type === 'tool_result' && callIds.has(String(b.tool_use_id)))
    ) {
      return true;
    }
    out.note(
      'claude-code/branch',
      'Lines off the conversation\'s last branch (messages the user rewound or edited, following "parentUuid") are skipped.',
      entry.record.line,
    );
    return false;
  });
}

function contentBlocks(value: JsonObject): JsonObject[] {
  if (!isJsonObject(value.message)) return [];
  return getArray(value.message, 'content').filter(isJsonObject);
}

function emitAssistant(group: readonly Entry[], out: StreamBuilder): void {
  const seenCalls = new Set<string>();
  const seenText = new Set<string>();
  for (const { value, record } of group) {
    const time = value.timestamp;
    const message = isJsonObject(value.message) ? value.message : {};
    const content = message.content;
    if (typeof content === 'string') {
      out.message(content, time, record.line);
      continue;
    }
    for (const item of Array.isArray(content) ? content : []) {
      if (!isJsonObject(item)) continue;
      const block = item;
      switch (block.type) {
        case 'text': {
          const text = getString(block, 'text') ?? '';
          const key = `text:${text}`;
          if (seenText.has(key)) {
            out.note(
              'claude-code/repeated-block',
              'Blocks repeated in later lines of the same response (same message.id) are counted once.',
              record.line,
            );
            break;
          }
          seenText.add(key);
          out.message(text, time, record.line);
          break;
        }
        case 'thinking': {
          const text = getString(block, 'thinking') ?? '';
          const signature = getString(block, 'signature');
          if (text === '') {
            out.note(
              'claude-code/signature-only-thinking',
              'Thinking blocks that carry only a signature (Claude Code does not store their text) have nothing to count; skipped.',
              record.line,
            );
            break;
          }
          const key = `thinking:${text}`;
          if (seenText.has(key)) break;
          seenText.add(key);
          out.reasoning(
            text,
            time,
            record.line,
            signature ? { anthropic_signature: signature } : undefined,
          );
          break;
        }
        case 'redacted_thinking':
          out.note(
            'claude-code/redacted-thinking',
            'Redacted thinking blocks hold encrypted data, no text; skipped.',
            record.line,
          );
          break;
        case 'tool_use': {
          const id = getString(block, 'id');
          const name = getString(block, 'name');
          if (id === undefined || name === undefined) {
            out.error({
              line: record.line,
              column: 1,
              severity: 'error',
              message: `Line ${record.line}: a tool_use block without a string "id" and "name" is skipped.`,
              code: 'claude-code/bad-tool-use',
            });
            break;
          }
          if (seenCalls.has(id)) {
            out.note(
              'claude-code/repeated-block',
              'Blocks repeated in later lines of the same response (same message.id) are counted once.',
              record.line,
            );
            break;
          }
          seenCalls.add(id);
          out.toolCall(id, name, isJsonObject(block.input) ? block.input : {}, time, record.line);
          break;
        }
        default:
          out.note(
            `claude-code/block-${String(block.type)}`,
            `Assistant blocks of the type "${String(block.type)}" (server tools, images and the like) have no JP event; skipped.`,
            record.line,
          );
      }
    }
  }
}

function emitUser({ value, record }: Entry, out: StreamBuilder): void {
  const time = value.timestamp;
  const message = isJsonObject(value.message) ? value.message : {};
  const content = message.content;
  if (typeof content === 'string') {
    out.userMessage(content, time, record.line);
    return;
  }
  let opened = false;
  for (const item of Array.isArray(content) ? content : []) {
    if (!isJsonObject(item)) continue;
    if (item.type === 'tool_result') {
      const id = getString(item, 'tool_use_id');
      if (id === undefined) {
        out.error({
          line: record.line,
          column: 1,
          severity: 'error',
          message: `Line ${record.line}: a tool_result block without a string "tool_use_id" is skipped.`,
          code: 'claude-code/bad-tool-result',
        });
        continue;
      }
      const text = resultText(item.content, record.line, out);
      out.toolResult(id, text, item.is_error === true, time, record.line);
    } else if (item.type === 'text') {
      const text = getString(item, 'text') ?? '';
      if (opened) out.userText(text, time, record.line);
      else out.userMessage(text, time, record.line);
      opened = true;
    } else {
      out.note(
        `claude-code/user-${String(item.type)}`,
        `User blocks of the type "${String(item.type)}" (images, documents) have no text to count; skipped.`,
        record.line,
      );
    }
  }
}

/** A tool result's text: a string, or its text blocks joined (images noted). */
export function resultText(
  content: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) {
    if (isJsonObject(part) && part.type === 'text' && typeof part.text === 'string') {
      parts.push(part.text);
    } else {
      out.note(
        'import/result-non-text',
        'Non-text parts of tool results (images, documents) have no text to count; left out of the result.',
        line,
      );
    }
  }
  return parts.join('\n');
}
