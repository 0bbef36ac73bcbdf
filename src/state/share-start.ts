/**
 * Where the page starts from: the link in the address, then the autosave,
 * then the default example, read from an injected `location` and storage so
 * tests drive every path with plain objects.
 */

import { decodeAppLink, type ShareExample } from '../core/share/app-link.ts';
import { type AutosaveEntry, decodeAutosaveEntry } from '../core/share/autosave-history.ts';
import type { ShareState } from '../core/share/share-codec.ts';
import { type KeyValueStore, PENDING_KEY, type StorageLike } from './autosave.ts';
import type { TabLocks } from './tab-claim.ts';

export type { StorageLike } from './autosave.ts';

/** The browser objects the share actions read and write. */
export interface ShareEnvironment {
  /** The page's address: `hash` is read at start, `href` gives the link's base. */
  location: { readonly hash: string; readonly href: string };
  /** Rewrites the address without a new history entry; null: the address is left alone. */
  history: {
    replaceState(data: unknown, unused: string, url: string): void;
    state: unknown;
  } | null;
  /** Where the autosave goes (IndexedDB through idb-keyval); null when the page cannot use it. */
  autosave: KeyValueStore | null;
  /** localStorage: read once for a save an earlier version of the page left there. */
  storage: StorageLike | null;
  /** Per-tab storage (sessionStorage), to recognise a reload of this tab. */
  session: StorageLike | null;
  /** Web Locks, to claim this tab's id and see which tabs are open; absent: ids are not claimed. */
  locks?: TabLocks | null;
  /** This document reloads the tab (its old document may still hold the tab's lock for a moment). */
  reloaded?: boolean;
}

/** The localStorage key of the state an earlier version of the page autosaved (one slot for all tabs). */
export const AUTOSAVE_KEY = 'compaction-playground:autosave';
/** The localStorage key of the autosave's bookkeeping ({@link AutosaveMeta}). */
export const AUTOSAVE_META_KEY = 'compaction-playground:autosave-meta';
/**
 * The localStorage key set once this browser has autosaved work (any state
 * but the default example as a first visit loads it). Without it, and with
 * no link, no older save and no state pending from a reload, the start has
 * nothing to choose from but the default example: {@link isFirstVisit}.
 */
export const SAVED_WORK_KEY = 'compaction-playground:saved-work';
export { TAB_KEY } from './tab-claim.ts';

/** A saved state the start may open, and its bookkeeping: which tab wrote it, with which address. */
export interface SavedState {
  state: ShareState;
  meta: AutosaveMeta | null;
  /** What migrating it from an older file format changed, for the user (`migrationNote`). */
  note?: string;
}

/** The autosave's bookkeeping: which tab wrote it, with which address. */
export interface AutosaveMeta {
  tab: string;
  /** The address's hash when it was written: a reload of that address resumes the autosave. */
  hash: string;
  savedAt: number;
}

/** Where the page starts from, and what went wrong with the link, if anything. */
export type StartChoice =
  | {
      source: 'link';
      state: ShareState;
      /** What migrating it from an older link format changed, for the user; null when nothing. */
      note: string | null;
      /** What the link held that could not be used, the rest opened; absent when nothing. */
      dropped?: string;
    }
  | {
      source: 'autosave';
      state: ShareState;
      /** True when this tab reloaded its own address: the autosave is newer than the link. */
      resumed: boolean;
      problem: string | null;
    }
  | { source: 'default'; problem: string | null };

/** A saved playground file's text as a state, or null when it cannot be opened. */
export function decodeSavedText(
  saved: Pick<AutosaveEntry, 'text' | 'streamText'>,
  meta: AutosaveMeta | null,
  examples: readonly ShareExample[],
): SavedState | null {
  const decoded = decodeAutosaveEntry(saved);
  if (!decoded.ok) return null;
  const { stream } = decoded.state;
  if ('exampleId' in stream && !examples.some((example) => example.id === stream.exampleId)) {
    return null;
  }
  return decoded.migrationNote === undefined
    ? { state: decoded.state, meta }
    : { state: decoded.state, meta, note: decoded.migrationNote };
}

