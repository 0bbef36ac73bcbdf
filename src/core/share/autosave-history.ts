/**
 * The autosave's records as data: one slot per tab holding a short history
 * of recent states (playground files' text), and the index of slots that
 * says which tab saved last. Pure: the page's storage (IndexedDB) is read
 * and written in `state/autosave.ts`; this decides what goes in.
 */

import { decodePlaygroundFile, encodePlaygroundFile } from './playground-file.ts';
import type { ShareDecodeResult, ShareState } from './share-codec.ts';

/** One saved state. */
export interface AutosaveEntry {
  /**
   * The state as a playground file's text; with `streamText`, the file's
   * stream text is empty and `streamText` is the stream.
   */
  text: string;
  /**
   * A large stream, kept apart from `text` ({@link toAutosaveEntry}): the
   * store keeps it under its own key and writes it only when it changes, so
   * a config keystroke does not write a stream of many MB again.
   */
  streamText?: string;
  /** The address's hash when it was written: a reload of that address resumes this entry. */
  hash: string;
  /** When it was written (ms since the epoch). */
  savedAt: number;
}

/** One tab's saves, newest first. */
export interface AutosaveSlot {
  tab: string;
  entries: AutosaveEntry[];
}

/** Which tabs have a slot, most recently saved first. */
export interface AutosaveIndex {
  tabs: { tab: string; savedAt: number }[];
}

/** States a slot keeps: the newest and a few before it, for "Restore previous work". */
export const AUTOSAVE_HISTORY_LENGTH = 5;

/**
 * Characters a slot keeps beyond its two newest entries: a few states of
 * several MB each would fill the browser's share of the disk for nothing.
 */
export const AUTOSAVE_HISTORY_CHARS = 12_000_000;

/** Slots kept; the slots of tabs closed long ago go first, and a live tab's never. */
export const AUTOSAVE_SLOTS = 8;

/** States the recent list keeps of slots the index no longer holds. */
export const RECENT_LENGTH = 8;

/** One state of a slot the index dropped, kept so it stays reachable. */
export interface RecentEntry extends AutosaveEntry {
  /** The tab that wrote it. */
  tab: string;
}

/**
 * Streams longer than this (characters) are kept apart from the entry's
 * text. Below it, writing the whole state costs little, and the entry stays
 * one playground file's text.
 */
export const APART_STREAM_CHARS = 100_000;

/** The autosave entry of a state; a long stream is kept apart (see {@link AutosaveEntry}). */
export function toAutosaveEntry(state: ShareState, hash: string, savedAt: number): AutosaveEntry {
  const stream = state.stream;
  if (!('text' in stream) || stream.text.length <= APART_STREAM_CHARS) {
    return { text: encodePlaygroundFile(state), hash, savedAt };
  }
  const text = encodePlaygroundFile({ ...state, stream: { text: '' } });
  return { text, streamText: stream.text, hash, savedAt };
}

/** Reads the state an entry holds, with its stream put back when it was kept apart. */
export function decodeAutosaveEntry(
  entry: Pick<AutosaveEntry, 'text' | 'streamText'>,
): ShareDecodeResult {
  const decoded = decodePlaygroundFile(entry.text);
  const { streamText } = entry;
  if (!decoded.ok || streamText === undefined || !('text' in decoded.state.stream)) return decoded;
  return { ...decoded, state: { ...decoded.state, stream: { text: streamText } } };
}

/** Characters an entry holds, its stream kept apart included. */
export function entryChars(entry: AutosaveEntry): number {
  return entry.text.length + (entry.streamText?.length ?? 0);
}

/** Whether two entries hold the same state (the address and the time aside). */
export function isSameSavedState(a: AutosaveEntry, b: AutosaveEntry): boolean {
  // The stream is usually the very string the editor holds: compared by reference first.
  return a.text === b.text && a.streamText === b.streamText;
}

/**
 * The slot with `entry` as its newest state. The entries before it are kept
 * (the last good save is only replaced by a newer one, never dropped first);
 * the same text again only refreshes the newest entry's address and time.
 */
