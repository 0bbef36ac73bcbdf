/**
 * The workspace's files before anything is counted: finding the
 * conversations among picked files, and the browser's size limits on them.
 */

import { formatCount, formatSize } from '../core/counting/format.ts';
import {
  classifySessionPath,
  getSubagentMetaPath,
  getSubagentParent,
  nameInlineSubagent,
  nameSubagent,
  orderSessionPaths,
  type SessionFileKind,
} from '../core/import/sessions.ts';
import type { ConversationFiles } from '../worker/shared/workspace-protocol.ts';
import type { WorkspaceConversation } from './app-state.ts';

/** The most conversations opened at once. */
export const MAX_WORKSPACE_CONVERSATIONS = 5_000;
/** The most `events.json` bytes opened at once (200 MB). */
export const MAX_WORKSPACE_BYTES = 200_000_000;
/** The largest single `events.json` counted in the browser (50 MB); larger ones are listed as failed. */
export const MAX_CONVERSATION_BYTES = 50_000_000;

/** A file as the pickers give it: a Blob with a name, and its path inside an opened folder. */
export interface PickedFile extends Blob {
  readonly name: string;
  /** `<folder>/<conversation>/events.json` for a folder; empty for files picked one by one. */
  readonly webkitRelativePath?: string;
}

/** A conversation found among picked files. */
export interface ConversationSource {
  /** Its folder relative to what was opened, or the file's name. */
  path: string;
  /** What to call it until its metadata is read: its folder's or file's name. */
  name: string;
  events: PickedFile;
  /** `metadata.json` beside `events.json`, or a subagent's `.meta.json`. */
  metadata: PickedFile | null;
  kind: Exclude<SessionFileKind, 'ignored'>;
  /** A subagent's parent session: its index among the conversations, when it was opened too. */
  parent?: number;
  /** Whether it was found in an opened folder (not picked one by one): only then are its inline subagents listed, as the CLI lists them for a folder. */
  inFolder?: boolean;
  /** An inline subagent of the session file `events` (its `agentId`): that subagent's conversation. */
  agent?: string;
}

/** What a set of picked files holds. */
export interface CollectedConversations {
  /** Sorted by path, as the CLI sorts a folder's conversations. */
  conversations: ConversationSource[];
  /** The opened folder's name, when a folder was opened. */
  folder: string | null;
  /** Total size of the conversations' `events.json` files. */
  bytes: number;
}

/** Files looked at between two yields to the browser, so a huge folder never blocks the page. */
const SCAN_CHUNK = 2_000;

function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function splitPath(file: PickedFile): { dir: string; base: string } {
  const path = file.webkitRelativePath || file.name;
  const slash = path.lastIndexOf('/');
  return slash < 0
    ? { dir: '', base: path }
    : { dir: path.slice(0, slash), base: path.slice(slash + 1) };
}

/**
 * Finds the conversations among picked files. From a folder: every
 * `events.json` (with the `metadata.json` beside it) and every agent session
 * file, subagents with their `.meta.json` right after their parent session:
 * the files and order the CLI's `report FOLDER` finds (core `sessions`).
 * From files picked one by one: every file but `metadata.json` is a
 * conversation (a lone pair of `events.json` and `metadata.json` is read
 * together).
 */
export async function collectConversations(
  files: ArrayLike<PickedFile>,
): Promise<CollectedConversations> {
  /** Conversations by their sort key: a JP conversation's folder, a session file's path. */
  const found = new Map<string, ConversationSource>();
  const metadata = new Map<string, PickedFile>();
  const loose: PickedFile[] = [];
  const looseMetadata: PickedFile[] = [];
  let folder: string | null = null;
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && i % SCAN_CHUNK === 0) await yieldToBrowser();
    const file = files[i] as PickedFile;
    const { dir, base } = splitPath(file);
    if (dir === '') {
      if (base === 'metadata.json') looseMetadata.push(file);
      else loose.push(file);
      continue;
    }
    folder ??= dir.split('/')[0] ?? null;
    const path = `${dir}/${base}`;
    if (base === 'metadata.json' || base.endsWith('.meta.json')) {
      metadata.set(path, file);
      continue;
    }
    const kind = classifySessionPath(path);
    if (kind === 'ignored') continue;
    const key = kind === 'jp-events' ? dir : path;
    const name = kind === 'jp-events' ? dir.slice(dir.lastIndexOf('/') + 1) : base;
    found.set(key, { path: key, name, events: file, metadata: null, kind, inFolder: true });
  }
  const conversations: ConversationSource[] = orderSessionPaths([...found.keys()]).map(
    (key) => found.get(key) as ConversationSource,
  );
  const indexOf = new Map(conversations.map((c, index) => [c.path, index]));
  for (const conversation of conversations) {
    const besideIt =
      conversation.kind === 'jp-events'
        ? `${conversation.path}/metadata.json`
        : conversation.kind === 'subagent'
          ? getSubagentMetaPath(conversation.path)
          : undefined;
    conversation.metadata = (besideIt && metadata.get(besideIt)) || null;
    const parent = getSubagentParent(conversation.path);
    const parentIndex = parent === undefined ? undefined : indexOf.get(parent);
    if (parentIndex !== undefined) conversation.parent = parentIndex;
  }
  const pairMetadata = loose.length === 1 && looseMetadata.length === 1;
  // Files picked one by one carry no folder: several are often all "events.json".
  const seen = new Map<string, number>();
  const picked: ConversationSource[] = [];
  for (const file of loose) {
    const count = (seen.get(file.name) ?? 0) + 1;
    seen.set(file.name, count);
    const name = count === 1 ? file.name : `${file.name} (${count})`;
    picked.push({
      path: name,
      name,
      events: file,
      metadata: pairMetadata ? (looseMetadata[0] as PickedFile) : null,
      kind: file.name === 'events.json' ? 'jp-events' : 'session',
    });
  }
  picked.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Picked files carry no folder, so they come after a folder's (they never mix in one pick).
  conversations.push(...picked);
  const bytes = conversations.reduce((sum, conversation) => sum + conversation.events.size, 0);
  return { conversations, folder, bytes };
}

