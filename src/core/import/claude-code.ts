/**
 * Claude Code sessions (`~/.claude/projects/<dir>/<session>.jsonl`): one JSON
 * object per line. Message lines (`user`, `assistant`) link by `parentUuid`;
 * assistant lines that share `message.id` are one API response split into
 * several lines. Mapping and sources: docs/import-formats.md.
 */

import { isJsonObject } from '../json/values.ts';
import { countTurns } from '../stream/turns.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import {
  getArray,
  getString,
  type SourceCall,
  SourceCallTally,
  type SourceTime,
  StreamBuilder,
  toArguments,
} from './builder.ts';
import { attachRecordedByAt, createRecordedUsage, type RecordedBy } from './recorded-usage.ts';
import { isAnthropicServerResult, isServerResultError, serverResultText } from './server-tools.ts';
import type { JsonLine, JsonLines } from './source.ts';
import { fits, type ImportResult, type InlineSubagent, misfit, type Sniffed } from './types.ts';

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
  'mode',
  'pr-link',
  'worktree-state',
]);

/** Where Claude Code compacted the conversation: a line type of its own, or a `system` subtype. */
const COMPACT_BOUNDARY = 'compact_boundary';
const MICROCOMPACT_BOUNDARY = 'microcompact_boundary';

const MESSAGE_TYPES = new Set(['user', 'assistant', 'system']);

/**
 * How many lines other than bookkeeping detection looks at before it gives
 * up: a resumed session can start with many `summary` lines, which do not
 * count.
 */
const SNIFF_MESSAGE_LINES = 50;

/** Whether a line is bookkeeping: a known type, or a typed line without `uuid` (Claude Code's metadata lines). */
function isBookkeeping(value: JsonObject, type: string | undefined): boolean {
  if (type === undefined) return false;
  if (BOOKKEEPING.has(type)) return true;
  return !MESSAGE_TYPES.has(type) && typeof value.uuid !== 'string';
}

/**
 * Whether parsed lines look like a Claude Code session; the reason when not.
 * Bookkeeping lines are passed over without counting toward the window.
 */
export function sniffClaudeCode(lines: readonly JsonLine[]): Sniffed {
  let looked = 0;
  for (const { line, value } of lines) {
    if (!isJsonObject(value)) return misfit(`line ${line} is not a JSON object`);
    const type = getString(value, 'type');
    if (type === 'user' || type === 'assistant') {
      if (
        isJsonObject(value.message) &&
        (typeof value.uuid === 'string' || 'parentUuid' in value)
      ) {
        const link = typeof value.uuid === 'string' ? 'uuid' : 'parentUuid';
        return fits(`line ${line} is a {"type": "${type}"} line with a "message" and a "${link}"`);
      }
      return misfit(`line ${line} is a "${type}" line without "message" and "uuid"`);
    }
    if (type === undefined) return misfit(`line ${line} has no "type", not a Claude Code line`);
    if (isBookkeeping(value, type)) continue;
    if (type !== 'system' && type !== COMPACT_BOUNDARY && type !== MICROCOMPACT_BOUNDARY) {
      return misfit(`line ${line} has the type "${type}", not a Claude Code line type`);
    }
    if (++looked >= SNIFF_MESSAGE_LINES) break;
  }
  return misfit('no line is a "user" or "assistant" message');
}

interface Entry {
  record: JsonLine;
  value: JsonObject;
  /** Its place in the file among the lines that read. */
  index: number;
}

/** What to import from a Claude Code session. */
export interface ClaudeCodeOptions {
  /** Import this inline subagent (the `agentId` of {@link InlineSubagent}) instead of the main conversation. */
  agent?: string;
}

/** Imports a Claude Code session. */
export function importClaudeCode(read: JsonLines, options: ClaudeCodeOptions = {}): ImportResult {
  const out = new StreamBuilder('claude-code');

  const entries: Entry[] = [];
  for (const record of read.lines) {
    if (!isJsonObject(record.value)) {
      out.skipLine(record.line, 'claude-code/not-object', 'a JSON object');
      continue;
    }
    entries.push({ record, value: record.value, index: entries.length });
  }
  const sourceCalls = countSourceCalls(entries, options.agent);

  const selection = selectConversation(entries, out, options.agent);
  emitConversation(selection, out);
  noteCleared(selection.cleared, out);
  const result = out.finish();
  result.sourceCalls = sourceCalls;
  if (selection.subagents.length > 0) result.subagents = selection.subagents;
  return result;
}

/**
 * The calls of the file (the loss guard's source figure), each id once and
 * each call block without a string id on its own: all of them for the main
 * conversation, whose note on the sidechain lines accounts for the
 * subagents' calls; a subagent's own for that subagent.
 */
