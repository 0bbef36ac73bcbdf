/**
 * Which files of a folder are conversations, and how they group: JP's
 * `<conversation>/events.json`, agent session files (`*.jsonl`, `*.json`,
 * Context Lens recordings `*.lhar`:
 * a Claude Code projects folder, a Codex sessions tree), and Claude Code's
 * subagents (`<session>/subagents/agent-*.jsonl`, with a `.meta.json`
 * beside each), which are conversations of their own under their parent.
 * Paths use `/`; the CLI and the page both pass relative paths.
 */
import { getNonBlankString, isJsonObject, parseJson } from '../json/values.ts';

/** What a file in a folder is. */
export type SessionFileKind = 'jp-events' | 'session' | 'subagent' | 'ignored';

/** Files beside conversations that are not conversations themselves. */
const COMPANIONS = new Set(['metadata.json', 'base_config.json']);

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** What the file at `path` is, by its place and name (its content decides its format). */
export function classifySessionPath(path: string): SessionFileKind {
  const base = baseName(path);
  if (base === 'events.json') return 'jp-events';
  if (COMPANIONS.has(base) || base.endsWith('.meta.json') || base.startsWith('.')) return 'ignored';
  if (/(^|\/)subagents\/agent-[^/]*\.jsonl$/.test(path)) return 'subagent';
  if (base.endsWith('.jsonl') || base.endsWith('.json') || base.endsWith('.lhar')) return 'session';
  return 'ignored';
}

/** The session file a subagent belongs to: `<dir>/<session>.jsonl` for `<dir>/<session>/subagents/agent-x.jsonl`. */
export function getSubagentParent(path: string): string | undefined {
  const match = /^(.*)\/subagents\/agent-[^/]*\.jsonl$/.exec(path);
  return match ? `${match[1]}.jsonl` : undefined;
}

/** Where a subagent's `.meta.json` is. */
export function getSubagentMetaPath(path: string): string {
  return path.replace(/\.jsonl$/, '.meta.json');
}

/** A subagent's description from its `.meta.json` text, when it has one. */
export function readSubagentDescription(metaText: string): string | undefined {
  const value = parseJson(metaText);
  return isJsonObject(value) ? getNonBlankString(value.description ?? value.agentType) : undefined;
}

/** A subagent's conversation name: its parent's, then its own (its file's name, or an inline subagent's `agent` name). */
export function nameSubagent(
  parentName: string,
  path: string,
  description: string | undefined,
  agent = baseName(path).replace(/\.jsonl$/, ''),
): string {
  return `${parentName} › ${agent}${description ? `: ${description}` : ''}`;
}

/** An inline subagent's name, as its own file would be named (`agent-<agentId>.jsonl`). */
export function nameInlineSubagent(agentId: string): string {
  return `agent-${agentId}`;
}

/**
 * Orders conversation paths so each subagent follows its parent session:
 * by the parent's path, the parent first, then by path.
 */
export function orderSessionPaths(paths: readonly string[]): string[] {
  const key = (path: string) => getSubagentParent(path) ?? path;
  return [...paths].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    const sa = getSubagentParent(a) === undefined ? 0 : 1;
    const sb = getSubagentParent(b) === undefined ? 0 : 1;
    if (sa !== sb) return sa - sb;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