export function addAutosaveEntry(slot: AutosaveSlot, entry: AutosaveEntry): AutosaveSlot {
  const [newest, ...older] = slot.entries;
  const previous = newest && !isSameSavedState(newest, entry) ? [newest, ...older] : older;
  const entries = [entry];
  let chars = entryChars(entry);
  for (const kept of previous) {
    if (entries.length >= AUTOSAVE_HISTORY_LENGTH) break;
    chars += entryChars(kept);
    if (entries.length >= 2 && chars > AUTOSAVE_HISTORY_CHARS) break;
    entries.push(kept);
  }
  return { tab: slot.tab, entries };
}

/**
 * The index with `tab` saved at `savedAt`, and the tabs whose slots it no
 * longer keeps: beyond {@link AUTOSAVE_SLOTS}, the slots saved longest ago
 * go, but never the slot of a tab in `live` (open now), however many.
 */
export function touchAutosaveIndex(
  index: AutosaveIndex,
  tab: string,
  savedAt: number,
  live: ReadonlySet<string> = new Set(),
): { index: AutosaveIndex; dropped: string[] } {
  const others = index.tabs.filter((item) => item.tab !== tab);
  const tabs = [{ tab, savedAt }, ...others];
  let room = AUTOSAVE_SLOTS - tabs.filter((item) => item.tab === tab || live.has(item.tab)).length;
  const kept: AutosaveIndex['tabs'] = [];
  const dropped: string[] = [];
  for (const item of tabs) {
    if (item.tab === tab || live.has(item.tab)) kept.push(item);
    else if (room > 0) {
      kept.push(item);
      room--;
    } else dropped.push(item.tab);
  }
  return { index: { tabs: kept }, dropped };
}

/**
 * The recent list with the newest state of each dropped slot added, newest
 * first, at most `limit` ({@link RECENT_LENGTH}) states and
 * {@link AUTOSAVE_HISTORY_CHARS} characters (the newest is always kept).
 */
export function addRecentEntries(
  recent: readonly RecentEntry[],
  added: readonly RecentEntry[],
  limit = RECENT_LENGTH,
): RecentEntry[] {
  const all = [...added, ...recent].sort((a, b) => b.savedAt - a.savedAt);
  const kept: RecentEntry[] = [];
  let chars = 0;
  for (const entry of all) {
    if (kept.length >= limit) break;
    if (kept.some((other) => isSameSavedState(other, entry))) continue;
    chars += entryChars(entry);
    if (kept.length > 0 && chars > AUTOSAVE_HISTORY_CHARS) break;
    kept.push(entry);
  }
  return kept;
}

/** The recent list read back from storage; empty when it is missing or damaged. */
export function parseRecentEntries(value: unknown): RecentEntry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is RecentEntry => isEntry(item) && typeof (item as RecentEntry).tab === 'string',
  );
}

/** A slot read back from storage, or null when it is not one (another version, damage). */
export function parseAutosaveSlot(value: unknown): AutosaveSlot | null {
  if (typeof value !== 'object' || value === null) return null;
  const { tab, entries } = value as { tab?: unknown; entries?: unknown };
  if (typeof tab !== 'string' || !Array.isArray(entries)) return null;
  const kept = entries.filter(isEntry);
  return { tab, entries: kept };
}

function isEntry(value: unknown): value is AutosaveEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { text, hash, savedAt, streamText } = value as Partial<
    Record<keyof AutosaveEntry, unknown>
  >;
  return (
    typeof text === 'string' &&
    typeof hash === 'string' &&
    typeof savedAt === 'number' &&
    (streamText === undefined || typeof streamText === 'string')
  );
}

/** The index read back from storage; empty when it is missing or damaged. */
export function parseAutosaveIndex(value: unknown): AutosaveIndex {
  const tabs = (value as { tabs?: unknown } | null)?.tabs;
  if (!Array.isArray(tabs)) return { tabs: [] };
  return {
    tabs: tabs.filter(
      (item): item is { tab: string; savedAt: number } =>
        typeof item?.tab === 'string' && typeof item?.savedAt === 'number',
    ),
  };
}