function countSourceCalls(entries: readonly Entry[], agent: string | undefined): number {
  const groups = agent === undefined ? undefined : sidechainGroups(entries);
  const ids = new Set<string>();
  // Named calls by id, name and arguments: a different call under a used id counts on its own.
  const named = new SourceCallTally();
  let withoutId = 0;
  for (const entry of entries) {
    if (entry.value.type !== 'assistant') continue;
    if (groups !== undefined && groups.get(entry) !== agent) continue;
    for (const block of contentBlocks(entry.value)) {
      if (!isCallBlock(block)) continue;
      if (typeof block.id !== 'string') withoutId++;
      else ids.add(block.id);
      const call = namedCall(block);
      if (call !== undefined) named.add(call);
    }
  }
  return ids.size + (named.size - named.ids) + withoutId;
}

/** A call block as the repeat rule sees it, when it has a string id and name. */
function namedCall(block: JsonObject): SourceCall | undefined {
  if (!isNamedCall(block)) return undefined;
  return { id: String(block.id), name: String(block.name), args: toArguments(block.input).args };
}

/** A call block the importer can emit: a call with a string id and name. */
function isNamedCall(block: JsonObject): boolean {
  return isCallBlock(block) && typeof block.id === 'string' && typeof block.name === 'string';
}

/** Call blocks: the model's tool_use, and the server-side tools the API ran for it. */
function isCallBlock(block: JsonObject): boolean {
  return (
    block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use'
  );
}

/** A subagent's own file (`<session>/subagents/agent-*.jsonl`) is all sidechain: it is the conversation. */
function isSubagentFile(entries: readonly Entry[]): boolean {
  let sidechain = false;
  for (const { value } of entries) {
    if (value.type !== 'user' && value.type !== 'assistant') continue;
    if (value.isSidechain !== true) return false;
    sidechain = true;
  }
  return sidechain;
}

/**
 * The inline subagent each sidechain line belongs to: its `agentId`, else
 * its parent line's subagent, else a new one named from its line.
 */
function sidechainGroups(entries: readonly Entry[]): Map<Entry, string> {
  const groups = new Map<Entry, string>();
  const byUuid = new Map<string, string>();
  for (const entry of entries) {
    if (entry.value.isSidechain !== true) continue;
    const parent = getString(entry.value, 'parentUuid');
    const group =
      getString(entry.value, 'agentId') ??
      (parent === undefined ? undefined : byUuid.get(parent)) ??
      `sidechain-line-${entry.record.line}`;
    groups.set(entry, group);
    const uuid = getString(entry.value, 'uuid');
    if (uuid !== undefined) byUuid.set(uuid, group);
  }
  return groups;
}

/** The model Claude Code names on the assistant lines it writes itself, without calling the API. */
const SYNTHETIC_MODEL = '<synthetic>';

function isSynthetic(value: JsonObject): boolean {
  return isJsonObject(value.message) && value.message.model === SYNTHETIC_MODEL;
}

/** A response's `message.id`; `""` is no id (a server that gives none). */
function messageId(value: JsonObject): string | undefined {
  const id = isJsonObject(value.message) ? getString(value.message, 'id') : undefined;
  return id === '' ? undefined : id;
}

function parentOf(value: JsonObject): string | undefined {
  return getString(value, 'parentUuid') ?? getString(value, 'logicalParentUuid');
}

/** The note on sidechain lines: an inline subagent's conversation, left out of this one. */
const SIDECHAIN_NOTE_CODE = 'claude-code/sidechain';

/**
 * What the sidechain note says: how many inline subagents and calls, and
 * where they went (each a conversation of its own under its session, as the
 * `subagents/` files are), so a figure never drops them without a word.
 */
