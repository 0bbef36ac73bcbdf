/**
 * Turns a provider view (TranscriptEntry[]) into the plain text the diff
 * editor shows: one block per event, headed by its type, tool name and id,
 * followed by the decoded text that is counted. Before and after are built
 * the same way so that the diff lines up block by block.
 *
 * Pure and linear in the size of the text: it runs on every result, and a
 * large conversation makes a transcript of a few megabytes.
 */

import { ORPHAN_ROW_KEY } from '../../core/counting/report.ts';
import type { TranscriptEntry } from '../../core/playground/types.ts';

/** Where one event's block sits in the transcript text (1-based, inclusive lines). */
export interface TranscriptBlock {
  /** The entry's key (stable across before and after). */
  key: string;
  /** The header line. */
  startLine: number;
  /** The last line of the event's text. */
  endLine: number;
}

/** A transcript: the text and where each event's block is. */
export interface Transcript {
  text: string;
  /** How many lines the text has. */
  lineCount: number;
  /** In text order, so they can be searched by line. */
  blocks: TranscriptBlock[];
}

/** What to include. */
export interface TranscriptOptions {
  /** Only this tool's requests and responses; `ORPHAN_ROW_KEY` selects responses with no known tool. */
  tool?: string;
}

/** The marker on the header of an event that sanitize added. */
export const ADDED_BY_SANITIZE = '[added by sanitize]';

/** Shown in place of an empty text, so the block is not mistaken for a gap. */
export const EMPTY_TEXT = '(empty)';

const TOOL_TYPES: ReadonlySet<string> = new Set(['tool_call_request', 'tool_call_response']);

/** Whether an entry belongs to the tool selected in the table (by its report row name). */
export function matchesTool(
  entry: Pick<TranscriptEntry, 'type' | 'toolName'>,
  tool: string,
): boolean {
  if (!TOOL_TYPES.has(entry.type)) return false;
  if (tool === ORPHAN_ROW_KEY) return entry.toolName === undefined;
  return entry.toolName === tool;
}

/** The tool names (report row keys) that occur in the entries, sorted, `ORPHAN_ROW_KEY` last. */
export function listTools(entries: readonly TranscriptEntry[]): string[] {
  const names = new Set<string>();
  let unknown = false;
  for (const entry of entries) {
    if (!TOOL_TYPES.has(entry.type)) continue;
    if (entry.toolName === undefined) unknown = true;
    else names.add(entry.toolName);
  }
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (unknown) sorted.push(ORPHAN_ROW_KEY);
  return sorted;
}

/**
 * An event named for people: its type, which part of a response it is, tool
 * name and id, e.g. "tool_call_request · fs_read_file · id call_1" or
 * "chat_response · reasoning". The part is named so that stripped reasoning
 * never reads as a deleted assistant message.
 */
export function formatLabel(
  entry: Pick<TranscriptEntry, 'type' | 'part' | 'toolName' | 'id'>,
): string {
  let label = entry.type;
  if (entry.part !== undefined) label += ` · ${entry.part}`;
  if (entry.toolName !== undefined) label += ` · ${entry.toolName}`;
  if (entry.id !== undefined) label += ` · id ${entry.id}`;
  return label;
}

/** The header line of an entry's block: its label and the sanitize marker. */
export function formatHeader(
  entry: Pick<TranscriptEntry, 'type' | 'part' | 'toolName' | 'id' | 'sanitize'>,
): string {
  const marker = entry.sanitize === 'added' ? ` ${ADDED_BY_SANITIZE}` : '';
  return `## ${formatLabel(entry)}${marker}`;
}

/**
 * The text shown for an entry. Tool arguments are counted as compact JSON;
 * they are shown indented so that a diff of a large payload reads line by line.
 */
export function formatBody(entry: Pick<TranscriptEntry, 'type' | 'text'>): string {
  if (entry.text === '') return EMPTY_TEXT;
  if (entry.type === 'tool_call_request') {
    try {
      return JSON.stringify(JSON.parse(entry.text), null, 2);
    } catch {
      return entry.text;
    }
  }
  return entry.text;
}

// Monaco breaks lines at \r, \n and \r\n; split the same way so that block
// line numbers match the editor's.
const LINE_BREAK = /\r\n|\r|\n/;

/** Builds the transcript text and its block map. */
export function buildTranscript(
  entries: readonly TranscriptEntry[],
  options: TranscriptOptions = {},
): Transcript {
  const lines: string[] = [];
  const blocks: TranscriptBlock[] = [];
  for (const entry of entries) {
    if (options.tool !== undefined && !matchesTool(entry, options.tool)) continue;
    if (lines.length > 0) lines.push('');
    const startLine = lines.length + 1;
    lines.push(formatHeader(entry));
    for (const line of formatBody(entry).split(LINE_BREAK)) lines.push(line);
    blocks.push({ key: entry.key, startLine, endLine: lines.length });
  }
  return { text: lines.join('\n'), lineCount: lines.length, blocks };
}

/** The block containing a 1-based line, or undefined for a separator line or past the end. */
export function findBlockAt(
  blocks: readonly TranscriptBlock[],
  line: number,
): TranscriptBlock | undefined {
  let low = 0;
  let high = blocks.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const block = blocks[mid] as TranscriptBlock;
    if (line < block.startLine) high = mid - 1;
    else if (line > block.endLine) low = mid + 1;
    else return block;
  }
  return undefined;
}
