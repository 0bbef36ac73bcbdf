/**
 * Pi coding agent sessions (`~/.pi/agent/sessions/…/<date>_<uuid>.jsonl`),
 * version 3: a `{type: "session", version: 3, id, timestamp, cwd}` header,
 * then entries `{type, id, parentId, timestamp}`. Conversation is in
 * `message` entries: assistant `content[]` with `text`, `thinking` and
 * `toolCall` blocks, and `role: "toolResult"` messages. OpenClaw writes the
 * same format (openclaw.ts tells the two apart); this module reads both.
 * Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import {
  getArray,
  getString,
  type SourceCall,
  SourceCallTally,
  StreamBuilder,
  toArguments,
} from './builder.ts';
import { attachRecordedByAt, attachUsageAt, createSplitUsage } from './recorded-usage.ts';
import { dropRepeatedLines } from './repeated-lines.ts';
import type { JsonLine } from './source.ts';
import { joinTextParts } from './text-parts.ts';
import { fits, type ImportFormat, type ImportResult, misfit, type Sniffed } from './types.ts';

/** Whether parsed lines are a Pi-format (version 3) session; the reason when not. */
export function sniffPiSession(lines: readonly JsonLine[]): Sniffed {
  const first = lines[0];
  if (first === undefined) return misfit('the file has no lines');
  const header = first.value;
  if (
    !isJsonObject(header) ||
    header.type !== 'session' ||
    typeof header.version !== 'number' ||
    typeof header.id !== 'string'
  ) {
    return misfit('line 1 is not a {"type": "session", "version", "id"} header');
  }
  for (const { line, value } of lines.slice(1)) {
    if (!isJsonObject(value) || typeof value.type !== 'string' || typeof value.id !== 'string')
      return misfit(`line ${line} is not a {"type", "id", "parentId"} entry`);
  }
  return fits('line 1 is a {"type": "session", "version", "id"} header');
}

/** Imports a Pi-format session as `format` (Pi, or OpenClaw which writes the same lines). */
export function importPiSession(lines: readonly JsonLine[], format: ImportFormat): ImportResult {
  const out = new StreamBuilder(format);
  const code = (kind: string) => `${format}/${kind}`;
  const session: SessionFacts = { subagent: false, prompts: 0 };
  // Every entry has its own id: an identical entry again is the same entry written twice.
  const once = dropRepeatedLines(lines, out, (value) => isJsonObject(value) && 'id' in value);
  for (const { line, value } of selectLiveBranch(once, out, code('branch'))) {
    if (!isJsonObject(value) || typeof value.type !== 'string') {
      out.error({
        line,
        column: 1,
        severity: 'error',
        message: `Line ${line} is not a {"type"} entry, so it is skipped.`,
        code: code('bad-line'),
      });
      continue;
    }
    if (value.type === 'message' && isJsonObject(value.message)) {
      importMessage(value.message, value.timestamp, line, out, code, session);
    } else if (value.type === 'compaction') {
      out.note(
        code('compaction'),
        'The agent compacted the session here; the entries before are imported as they were, and its summary is skipped.',
        line,
      );
    } else if (value.type === 'branch_summary') {
      out.note(
        code('branch-summary'),
        'Pi summarised the branch the user left with /tree here (branch_summary) and sends that summary as context; the summary is skipped, the branch left out.',
        line,
      );
    } else {
      const kind = value.type;
      out.note(
        code(kind),
        `"${kind}" entries (session header, model and thinking changes, labels, the agent's own records) are not messages; skipped.`,
        line,
      );
    }
  }
  return out.finish();
}

/** An entry of the session's tree: its line, id and parent. */
interface TreeEntry {
  record: JsonLine;
  id: string;
  parentId: string | undefined;
}

/**
 * The lines of the session's live branch, in file order, as Pi reads it
 * back: the path from the last entry through `parentId` to the root (its
 * `buildSessionContext`). Entries on other branches (one the user left
 * with `/tree`, or rewound) are left out, each counted in a note with the
 * calls it holds. A parent that is missing (a line that did not read) or
 * already on the path is a gap: the walk goes on from the nearest entry
 * before in the file, so the history before it is kept. Where no entry
 * names a parent, the file's order is the conversation. The header and
 * lines without a string id are no part of the tree: kept.
 */