/** The state an earlier version of the page left in localStorage, if any. */
export function readLegacyAutosave(
  storage: StorageLike | null,
  examples: readonly ShareExample[],
): SavedState | null {
  let text: string | null = null;
  let metaText: string | null = null;
  try {
    text = storage?.getItem(AUTOSAVE_KEY) ?? null;
    metaText = storage?.getItem(AUTOSAVE_META_KEY) ?? null;
  } catch {
    return null;
  }
  return text ? decodeSavedText({ text }, parseMeta(metaText), examples) : null;
}

function parseMeta(text: string | null): AutosaveMeta | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<AutosaveMeta>;
    return typeof value.tab === 'string' && typeof value.hash === 'string'
      ? { tab: value.tab, hash: value.hash, savedAt: Number(value.savedAt) || 0 }
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether the page can start from the default example without reading the
 * autosave: no link in the address, and nothing saved that the start could
 * choose instead (no saved-work mark, no save of an earlier version of the
 * page, no state this tab kept while it was reloading). Reading the autosave
 * opens IndexedDB, which a first visit's figures waited 200 to 300 ms for.
 * A storage the page cannot read answers no: the start reads the autosave.
 */
export function isFirstVisit(
  env: Pick<ShareEnvironment, 'location' | 'storage' | 'session'>,
): boolean {
  if (linkHash(env.location) !== '' || env.storage === null) return false;
  try {
    return (
      env.storage.getItem(SAVED_WORK_KEY) === null &&
      env.storage.getItem(AUTOSAVE_KEY) === null &&
      (env.session?.getItem(PENDING_KEY) ?? null) === null
    );
  } catch {
    return false;
  }
}

/** Marks this browser as holding saved work (see {@link SAVED_WORK_KEY}); a refusing storage is left alone. */
export function markSavedWork(storage: StorageLike | null): void {
  try {
    if (storage?.getItem(SAVED_WORK_KEY) === null) storage.setItem(SAVED_WORK_KEY, '1');
  } catch {
    // The next start shows the default example first, then this work once
    // the autosave is read (as for a save of an earlier version of the page).
  }
}

/** The hash of an address, or '' when it has none (`#` alone counts as none). */
export function ownHash(location: { hash: string }): string {
  return location.hash === '#' ? '' : location.hash;
}

/**
 * The hash when it is meant as a playground link (`#v…`, however damaged),
 * or ''. Other hashes are in-page anchors, such as the skip link's
 * `#results`: they are no link and open no dialog.
 */
export function linkHash(location: { hash: string }): string {
  const hash = ownHash(location);
  return /^#\s*v\d*(\/|$)/.test(hash) ? hash : '';
}

/**
 * Decides where the page starts: the link in the address, unless this tab
 * is reloading an address it wrote itself (then the autosave is newer); then
 * the autosave (`saved`: this tab's, else the one saved last); then the
 * default example. A link that cannot be opened falls
 * back the same way and says why.
 */
export function chooseStart(
  location: ShareEnvironment['location'],
  saved: SavedState | null,
  examples: readonly ShareExample[],
  tab: string,
): StartChoice {
  const hash = linkHash(location);
  if (hash === '') {
    return saved
      ? { source: 'autosave', state: saved.state, resumed: false, problem: null }
      : { source: 'default', problem: null };
  }
  if (saved?.meta && tab !== '' && saved.meta.tab === tab && saved.meta.hash === hash) {
    return { source: 'autosave', state: saved.state, resumed: true, problem: null };
  }
  const decoded = decodeAppLink(hash, examples);
  if (decoded.ok) {
    return {
      source: 'link',
      state: decoded.state,
      note: decoded.migrationNote ?? null,
      ...(decoded.dropped === undefined ? {} : { dropped: decoded.dropped }),
    };
  }
  return saved
    ? { source: 'autosave', state: saved.state, resumed: false, problem: decoded.message }
    : { source: 'default', problem: decoded.message };
}