/** Why a workspace is too large for the browser, or null when it is not. */
export function checkWorkspaceLimits(collected: CollectedConversations): string | null {
  const count = collected.conversations.length;
  const tooMany = count > MAX_WORKSPACE_CONVERSATIONS;
  const tooLarge = collected.bytes > MAX_WORKSPACE_BYTES;
  if (!tooMany && !tooLarge) return null;
  const what = `${formatCount(count)} conversations (${formatSize(collected.bytes)} of events.json)`;
  return (
    `This holds ${what}: more than the playground counts in a browser tab ` +
    `(${formatCount(MAX_WORKSPACE_CONVERSATIONS)} conversations or ` +
    `${formatSize(MAX_WORKSPACE_BYTES)} at a time). Open a part of it, or count it all with the ` +
    'command line: compaction-playground report --config FILE.toml FOLDER.'
  );
}

function tooLargeMessage(bytes: number): string {
  return (
    `events.json is ${formatSize(bytes)}, more than the ${formatSize(MAX_CONVERSATION_BYTES)} ` +
    'the browser counts in one conversation; count it with the command line.'
  );
}

/**
 * The inline subagents a counted session holds, as conversations of their
 * own right after the conversations already known (the workspace's order is
 * by index; the table sorts by figures, and the name says whose they are).
 * Only a session found in a folder is expanded, as the CLI expands a folder's
 * sessions; a subagent already listed is not listed again (a recount).
 */
export function addInlineSubagents(
  sources: ConversationSource[],
  parent: number,
  agentIds: readonly string[],
): number[] {
  const session = sources[parent];
  if (!session || session.kind !== 'session' || !session.inFolder || session.agent !== undefined)
    return [];
  const added: number[] = [];
  for (const agent of agentIds) {
    const path = `${session.path}#${agent}`;
    if (sources.some((source) => source.path === path)) continue;
    added.push(sources.length);
    sources.push({
      path,
      name: nameInlineSubagent(agent),
      events: session.events,
      metadata: null,
      kind: 'subagent',
      parent,
      agent,
    });
  }
  return added;
}

/**
 * Names each subagent in `list` under its parent, as the CLI does: the
 * parent's title (or path, when the parent was not opened), then the
 * agent's file name and its description from `.meta.json` when known.
 */
export function nameSubagents(
  list: WorkspaceConversation[],
  sources: readonly ConversationSource[],
  descriptions: ReadonlyMap<number, string>,
): void {
  sources.forEach((source, index) => {
    const row = list[index];
    if (source.kind !== 'subagent' || !row) return;
    const parentName =
      source.parent !== undefined
        ? (list[source.parent]?.title ?? '')
        : (getSubagentParent(source.path) ?? '');
    const title = nameSubagent(
      parentName,
      source.path,
      descriptions.get(index),
      source.agent === undefined ? undefined : nameInlineSubagent(source.agent),
    );
    if (title !== row.title) list[index] = { ...row, title };
  });
}

/** The conversations' rows before any is counted, subagents named under their parents. */
export function pendingConversations(
  sources: readonly ConversationSource[],
): WorkspaceConversation[] {
  const list = sources.map(pendingConversation);
  nameSubagents(list, sources, new Map());
  return list;
}

function pendingConversation(source: ConversationSource, index: number): WorkspaceConversation {
  const tooLarge = source.events.size > MAX_CONVERSATION_BYTES;
  return {
    index,
    path: source.path,
    title: source.name,
    // An inline subagent's lines are in its session's file, counted there once.
    bytes: source.agent === undefined ? source.events.size : 0,
    status: tooLarge ? 'failed' : 'pending',
    message: tooLarge ? tooLargeMessage(source.events.size) : null,
    figures: null,
  };
}

/** What a worker is sent for the conversation at `index`: its files, never their text. */
export function getConversationFiles(
  sources: readonly ConversationSource[],
  index: number,
): ConversationFiles {
  const { events, metadata, kind, agent } = sources[index] as ConversationSource;
  return {
    index,
    events,
    metadata,
    kind,
    name: events.name,
    ...(agent !== undefined ? { agent } : {}),
  };
}

/**
 * `indices` in the CLI's order for a folder: by index, each session's
 * inline subagents right after it (the CLI reads them as it reads the
 * session; the workspace lists them after everything it found). The money
 * is summed in this order, so its sums equal `replay --by-conversation`'s
 * to the last bit.
 */
export function orderAsTheCli(
  sources: readonly ConversationSource[],
  indices: readonly number[],
): number[] {
  const wanted = new Set(indices);
  const inline = new Map<number, number[]>();
  for (const index of indices) {
    const source = sources[index];
    if (source?.agent === undefined || source.parent === undefined) continue;
    inline.set(source.parent, [...(inline.get(source.parent) ?? []), index]);
  }
  const order: number[] = [];
  const emit = (index: number) => {
    if (wanted.has(index)) order.push(index);
    for (const child of inline.get(index) ?? []) emit(child);
  };
  for (const index of [...wanted].sort((a, b) => a - b)) {
    const source = sources[index];
    // An inline subagent comes with its session, unless that session is not among them.
    if (source?.agent === undefined || source.parent === undefined || !wanted.has(source.parent))
      emit(index);
  }
  return order;
}
