/**
 * Where the page starts from: the link in the address, then the autosave,
 * then the default example, read from an injected `location` and storage so
 * tests drive every path with plain objects.
 */

import { decodeAppLink, type ShareExample } from '../core/share/app-link.ts';
import { decodePlaygroundFile } from '../core/share/playground-file.ts';
import type { ShareState } from '../core/share/share-codec.ts';

/** A storage the page can use: localStorage and sessionStorage, or a stand-in in tests. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser objects the share actions read and write. */
export interface ShareEnvironment {
  /** The page's address: `hash` is read at start, `href` gives the link's base. */
  location: { readonly hash: string; readonly href: string };
  /** Rewrites the address without a new history entry; null: the address is left alone. */
  history: {
    replaceState(data: unknown, unused: string, url: string): void;
    state: unknown;
  } | null;
  /** Where the autosave goes (localStorage); null when the page cannot use it. */
  storage: StorageLike | null;
  /** Per-tab storage (sessionStorage), to recognise a reload of this tab. */
  session: StorageLike | null;
}

/** The localStorage key of the autosaved state, a playground file's text. */
export const AUTOSAVE_KEY = 'compaction-playground:autosave';
/** The localStorage key of the autosave's bookkeeping ({@link AutosaveMeta}). */
export const AUTOSAVE_META_KEY = 'compaction-playground:autosave-meta';
/** The sessionStorage key of this tab's id, which survives reloads of the tab. */
export const TAB_KEY = 'compaction-playground:tab';

/** The autosave's bookkeeping: which tab wrote it, with which address. */
export interface AutosaveMeta {
  tab: string;
  /** The address's hash when it was written: a reload of that address resumes the autosave. */
  hash: string;
  savedAt: number;
}

/** Where the page starts from, and what went wrong with the link, if anything. */
export type StartChoice =
  | { source: 'link'; state: ShareState }
  | {
      source: 'autosave';
      state: ShareState;
      /** True when this tab reloaded its own address: the autosave is newer than the link. */
      resumed: boolean;
      problem: string | null;
    }
  | { source: 'default'; problem: string | null };

export function readAutosave(
  storage: StorageLike | null,
  examples: readonly ShareExample[],
): { state: ShareState; meta: AutosaveMeta | null } | null {
  let text: string | null = null;
  let metaText: string | null = null;
  try {
    text = storage?.getItem(AUTOSAVE_KEY) ?? null;
    metaText = storage?.getItem(AUTOSAVE_META_KEY) ?? null;
  } catch {
    return null;
  }
  if (!text) return null;
  const decoded = decodePlaygroundFile(text);
  if (!decoded.ok) return null;
  const { stream } = decoded.state;
  if ('exampleId' in stream && !examples.some((example) => example.id === stream.exampleId)) {
    return null;
  }
  return { state: decoded.state, meta: parseMeta(metaText) };
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
 * the autosave; then the default example. A link that cannot be opened falls
 * back the same way and says why.
 */
export function chooseStart(
  env: Pick<ShareEnvironment, 'location' | 'storage'>,
  examples: readonly ShareExample[],
  tab: string,
): StartChoice {
  const hash = linkHash(env.location);
  const saved = readAutosave(env.storage, examples);
  if (hash === '') {
    return saved
      ? { source: 'autosave', state: saved.state, resumed: false, problem: null }
      : { source: 'default', problem: null };
  }
  if (saved?.meta && tab !== '' && saved.meta.tab === tab && saved.meta.hash === hash) {
    return { source: 'autosave', state: saved.state, resumed: true, problem: null };
  }
  const decoded = decodeAppLink(hash, examples);
  if (decoded.ok) return { source: 'link', state: decoded.state };
  return saved
    ? { source: 'autosave', state: saved.state, resumed: false, problem: decoded.message }
    : { source: 'default', problem: decoded.message };
}
