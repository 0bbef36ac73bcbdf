/**
 * The autosave's records as data: one slot per tab holding a short history
 * of recent states (playground files' text), and the index of slots that
 * says which tab saved last. Pure: the page's storage (IndexedDB) is read
 * and written in `state/autosave.ts`; this decides what goes in.
 */

/** One saved state. */
export interface AutosaveEntry {
  /** The state as a playground file's text. */
  text: string;
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

/** Slots kept; the slots of tabs closed long ago go first. */
export const AUTOSAVE_SLOTS = 8;

/**
 * The slot with `entry` as its newest state. The entries before it are kept
 * (the last good save is only replaced by a newer one, never dropped first);
 * the same text again only refreshes the newest entry's address and time.
 */
export function addAutosaveEntry(slot: AutosaveSlot, entry: AutosaveEntry): AutosaveSlot {
  const [newest, ...older] = slot.entries;
  const previous = newest && newest.text !== entry.text ? [newest, ...older] : older;
  const entries = [entry];
  let chars = entry.text.length;
  for (const kept of previous) {
    if (entries.length >= AUTOSAVE_HISTORY_LENGTH) break;
    chars += kept.text.length;
    if (entries.length >= 2 && chars > AUTOSAVE_HISTORY_CHARS) break;
    entries.push(kept);
  }
  return { tab: slot.tab, entries };
}

/** The index with `tab` saved at `savedAt`, and the tabs whose slots it no longer keeps. */
export function touchAutosaveIndex(
  index: AutosaveIndex,
  tab: string,
  savedAt: number,
): { index: AutosaveIndex; dropped: string[] } {
  const others = index.tabs.filter((item) => item.tab !== tab);
  const tabs = [{ tab, savedAt }, ...others];
  return {
    index: { tabs: tabs.slice(0, AUTOSAVE_SLOTS) },
    dropped: tabs.slice(AUTOSAVE_SLOTS).map((item) => item.tab),
  };
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
  const { text, hash, savedAt } = value as Partial<Record<keyof AutosaveEntry, unknown>>;
  return typeof text === 'string' && typeof hash === 'string' && typeof savedAt === 'number';
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