function describeSidechains(listed: readonly InlineSubagent[], agent: string | undefined): string {
  const calls = listed.reduce((sum, subagent) => sum + subagent.calls, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const each = listed
    .map((s) => `${s.agentId}: ${plural(s.calls, 'call')}, from line ${s.line}`)
    .join('; ');
  const what = `${plural(listed.length, agent === undefined ? 'inline subagent' : 'other inline subagent')} with ${plural(calls, 'tool call')} (${each})`;
  return agent === undefined
    ? `Sidechain lines (isSidechain) hold ${what}: not part of this conversation. Each is a conversation of its own under this session, listed when its folder is opened or counted (report --by-conversation FOLDER, the page's Open folder), as "<session>/subagents/" files are; import one with --agent ID. The parent keeps each subagent's call and result.`
    : `Sidechain lines of ${what} are not part of this subagent's conversation; each is a conversation of its own under the session.`;
}

interface Selection {
  /** The lines to import, in file order. */
  included: Entry[];
  /** The lines on the conversation's chain (the others were admitted beside it). */
  onPath: ReadonlySet<Entry>;
  /** The tool_use ids whose results Claude Code had cleared (microcompact_boundary). */
  cleared: Set<string>;
  /** Where Claude Code compacted the conversation, in file order, each with its summary. */
  compactions: Compaction[];
  subagents: InlineSubagent[];
}

/** A `compact_boundary` on the conversation's chain and the summary Claude Code went on with. */
interface Compaction {
  boundary: Entry;
  /** The text of its `isCompactSummary` line; undefined when the file has none for it. */
  summary: string | undefined;
}

/**
 * The lines of the conversation as the user last saw it. Where lines link
 * by `parentUuid`, walk back from the last line (across a compact boundary
 * by its `logicalParentUuid`); a link to a line that is not there (a bad
 * line, a self-parent, a loop) is a gap, bridged by the line before in the
 * file, never taken for the root. Where no line links, file order is the
 * conversation. Lines off the chain are a rewound or edited branch, except
 * tool results whose call is on it and split lines of a response on it,
 * which Claude Code may link to a sibling. A line whose uuid came before is
 * the same line written again: read once. Inline subagents, meta lines and
 * bookkeeping are noted and skipped.
 */
function selectConversation(
  entries: readonly Entry[],
  out: StreamBuilder,
  agent: string | undefined,
): Selection {
  const byUuid = new Map<string, Entry>();
  const candidates: Entry[] = [];
  const cleared = new Set<string>();
  const subagentFile = isSubagentFile(entries);
  const groups = subagentFile ? new Map<Entry, string>() : sidechainGroups(entries);
  const subagents = new Map<string, InlineSubagent & { ids: Set<string> }>();
  if (subagentFile) {
    out.note(
      'claude-code/subagent',
      "Every message of this file is a sidechain: it is a subagent's conversation, imported as a conversation of its own.",
      entries[0]?.record.line,
    );
  }
  /** Every line that reads, by uuid, so a chain can pass through bookkeeping lines. */
  const linked: Entry[] = [];
  const boundaries: Entry[] = [];
  const summaries: Entry[] = [];
  /** The calls already counted in a note: the loss guard counts each left-out call once. */
  const accounted = new SourceCallTally();
  /** How many calls of a skipped line no note counted yet (those in `kept` are imported). */
  const leftOut = (value: JsonObject, kept?: SourceCallTally): number => {
    if (value.type !== 'assistant') return 0;
    let fresh = 0;
    for (const block of contentBlocks(value)) {
      const call = namedCall(block);
      if (call === undefined || kept?.has(call) || !accounted.add(call)) continue;
      fresh++;
    }
    return fresh;
  };
  for (const entry of entries) {
    const { value, record } = entry;
    const type = getString(value, 'type') ?? '';
    const uuid = getString(value, 'uuid');
    if (uuid !== undefined) {
      if (byUuid.has(uuid)) {
        out.note(
          'claude-code/duplicate-line',
          'Lines whose uuid came before (the same line written twice, or the file appended to itself) are read once.',
          record.line,
        );
        continue;
      }
      byUuid.set(uuid, entry);
    }
    const group = groups.get(entry);
    if (group !== undefined) {
      if (agent === group) {
        candidates.push(entry);
        linked.push(entry);
        continue;
      }
      const calls = value.type === 'assistant' ? contentBlocks(value).filter(isNamedCall) : [];
      const known = subagents.get(group);
      const subagent = known ?? {
        agentId: group,
        lines: 0,
        calls: 0,
        line: record.line,
        ids: new Set<string>(),
      };
      subagent.lines++;
      for (const call of calls) subagent.ids.add(String(call.id));
      // A subagent's conversation counts only its own calls as the source's: another's are not left out of it.
      const fresh = agent === undefined ? leftOut(value) : 0;
      subagent.calls = subagent.ids.size;
      subagents.set(group, subagent);
      out.note(SIDECHAIN_NOTE_CODE, '', record.line, fresh);
      continue;
    }
    if (agent !== undefined) continue;
    linked.push(entry);
    if (type === COMPACT_BOUNDARY || (type === 'system' && value.subtype === COMPACT_BOUNDARY)) {
      out.note(
        'claude-code/compact-boundary',
        "Claude Code compacted the conversation here (compact_boundary): the history before it is imported whole, and a compaction event holding Claude Code's summary (its isCompactSummary line) stands for every turn before it, so that under the stored compactions each later request sends the summary instead, as Claude Code did.",
        record.line,
      );
      boundaries.push(entry);
      continue;
    }
    if (
      type === MICROCOMPACT_BOUNDARY ||
      (type === 'system' && value.subtype === MICROCOMPACT_BOUNDARY)
    ) {
      const metadata = isJsonObject(value.microcompactMetadata)
        ? value.microcompactMetadata
        : isJsonObject(value.compactMetadata)
          ? value.compactMetadata
          : value;
      for (const id of getArray(metadata, 'compactedToolIds')) {
        if (typeof id === 'string') cleared.add(id);
      }
      out.note(
        'claude-code/microcompact-boundary',
        'Claude Code cleared old tool results here (microcompact_boundary); the results are imported as the tools returned them.',
        record.line,
      );
      continue;
    }
    if (isBookkeeping(value, type)) {
      out.note(
        `claude-code/${BOOKKEEPING.has(type) ? type : 'metadata'}`,
        BOOKKEEPING.has(type)
          ? `"${type}" lines are Claude Code's bookkeeping (titles, queued prompts, attachments it lists for itself), not messages; skipped.`
          : "Lines without a uuid (Claude Code's metadata: titles, modes, links, worktree state) are bookkeeping, not messages; skipped.",
        record.line,
      );
      continue;
    }
    if (type === 'system') {
      out.note(
        'claude-code/system',
        'System lines (Claude Code status messages such as hook output or API errors) are not part of what the model is sent; skipped.',
        record.line,
      );
      continue;
    }
    if (!MESSAGE_TYPES.has(type)) {
      out.note(
        `claude-code/unknown-${type}`,
        `Lines of the unknown type "${type}" are skipped.`,
        record.line,
        leftOut(value),
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
    if (type === 'assistant' && isSynthetic(value)) {
      out.note(
        'claude-code/synthetic',
        'Assistant lines of the model "<synthetic>" (text Claude Code writes itself, such as "No response requested." after an interrupt, or an API error) were no API call: skipped, with their usage.',
        record.line,
        leftOut(value),
      );
      continue;
    }
    if (value.isCompactSummary === true) {
      out.note(
        'claude-code/compact-summary',
        'The summary Claude Code wrote when it compacted the conversation is the summary of the compaction event at its compact_boundary, not a user message.',
        record.line,
      );
      summaries.push(entry);
      continue;
    }
    candidates.push(entry);
  }
  const listed = [...subagents.values()].map(({ ids: _ids, ...subagent }) => subagent);
  out.describeNote(SIDECHAIN_NOTE_CODE, describeSidechains(listed, agent));
  if (agent !== undefined && !subagents.has(agent) && candidates.length === 0) {
    out.error({
      line: 1,
      column: 1,
      severity: 'error',
      message: `This session has no inline subagent "${agent}".`,
      code: 'claude-code/no-such-agent',
    });
  }

  const chained = candidates.some((entry) => parentOf(entry.value) !== undefined);
  if (!chained || agent !== undefined) {
    return {
      included: candidates,
      onPath: new Set(candidates),
      cleared,
      compactions: pairSummaries(boundaries, summaries),
      subagents: listed,
    };
  }
  const onPath = walkChain(candidates, linked, byUuid, out);
  const compactions = pairSummaries(
    boundaries.filter((boundary) => onPath.has(boundary)),
    summaries,
  );

  const callIds = new Set<string>();
  const callsOnPath = new SourceCallTally();
  const answeredOnPath = new Set<string>();
  const responseIds = new Set<string>();
  for (const entry of candidates) {
    if (!onPath.has(entry)) continue;
    const id = messageId(entry.value);
    if (entry.value.type === 'assistant' && id !== undefined) responseIds.add(id);
    for (const block of contentBlocks(entry.value)) {
      if (entry.value.type === 'assistant' && isCallBlock(block) && typeof block.id === 'string') {
        callIds.add(block.id);
        const call = namedCall(block);
        if (call !== undefined) callsOnPath.add(call);
      }
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string')
        answeredOnPath.add(block.tool_use_id);
    }
  }
  const included = candidates.filter((entry) => {
    if (onPath.has(entry)) return true;
    const id = messageId(entry.value);
    if (entry.value.type === 'assistant' && id !== undefined && responseIds.has(id)) return true;
    const blocks = contentBlocks(entry.value);
    if (
      entry.value.type === 'user' &&
      blocks.length > 0 &&
      blocks.every(
        (b) =>
          b.type === 'tool_result' &&
          callIds.has(String(b.tool_use_id)) &&
          !answeredOnPath.has(String(b.tool_use_id)),
      )
    ) {
      return true;
    }
    out.note(
      'claude-code/branch',
      'Lines off the conversation\'s last branch (messages the user rewound or edited, following "parentUuid") are skipped.',
      entry.record.line,
      leftOut(entry.value, callsOnPath),
    );
    return false;
  });
  return { included, onPath, cleared, compactions, subagents: listed };
}

/**
 * Each compact boundary with the summary Claude Code went on with: the
 * `isCompactSummary` line that hangs off it, else the first one after it
 * in the file and before the next boundary.
 */
function pairSummaries(boundaries: readonly Entry[], summaries: readonly Entry[]): Compaction[] {
  return boundaries.map((boundary, k) => {
    const uuid = getString(boundary.value, 'uuid');
    const next = boundaries[k + 1]?.index ?? Number.POSITIVE_INFINITY;
    const line =
      summaries.find((s) => uuid !== undefined && getString(s.value, 'parentUuid') === uuid) ??
      summaries.find((s) => s.index > boundary.index && s.index < next);
    const text = line === undefined ? undefined : promptText(line.value);
    return { boundary, summary: text?.trim() ? text : undefined };
  });
}

/**
 * The lines on the chain that ends at the last candidate. A parent that is
 * missing, the line itself, or already on the chain is a gap: the walk goes
 * on from the nearest line before in the file that is not on the chain yet.
 */
function walkChain(
  candidates: readonly Entry[],
  linked: readonly Entry[],
  byUuid: ReadonlyMap<string, Entry>,
  out: StreamBuilder,
): Set<Entry> {
  const onPath = new Set<Entry>();
  const last = candidates.at(-1);
  if (!last) return onPath;
  const position = new Map(linked.map((entry, index) => [entry, index]));
  let cursor: Entry | undefined = last;
  while (cursor) {
    onPath.add(cursor);
    const parentUuid = getString(cursor.value, 'parentUuid');
    const parent = parentUuid ?? getString(cursor.value, 'logicalParentUuid');
    if (parent === undefined) break;
    const next = byUuid.get(parent);
    if (next !== undefined && next !== cursor && !onPath.has(next) && position.has(next)) {
      cursor = next;
      continue;
    }
    // A gap: the line before in the file stands in for the missing parent.
    let index: number = (position.get(cursor) ?? 0) - 1;
    while (index >= 0 && onPath.has(linked[index] as Entry)) index--;
    if (index >= 0) {
      out.note(
        'claude-code/gap',
        'Lines whose parent line is missing (a line that did not read, a self-parent, a loop) continue from the line before them in the file, so the history before a gap is kept.',
        cursor.record.line,
      );
    }
    cursor = index >= 0 ? linked[index] : undefined;
  }
  return onPath;
}

/** The tool calls whose results Claude Code had already cleared: the note counts those in this conversation. */
function noteCleared(cleared: ReadonlySet<string>, out: StreamBuilder): void {
  let count = 0;
  for (const element of out.elements) {
    if (element.type === 'tool_call_request' && cleared.has(String(element.id))) count++;
  }
  if (count === 0) return;
  out.note(
    'claude-code/cleared-by-agent',
    `${count} tool call${count === 1 ? '' : 's'} of this conversation had ${count === 1 ? 'its result' : 'their results'} cleared by Claude Code itself (microcompact_boundary, compactedToolIds); the results are imported as the tools returned them, so the figures show them before that clearing.`,
  );
}

/** The lines of one API response, emitted together at the first of them on the chain. */
interface Response {
  id: string | undefined;
  /** Its lines, in file order. */
  lines: Entry[];
  /** Where it is emitted: its first line on the chain. */
  at: Entry;
  /** Whether other selected lines came between its lines (they are merged from apart). */
  apart: boolean;
}

/** Whether a user line is a prompt (text the user sent), not only tool results. */
function isPrompt(value: JsonObject): boolean {
  if (value.type !== 'user') return false;
  const blocks = contentBlocks(value);
  return !(blocks.length > 0 && blocks.every((b) => b.type === 'tool_result'));
}

/** A prompt's text, to tell a prompt written again from a new one. */
function promptText(value: JsonObject): string {
  const content = isJsonObject(value.message) ? value.message.content : undefined;
  if (typeof content === 'string') return content;
  return contentBlocks(value)
    .map((block) => (block.type === 'text' ? (getString(block, 'text') ?? '') : ''))
    .join('\n');
}

/**
 * The responses of the selected lines. Lines on the chain are one response
 * when they share a `message.id` with no user prompt between them (Claude
 * Code writes a response's blocks as lines, tool results of its calls
 * possibly between), or, without an id, when they follow each other with
 * no other line between. A later line that reuses an id after a prompt is
 * another response (a local or proxy server numbering its responses, a
 * history written again on resume: told apart when emitted). A line off
 * the chain, admitted as a split line of a response on it, joins the
 * nearest response on the chain with its id.
 */
function groupResponses(
  included: readonly Entry[],
  onPath: ReadonlySet<Entry>,
): Map<Entry, Response> {
  const byLine = new Map<Entry, Response>();
  const position = new Map(included.map((entry, index) => [entry, index]));
  let open = new Map<string, Response>();
  let previous: Response | undefined;
  const siblings: Entry[] = [];
  for (const entry of included) {
    if (entry.value.type !== 'assistant') {
      previous = undefined;
      if (isPrompt(entry.value)) open = new Map();
      continue;
    }
    if (!onPath.has(entry)) {
      siblings.push(entry);
      continue;
    }
    const id = messageId(entry.value);
    const joined =
      id === undefined ? (previous?.id === undefined ? previous : undefined) : open.get(id);
    const response = joined ?? { id, lines: [], at: entry, apart: false };
    response.lines.push(entry);
    if (id !== undefined) open.set(id, response);
    byLine.set(entry, response);
    previous = response;
  }
  for (const entry of siblings) {
    const id = messageId(entry.value);
    const at = position.get(entry) as number;
    let nearest: Response | undefined;
    let distance = Number.POSITIVE_INFINITY;
    for (const response of new Set(byLine.values())) {
      if (response.id !== id) continue;
      const gap = Math.abs((position.get(response.at) as number) - at);
      if (gap < distance) [nearest, distance] = [response, gap];
    }
    if (nearest === undefined) continue;
    nearest.lines.push(entry);
    nearest.lines.sort((a, b) => (position.get(a) as number) - (position.get(b) as number));
    byLine.set(entry, nearest);
  }
  for (const response of new Set(byLine.values())) {
    const first = position.get(response.lines[0] as Entry) as number;
    const last = position.get(response.lines.at(-1) as Entry) as number;
    response.apart = last - first + 1 > response.lines.length;
  }
  return byLine;
}

/** What a response holds, block by block, to tell a response written again from a new one. */
function responseBlocks(response: Response): string[] {
  return response.lines.flatMap(({ value }) => {
    const content = isJsonObject(value.message) ? value.message.content : undefined;
    if (typeof content === 'string') return [`text:${content}`];
    return contentBlocks(value).map((block) =>
      isCallBlock(block) && typeof block.id === 'string'
        ? `call:${block.id}`
        : block.type === 'text'
          ? `text:${getString(block, 'text') ?? ''}`
          : block.type === 'thinking'
            ? `thinking:${getString(block, 'thinking') ?? ''}`
            : JSON.stringify(block),
    );
  });
}

/** A response already emitted under an id: what it held, and the prompt before it. */
interface EmittedResponse {
  blocks: Set<string>;
  prompt: string | undefined;
}

/**
 * Emits the selected lines: each response at its first line on the chain
 * (groupResponses); a response written again (an id emitted before, every
 * block of it emitted under that id: a history written twice on resume)
 * once, and the prompt before it once when its text is the one the first
 * copy answered; a call or a result whose id came before once; at each
 * compact boundary, a compaction event (emitCompaction), the lines after
 * it in a new turn.
 */
function emitConversation({ included, onPath, compactions }: Selection, out: StreamBuilder): void {
  const byLine = groupResponses(included, onPath);
  const pending = [...compactions];
  /** The boundary whose new turn no line opened yet. */
  let turnToOpen: Entry | undefined;
  const emitCompactionsBefore = (index: number) => {
    while (pending[0] !== undefined && pending[0].boundary.index < index) {
      const compaction = pending.shift() as Compaction;
      if (emitCompaction(compaction, out)) turnToOpen = compaction.boundary;
    }
  };
  /** Before a line after a boundary: the new turn, unless the line opens it itself. */
  const openTurn = (opens: boolean) => {
    if (turnToOpen !== undefined && !opens)
      out.turnStart(turnToOpen.value.timestamp, turnToOpen.record.line);
    turnToOpen = undefined;
  };
  const emitted = new Map<string, EmittedResponse>();
  const isCopy = (response: Response): boolean => {
    const before = response.id === undefined ? undefined : emitted.get(response.id);
    return before !== undefined && responseBlocks(response).every((b) => before.blocks.has(b));
  };
  let lastPrompt: string | undefined;
  for (const [position, entry] of included.entries()) {
    const { value } = entry;
    emitCompactionsBefore(entry.index);
    if (value.type === 'assistant') {
      const response = byLine.get(entry);
      if (response === undefined || response.at !== entry) continue;
      const copy = isCopy(response);
      if (!copy) openTurn(false);
      emitResponse(response, emitted, copy, lastPrompt, out);
      continue;
    }
    if (isPrompt(value)) {
      const next = included.slice(position + 1).find((e) => e.value.type === 'assistant');
      const response = next === undefined ? undefined : byLine.get(next);
      const text = promptText(value);
      if (
        response?.id !== undefined &&
        isCopy(response) &&
        emitted.get(response.id)?.prompt === text
      ) {
        out.note(
          'claude-code/repeated-message',
          'User messages written again with the response they had (a history Claude Code wrote twice on resume) are read once.',
          entry.record.line,
        );
        continue;
      }
      lastPrompt = text;
    }
    openTurn(opensTurn(value));
    emitUser(entry, out);
  }
  emitCompactionsBefore(Number.POSITIVE_INFINITY);
}

/** Whether emitting a user line opens a turn: it holds text the user sent. */
function opensTurn(value: JsonObject): boolean {
  const content = isJsonObject(value.message) ? value.message.content : undefined;
  return typeof content === 'string' || contentBlocks(value).some((b) => b.type === 'text');
}

/**
 * A compact boundary as a compaction event: Claude Code's summary stands
 * for every turn before it, so a request after it is projected with the
 * summary instead of the history, as Claude Code sent it (spec 4). True
 * when one was emitted (the caller opens the turn after it).
 */
function emitCompaction({ boundary, summary }: Compaction, out: StreamBuilder): boolean {
  const line = boundary.record.line;
  const turns = countTurns(out.elements);
  if (summary === undefined || turns === 0) {
    out.note(
      'claude-code/compact-without-summary',
      summary === undefined
        ? 'A compact_boundary with no isCompactSummary line has no summary to stand for the history: no compaction event; the history goes on as it was.'
        : 'A compact_boundary before any turn has nothing to summarise: no compaction event.',
      line,
    );
    return false;
  }
  out.summaryCompaction(summary, 0, turns - 1, boundary.value.timestamp, line);
  return true;
}

/** Emits one response, or notes it as written again; notes a reused id and lines merged from apart. */
function emitResponse(
  response: Response,
  emitted: Map<string, EmittedResponse>,
  copy: boolean,
  prompt: string | undefined,
  out: StreamBuilder,
): void {
  const line = response.at.record.line;
  if (copy) {
    out.note(
      'claude-code/repeated-response',
      'Responses written again (an earlier message.id with the same blocks: a history Claude Code wrote twice on resume) are read once.',
      line,
    );
    return;
  }
  const blocks = responseBlocks(response);
  if (response.id !== undefined) {
    const before = emitted.get(response.id);
    if (before !== undefined) {
      out.note(
        'claude-code/reused-id',
        'Responses that reuse the message.id of an earlier one with other blocks (a local or proxy server numbering its responses) are kept apart, each in its place with its own usage.',
        line,
      );
      for (const block of blocks) before.blocks.add(block);
    } else {
      emitted.set(response.id, { blocks: new Set(blocks), prompt });
    }
  }
  if (response.apart) {
    out.note(
      'claude-code/merged-lines',
      'The lines of one response (one message.id, no user prompt between) that other lines came between (results of its calls, lines off the chain) are merged and emitted at the first of them on the chain.',
      line,
    );
  }
  emitAssistant(response.lines, out);
}

/** Claude Code's usage of one API response, in the shape the cost replay reads (`metadata.recorded_usage`). */
function recordedUsage(group: readonly Entry[]): JsonObject | undefined {
  // Each line of a response repeats its usage; output_tokens can grow on the last.
  for (const { value } of [...group].reverse()) {
    const usage = isJsonObject(value.message) ? value.message.usage : undefined;
    if (!isJsonObject(usage)) continue;
    const count = (object: JsonObject, key: string): number => {
      const n = object[key];
      return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
    };
    const input = count(usage, 'input_tokens');
    const write = count(usage, 'cache_creation_input_tokens');
    const read = count(usage, 'cache_read_input_tokens');
    const split = isJsonObject(usage.cache_creation) ? usage.cache_creation : {};
    const part = (key: string) => (typeof split[key] === 'number' ? count(split, key) : undefined);
    // Through the one validation the replay reads back with: a sum past 2^53 is not kept.
    const recorded = createRecordedUsage({
      prompt_tokens: input + write + read,
      cache_read_tokens: read,
      cache_write_tokens: write,
      output_tokens: count(usage, 'output_tokens'),
      cache_write_5m_tokens: part('ephemeral_5m_input_tokens'),
      cache_write_1h_tokens: part('ephemeral_1h_input_tokens'),
    });
    return recorded === undefined ? undefined : { ...recorded };
  }
  return undefined;
}

function contentBlocks(value: JsonObject): JsonObject[] {
  if (!isJsonObject(value.message)) return [];
  return getArray(value.message, 'content').filter(isJsonObject);
}

function emitAssistant(group: readonly Entry[], out: StreamBuilder): void {
  const seenText = new Set<string>();
  const first = out.length;
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
        case 'thinking':
          importThinkingBlock(
            block,
            out,
            'Thinking blocks that carry only a signature (Claude Code does not store their text) have nothing to count; skipped.',
            time,
            record.line,
            (text) => {
              const key = `thinking:${text}`;
              if (seenText.has(key)) return true;
              seenText.add(key);
              return false;
            },
          );
          break;
        case 'redacted_thinking':
          out.note(
            'claude-code/redacted-thinking',
            'Redacted thinking blocks hold encrypted data, no text; skipped.',
            record.line,
          );
          break;
        case 'tool_use':
        case 'server_tool_use':
        case 'mcp_tool_use': {
          // A call written again (a later line of one response, a history written twice) counts once.
          importToolUseBlock(block, out, 'claude-code/bad-tool-use', time, record.line);
          break;
        }
        default:
          if (isAnthropicServerResult(block)) {
            emitResult(block, String(block.type), time, record.line, out);
            break;
          }
          out.note(
            `claude-code/block-${String(block.type)}`,
            `Assistant blocks of the type "${String(block.type)}" (images and the like) have no JP event; skipped.`,
            record.line,
          );
      }
    }
  }
  const usage = recordedUsage(group);
  if (usage !== undefined) out.annotate(first, { recorded_usage: usage });
  attachRecordedByAt(out, first, recordedBy(group));
}

