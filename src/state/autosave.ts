/**
 * The autosave's storage: one slot per tab (its id lives in sessionStorage,
 * which survives reloads of that tab only) in IndexedDB through
 * `idb-keyval`, so a stream of several MB fits and two tabs never share a
 * slot. Writes go one at a time, newest wins, and a slot is replaced only by
 * a write that holds the new state with the last good ones after it.
 *
 * A large stream (`AutosaveEntry.streamText`) is stored under a key of its
 * own and the slot names that key: a write stores only the streams the slot
 * does not hold yet, so a config keystroke over a 12 MB stream writes a few
 * KB, and a stream no entry names any more is deleted after the write.
 *
 * IndexedDB is asynchronous and a write begun while the page unloads may
 * not finish, so the state pending at `pagehide` also goes to
 * sessionStorage (synchronous, this tab only) when it is small enough; the
 * next start takes whichever is newer.
 */

import {
  AUTOSAVE_SLOTS,
  type AutosaveEntry,
  type AutosaveIndex,
  type AutosaveSlot,
  addAutosaveEntry,
  addRecentEntries,
  entryChars,
  parseAutosaveIndex,
  parseAutosaveSlot,
  parseRecentEntries,
  RECENT_LENGTH,
  type RecentEntry,
  touchAutosaveIndex,
} from '../core/share/autosave-history.ts';

/** A storage the page can use: localStorage and sessionStorage, or a stand-in in tests. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The part of `idb-keyval` the autosave uses (tests pass a Map-backed stand-in). */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  /** Reads and writes one key in one transaction. */
  update(key: string, updater: (old: unknown) => unknown): Promise<void>;
}

/** The IndexedDB key of a tab's slot is this prefix and the tab's id. */
export const SLOT_KEY_PREFIX = 'compaction-playground:slot:';
/** The IndexedDB key of the slot index ({@link AutosaveIndex}). */
export const SLOT_INDEX_KEY = 'compaction-playground:slots';
/** The sessionStorage key of the state pending when the page was hidden. */
export const PENDING_KEY = 'compaction-playground:pending';
/** The IndexedDB key of the recent list: states of slots the index dropped ({@link RecentEntry}). */
export const RECENT_KEY = 'compaction-playground:recent';
/** The IndexedDB keys of streams kept apart start with this prefix and the tab's id. */
export const STREAM_KEY_PREFIX = 'compaction-playground:stream:';
/** Above this many characters the pending state does not go to sessionStorage (its quota is ~5M). */
const PENDING_MAX_CHARS = 1_500_000;

/** What the start reads: this tab's slot and the most recent slot of any tab. */
export interface AutosaveReading {
  /** This tab's slot (with the pending state first when it is newer), or null. */
  own: AutosaveSlot | null;
  /** The slot saved last by any tab, or null; `own` when this tab saved last. */
  latest: AutosaveSlot | null;
}

/** How a write ended. */
export type AutosaveOutcome =
  | { ok: true; savedAt: number }
  | { ok: false; quota: boolean; error: unknown };

function slotKey(tab: string): string {
  return `${SLOT_KEY_PREFIX}${tab}`;
}

/** An entry as IndexedDB holds it: a stream kept apart by the key of its record. */
interface StoredEntry {
  text: string;
  hash: string;
  savedAt: number;
  streamKey?: string;
}

/** The key of each entry's stream record, for the entries read or written by this page. */
const streamKeys = new WeakMap<AutosaveEntry, string>();

/** The stream keys a slot as stored names. */
function storedStreamKeys(value: unknown): string[] {
  const entries = (value as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) return [];
  return entries
    .map((entry) => (entry as Partial<StoredEntry> | null)?.streamKey)
    .filter((key): key is string => typeof key === 'string');
}

/**
 * Reads a tab's slot with the streams of its first `limit` entries put back;
 * an entry whose stream record is gone is left out, and so are the entries
 * past `limit`.
 */
async function readSlot(
  kv: KeyValueStore,
  tab: string,
  limit = Number.POSITIVE_INFINITY,
): Promise<AutosaveSlot | null> {
  const slot = parseAutosaveSlot(await kv.get(slotKey(tab)));
  if (!slot) return null;
  const entries: AutosaveEntry[] = [];
  for (const stored of slot.entries as StoredEntry[]) {
    if (entries.length >= limit) break;
    const { text, hash, savedAt, streamKey } = stored;
    if (typeof streamKey !== 'string') {
      entries.push({ text, hash, savedAt });
      continue;
    }
    const streamText = await kv.get(streamKey);
    if (typeof streamText !== 'string') continue;
    const entry: AutosaveEntry = { text, streamText, hash, savedAt };
    streamKeys.set(entry, streamKey);
    entries.push(entry);
  }
  return { tab: slot.tab, entries };
}