function selectLiveBranch(
  lines: readonly JsonLine[],
  out: StreamBuilder,
  branchCode: string,
): JsonLine[] {
  const entries: TreeEntry[] = [];
  for (const record of lines) {
    const value = record.value;
    if (!isJsonObject(value) || value.type === 'session' || typeof value.id !== 'string') continue;
    const parentId = typeof value.parentId === 'string' ? value.parentId : undefined;
    entries.push({ record, id: value.id, parentId });
  }
  const leaf = entries.at(-1);
  if (leaf === undefined || entries.every((entry) => entry.parentId === undefined)) {
    return [...lines];
  }
  // An id written twice with other content: the later entry, as Pi's index keeps it.
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const position = new Map(entries.map((entry, index) => [entry, index]));
  const onPath = new Set<TreeEntry>();
  let cursor: TreeEntry | undefined = leaf;
  while (cursor !== undefined) {
    onPath.add(cursor);
    if (cursor.parentId === undefined) break;
    const parent = byId.get(cursor.parentId);
    if (parent !== undefined && !onPath.has(parent)) {
      cursor = parent;
      continue;
    }
    // A gap: the entry before in the file stands in for the missing parent.
    let index: number = (position.get(cursor) ?? 0) - 1;
    while (index >= 0 && onPath.has(entries[index] as TreeEntry)) index--;
    if (index >= 0) {
      out.note(
        `${out.format}/gap`,
        'Entries whose parent is missing (a line that did not read) or already on the branch continue from the entry before them in the file, so the history before a gap is kept.',
        cursor.record.line,
      );
    }
    cursor = index >= 0 ? entries[index] : undefined;
  }
  const offPath = new Set(entries.filter((entry) => !onPath.has(entry)).map((e) => e.record));
  if (offPath.size === 0) return [...lines];
  const kept = new SourceCallTally();
  for (const entry of onPath) for (const call of callsOf(entry.record.value)) kept.add(call);
  return lines.filter((record) => {
    if (!offPath.has(record)) return true;
    let calls = 0;
    for (const { id, ...call } of callsOf(record.value)) {
      if (!kept.has({ id, ...call }) && out.sourceCall(id, call)) calls++;
    }
    out.note(
      branchCode,
      "Entries off the session's live branch (the path from its last entry back through parentId, which Pi sends: a branch the user left with /tree, or rewound) are left out, with the tool calls they hold.",
      record.line,
      calls,
    );
    return false;
  });
}

/** The tool calls of an assistant message entry, as the repeat rule sees them. */
function callsOf(value: JsonValue): SourceCall[] {
  const message = isJsonObject(value) && isJsonObject(value.message) ? value.message : undefined;
  if (message?.role !== 'assistant') return [];
  return getArray(message, 'content').flatMap((block) => {
    if (!isJsonObject(block) || block.type !== 'toolCall') return [];
    const id = getString(block, 'id');
    const name = getString(block, 'name');
    if (id === undefined || name === undefined) return [];
    return [{ id, name, args: toArguments(block.arguments).args }];
  });
}

/** What a session's messages tell of it as a whole. */
interface SessionFacts {
  /** OpenClaw runs this session as a subagent (its first prompt says so). */
  subagent: boolean;
  prompts: number;
  /** The text of the last assistant message, which OpenClaw's run summary repeats. */
  lastReply?: string;
}

/** An assistant message's text blocks, joined. */
function assistantText(message: JsonObject): string {
  return getArray(message, 'content')
    .filter(isJsonObject)
    .filter((block) => block.type === 'text')
    .map((block) => getString(block, 'text') ?? '')
    .join('\n');
}

/** How OpenClaw opens a subagent's first prompt (its own wording, `sessions_spawn`). */
const SUBAGENT_MARK = '[Subagent Context]';