/** What recorded a response: Claude Code's version (each line's `version`) and `message.model`. */
function recordedBy(group: readonly Entry[]): RecordedBy {
  const by: RecordedBy = { runtime: 'claude-code' };
  for (const { value } of group) {
    by.version ??= getString(value, 'version');
    if (isJsonObject(value.message)) by.model ??= getString(value.message, 'model');
  }
  return by;
}

/** A result block (the agent's `tool_result`, or a server tool's `*_tool_result`), once per id. */
function emitResult(
  block: JsonObject,
  type: string,
  time: SourceTime,
  line: number,
  out: StreamBuilder,
): void {
  const id = getString(block, 'tool_use_id');
  if (id === undefined) {
    out.skipItem(
      line,
      'claude-code/bad-tool-result',
      `a ${type} block without a string "tool_use_id"`,
    );
    return;
  }
  if (type === 'tool_result') {
    const text = resultText(block.content, line, out);
    if (
      out.toolResult(id, text, block.is_error === true, time, line) &&
      text.includes('<persisted-output>')
    ) {
      out.note(
        'claude-code/persisted-output',
        'Tool results Claude Code spilled to a "tool-results/" file are in the transcript as a preview only (<persisted-output>); the preview is what is counted, as it is what the model was sent.',
        line,
      );
    }
  } else {
    out.toolResult(id, serverResultText(block.content), isServerResultError(block), time, line);
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
    if (item.type === 'tool_result' || isAnthropicServerResult(item)) {
      emitResult(item, String(item.type), time, record.line, out);
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

/**
 * A `thinking` block as reasoning, for every format that writes Anthropic's
 * blocks: its signature is kept (`anthropic_signature`) so an export can
 * hand it back; a block with only a signature has no text to count and is
 * noted as `<format>/signature-only-thinking` with `emptyNote`. `isRepeat`
 * lets a format that writes a response's blocks again count a text once.
 */
export function importThinkingBlock(
  block: JsonObject,
  out: StreamBuilder,
  emptyNote: string,
  time: SourceTime,
  line: number | undefined,
  isRepeat: (text: string) => boolean = () => false,
): void {
  const text = getString(block, 'thinking') ?? '';
  if (text === '') {
    out.note(`${out.format}/signature-only-thinking`, emptyNote, line);
    return;
  }
  if (isRepeat(text)) return;
  const signature = getString(block, 'signature');
  out.reasoning(text, time, line, signature ? { anthropic_signature: signature } : undefined);
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

/**
 * A `tool_use` block (or `server_tool_use`, `mcp_tool_use`) as a call, in
 * Anthropic's shape, for every format that writes it (Amp too): counted on
 * sight, skipped with an error (`code`) without a string id and name, and
 * once per id (a block written again is the same call).
 */
export function importToolUseBlock(
  block: JsonObject,
  out: StreamBuilder,
  code: string,
  time: SourceTime,
  line: number | undefined,
): void {
  const id = getString(block, 'id');
  const name = getString(block, 'name');
  if (id === undefined || name === undefined) {
    out.skipCall(line, code, `a ${String(block.type)} block without a string "id" and "name"`, id);
    return;
  }
  out.toolCall(id, name, toArguments(block.input).args, time, line);
}