/** The slot as IndexedDB holds it: each stream kept apart by the key it was stored under. */
function toStoredSlot(slot: AutosaveSlot): { tab: string; entries: StoredEntry[] } {
  return {
    tab: slot.tab,
    entries: slot.entries.map((entry) => {
      const { text, hash, savedAt } = entry;
      const streamKey = streamKeys.get(entry);
      return streamKey === undefined ? { text, hash, savedAt } : { text, hash, savedAt, streamKey };
    }),
  };
}

/** The stream keys the entries of a slot name. */
function keysOf(slot: AutosaveSlot): Set<string> {
  const keys = new Set<string>();
  for (const entry of slot.entries) {
    const key = streamKeys.get(entry);
    if (key !== undefined) keys.add(key);
  }
  return keys;
}

async function deleteAll(kv: KeyValueStore, keys: Iterable<string>): Promise<void> {
  for (const key of keys) {
    try {
      await kv.del(key);
    } catch (error) {
      // A record left behind costs space, not work.
      console.warn(error);
    }
  }
}

function readPending(session: StorageLike | null): AutosaveEntry | null {
  try {
    const text = session?.getItem(PENDING_KEY);
    if (!text) return null;
    const slot = parseAutosaveSlot({ tab: '', entries: [JSON.parse(text)] });
    return slot?.entries[0] ?? null;
  } catch {
    return null;
  }
}

/** Reads the slots the start chooses from; a storage that fails reads as empty. */
export async function readAutosaves(
  kv: KeyValueStore | null,
  session: StorageLike | null,
  tab: string,
): Promise<AutosaveReading> {
  let own: AutosaveSlot | null = null;
  let latest: AutosaveSlot | null = null;
  try {
    if (kv) {
      if (tab !== '') own = await readSlot(kv, tab);
      const index = parseAutosaveIndex(await kv.get(SLOT_INDEX_KEY));
      const last = index.tabs[0]?.tab;
      if (last !== undefined) {
        // Of another tab's slot only the newest state is opened.
        latest = last === tab ? own : await readSlot(kv, last, 1);
      }
    }
  } catch (error) {
    console.warn(error);
  }
  const pending = readPending(session);
  if (pending && pending.savedAt > (own?.entries[0]?.savedAt ?? -1)) {
    own = addAutosaveEntry(own ?? { tab, entries: [] }, pending);
  }
  if (own?.entries.length === 0) own = null;
  if (latest?.entries.length === 0) latest = null;
  return { own, latest: latest ?? own };
}

/** Writes one tab's slot; see the module header. */
export interface Autosaver {
  /** Saves a state as the slot's newest; resolves when it is stored (or refused). */
  save(entry: AutosaveEntry): Promise<AutosaveOutcome>;
  /** Keeps a state in sessionStorage at once, for a reload already under way. */
  stash(entry: AutosaveEntry): void;
  /** The slot as last written or read. */
  slot(): AutosaveSlot;
  /** Forgets this tab's slot. */
  forget(): Promise<void>;
}