function importMessage(
  message: JsonObject,
  entryTime: JsonValue | undefined,
  line: number,
  out: StreamBuilder,
  code: (kind: string) => string,
  session: SessionFacts,
): void {
  // The entry's ISO time; the message's epoch milliseconds when the entry has none.
  const time = entryTime ?? message.timestamp;
  switch (message.role) {
    case 'user': {
      const text = joinTextParts(message.content, ['text'], () =>
        out.note(code('non-text-part'), 'Non-text parts (images) are left out.', line),
      );
      // A subagent has its own, shorter system prompt: the replay's defaults differ.
      if (session.prompts === 0 && text.trimStart().startsWith(SUBAGENT_MARK)) {
        session.subagent = true;
      }
      session.prompts++;
      out.userMessage(text, time, line);
      return;
    }
    case 'assistant': {
      const text = assistantText(message);
      // OpenClaw's run summary repeats the final reply: no response of its own was sent.
      if (message.api === 'cli' && text !== '' && text === session.lastReply) {
        out.note(
          code('run-summary'),
          'An assistant message with api "cli" repeats the final reply with the whole run\'s summed usage: no request of its own; skipped.',
          line,
        );
        return;
      }
      session.lastReply = text;
      const first = out.elements.length;
      for (const block of getArray(message, 'content')) {
        if (!isJsonObject(block)) continue;
        if (block.type === 'text') {
          const text = getString(block, 'text') ?? '';
          if (text !== '') out.message(text, time, line);
        } else if (block.type === 'thinking') {
          const text = getString(block, 'thinking') ?? '';
          if (text !== '') out.reasoning(text, time, line);
          else out.note(code('empty-thinking'), 'Thinking blocks with no text are skipped.', line);
        } else if (block.type === 'toolCall') {
          const id = getString(block, 'id');
          const name = getString(block, 'name');
          if (id === undefined || name === undefined) {
            out.error({
              line,
              column: 1,
              severity: 'error',
              message: `Line ${line}: a toolCall block without a string "id" and "name" is skipped.`,
              code: code('bad-call'),
            });
            continue;
          }
          out.toolCall(id, name, toArguments(block.arguments).args, time, line);
        } else {
          out.note(
            code(`block-${String(block.type)}`),
            `Assistant blocks of the type "${String(block.type)}" have no JP event; skipped.`,
            line,
          );
        }
      }
      keepUsage(message, first, line, out, code);
      attachRecordedByAt(out, first, {
        runtime: out.format,
        model: getString(message, 'model'),
        provider: getString(message, 'provider'),
        ...(session.subagent ? { subagent: true } : {}),
      });
      return;
    }
    case 'toolResult': {
      const id = getString(message, 'toolCallId');
      if (id === undefined) {
        out.error({
          line,
          column: 1,
          severity: 'error',
          message: `Line ${line}: a toolResult message without a string "toolCallId" is skipped.`,
          code: code('bad-result'),
        });
        return;
      }
      const text = joinTextParts(message.content, ['text'], () =>
        out.note(
          code('non-text-result'),
          'Non-text tool result parts (images) are left out.',
          line,
        ),
      );
      out.toolResult(id, text, message.isError === true, time, line);
      return;
    }
    default:
      out.note(
        code(`${String(message.role)}-message`),
        `"${String(message.role)}" messages (shell commands run by the user, the agent's notices) are not sent to the model as a turn; skipped.`,
        line,
      );
  }
}

/**
 * The message's usage: Pi's `input` leaves out cache reads and writes. An
 * OpenClaw message with `api: "cli"` repeats the final reply with the run's
 * summed usage, which is not one response's: not kept.
 */
function keepUsage(
  message: JsonObject,
  first: number,
  line: number,
  out: StreamBuilder,
  code: (kind: string) => string,
): void {
  if (!isJsonObject(message.usage)) return;
  if (message.api === 'cli') {
    out.note(
      code('summed-usage'),
      'An assistant message with api "cli" carries the whole run\'s summed usage, not one response\'s; its usage is not kept, so no call is counted twice.',
      line,
    );
    return;
  }
  const usage = message.usage;
  const recorded = createSplitUsage({
    uncached: usage.input,
    read: usage.cacheRead,
    write: usage.cacheWrite,
    output: usage.output,
  });
  attachUsageAt(out, first, recorded, line, 'a message with nothing imported');
}