/** Creates the writer of `tab`'s slot, starting from the slot the start read. */
export function createAutosaver(
  kv: KeyValueStore,
  session: StorageLike | null,
  tab: string,
  initial: AutosaveSlot | null,
  /** The tabs open now, whose slots are never dropped (none known: an empty set). */
  liveTabs: () => Promise<ReadonlySet<string>> = async () => new Set(),
): Autosaver {
  let current: AutosaveSlot = initial ?? { tab, entries: [] };
  let queue: Promise<unknown> = Promise.resolve();

  async function write(entry: AutosaveEntry): Promise<AutosaveOutcome> {
    const next = addAutosaveEntry(current, entry);
    const stored: string[] = [];
    try {
      await storeStreams(next, stored);
      // One put: IndexedDB replaces the old slot only when the new one is committed.
      await kv.set(slotKey(tab), toStoredSlot(next));
    } catch (error) {
      for (const kept of next.entries) {
        if (stored.includes(streamKeys.get(kept) ?? '')) streamKeys.delete(kept);
      }
      await deleteAll(kv, stored);
      return { ok: false, quota: isQuotaError(error), error };
    }
    const unnamed = keysOf(current);
    for (const key of keysOf(next)) unnamed.delete(key);
    current = next;
    try {
      await deleteAll(kv, unnamed);
      let dropped: string[] = [];
      const live = await liveTabs();
      await kv.update(SLOT_INDEX_KEY, (old) => {
        const touched = touchAutosaveIndex(parseAutosaveIndex(old), tab, entry.savedAt, live);
        dropped = touched.dropped;
        return touched.index satisfies AutosaveIndex;
      });
      await keepInRecent(kv, dropped);
      clearPending(entry.savedAt);
      return { ok: true, savedAt: entry.savedAt };
    } catch (error) {
      return { ok: false, quota: isQuotaError(error), error };
    }
  }

  /**
   * Stores each stream of `slot` that no entry of the slot as written holds
   * (a stream the editor still holds is the same string: found by reference
   * first); the keys written go to `stored`.
   */
  async function storeStreams(slot: AutosaveSlot, stored: string[]): Promise<void> {
    for (const entry of slot.entries) {
      if (entry.streamText === undefined || streamKeys.has(entry)) continue;
      const same = current.entries.find(
        (old) => streamKeys.has(old) && old.streamText === entry.streamText,
      );
      const known = same && streamKeys.get(same);
      if (known !== undefined) {
        streamKeys.set(entry, known);
        continue;
      }
      const key = `${STREAM_KEY_PREFIX}${tab}:${entry.savedAt}:${Math.random().toString(36).slice(2, 8)}`;
      await kv.set(key, entry.streamText);
      stored.push(key);
      streamKeys.set(entry, key);
    }
  }

  function clearPending(savedAt: number): void {
    try {
      const pending = readPending(session);
      if (pending && pending.savedAt <= savedAt) session?.removeItem(PENDING_KEY);
    } catch {
      // The next start compares times anyway.
    }
  }

  return {
    save(entry) {
      const result = queue.then(() => write(entry));
      queue = result;
      return result;
    },
    stash(entry) {
      if (entryChars(entry) > PENDING_MAX_CHARS) return;
      try {
        session?.setItem(PENDING_KEY, JSON.stringify(entry));
      } catch {
        // The IndexedDB write under way may still finish.
      }
    },
    slot: () => current,
    async forget() {
      await queue;
      const keys = keysOf(current);
      current = { tab, entries: [] };
      try {
        session?.removeItem(PENDING_KEY);
      } catch {
        // Nothing more can be done.
      }
      try {
        await kv.del(slotKey(tab));
        await deleteAll(kv, keys);
        await kv.update(SLOT_INDEX_KEY, (old) => ({
          tabs: parseAutosaveIndex(old).tabs.filter((item) => item.tab !== tab),
        }));
      } catch (error) {
        console.warn(error);
      }
    },
  };
}

/** Moves the newest state of each dropped slot to the recent list, then deletes the slot and its streams. */
async function keepInRecent(kv: KeyValueStore, dropped: readonly string[]): Promise<void> {
  if (dropped.length === 0) return;
  const added: RecentEntry[] = [];
  for (const gone of dropped) {
    // The recent list holds its states whole: it is written only when a slot is dropped.
    const newest = (await readSlot(kv, gone, 1))?.entries[0];
    if (newest) added.push({ ...newest, tab: gone });
  }
  await kv.update(RECENT_KEY, (old) => addRecentEntries(parseRecentEntries(old), added));
  for (const gone of dropped) {
    const keys = storedStreamKeys(await kv.get(slotKey(gone)));
    await kv.del(slotKey(gone));
    await deleteAll(kv, keys);
  }
}

/**
 * The states this browser keeps besides this tab's own, newest first: the
 * newest of every other tab's slot, and the recent list of dropped slots.
 */
export async function readRecentStates(
  kv: KeyValueStore | null,
  tab: string,
): Promise<RecentEntry[]> {
  if (!kv) return [];
  try {
    const others: RecentEntry[] = [];
    for (const { tab: other } of parseAutosaveIndex(await kv.get(SLOT_INDEX_KEY)).tabs) {
      if (other === tab) continue;
      const newest = (await readSlot(kv, other, 1))?.entries[0];
      if (newest) others.push({ ...newest, tab: other });
    }
    return addRecentEntries(
      parseRecentEntries(await kv.get(RECENT_KEY)),
      others,
      AUTOSAVE_SLOTS + RECENT_LENGTH,
    );
  } catch (error) {
    console.warn(error);
    return [];
  }
}

/** Whether a storage error is the browser's quota (the state is too large to keep). */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return (
    name === 'QuotaExceededError' ||
    name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
    code === 22 ||
    code === 1014
  );
}
