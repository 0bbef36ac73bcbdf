/**
 * Which tab this is. A tab's id lives in sessionStorage, which a duplicated
 * tab (or `window.open(location.href)`) copies: two live tabs would then
 * write one autosave slot. So a tab claims its id with a Web Lock held while
 * it lives; a tab that finds its id held by another takes a new one. The
 * locks held also say which tabs are open, whose slots are never dropped.
 *
 * Without Web Locks (old browsers), the id is used unclaimed, as before.
 */

import type { StorageLike } from './autosave.ts';

/** The part of the Web Locks API the claim needs (tests pass a stand-in). */
export interface TabLocks {
  request(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<void> | undefined,
  ): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

/** The sessionStorage key of this tab's id, which survives reloads of the tab. */
export const TAB_KEY = 'compaction-playground:tab';
/** A tab's lock is this prefix and its id. */
export const TAB_LOCK_PREFIX = 'compaction-playground:tab:';

/** A tab's claimed id; `release` lets it go (tests, between cases). */
export interface TabClaim {
  tab: string;
  /** The id this tab found in its session but another live tab holds (a duplicate), or null. */
  copiedFrom: string | null;
  release: () => void;
}

/** A new tab id. */
export function createTabId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** This tab's id from its session, or a new one kept there ('' when there is no session). */
export function readTabId(session: StorageLike | null): string {
  try {
    const existing = session?.getItem(TAB_KEY);
    if (existing) return existing;
    const id = createTabId();
    session?.setItem(TAB_KEY, id);
    return session ? id : '';
  } catch {
    return '';
  }
}

/** Holds `tab`'s lock while the page lives; resolves with its release, or null when another tab holds it. */
function hold(locks: TabLocks, tab: string): Promise<(() => void) | null> {
  return new Promise((resolve) => {
    locks
      .request(`${TAB_LOCK_PREFIX}${tab}`, { ifAvailable: true }, (lock) => {
        if (lock === null) {
          resolve(null);
          return undefined;
        }
        return new Promise<void>((release) => resolve(() => release()));
      })
      .catch(() => resolve(null));
  });
}

/**
 * How long a reload waits for its own id. The document it replaces holds the
 * lock until the browser has torn it down, which on a busy machine comes
 * after the new document starts: taking a new id then would read the tab's
 * own slot as another tab's and drop what was typed just before the reload.
 */
export const RELOAD_CLAIM_WAIT_MS = 2_000;
const RELOAD_CLAIM_POLL_MS = 25;

/** `hold`, tried again until `waitMs` has passed (0: once). */
async function holdWithin(
  locks: TabLocks,
  tab: string,
  waitMs: number,
): Promise<(() => void) | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const release = await hold(locks, tab);
    if (release || Date.now() >= until) return release;
    await new Promise((resolve) => setTimeout(resolve, RELOAD_CLAIM_POLL_MS));
  }
}

/**
 * Claims `wanted` for this tab, or a new id when another live tab holds it.
 * `waitMs` is for a reload, whose old document may hold `wanted` for a moment
 * ({@link RELOAD_CLAIM_WAIT_MS}); a duplicated tab passes 0 and moves on at once.
 */
export async function claimTab(
  locks: TabLocks | null,
  session: StorageLike | null,
  wanted: string,
  waitMs = 0,
): Promise<TabClaim> {
  const unclaimed = { tab: wanted, copiedFrom: null, release: () => {} };
  if (!locks || wanted === '') return unclaimed;
  try {
    const release = await holdWithin(locks, wanted, waitMs);
    if (release) return { tab: wanted, copiedFrom: null, release };
    const fresh = createTabId();
    session?.setItem(TAB_KEY, fresh);
    const freshRelease = await hold(locks, fresh);
    return { tab: fresh, copiedFrom: wanted, release: freshRelease ?? (() => {}) };
  } catch {
    return unclaimed;
  }
}

/** The ids of the tabs open now (their locks are held). */
export async function getLiveTabs(locks: TabLocks | null): Promise<ReadonlySet<string>> {
  if (!locks) return new Set();
  try {
    const { held = [] } = await locks.query();
    const live = new Set<string>();
    for (const { name } of held) {
      if (name?.startsWith(TAB_LOCK_PREFIX)) live.add(name.slice(TAB_LOCK_PREFIX.length));
    }
    return live;
  } catch {
    return new Set();
  }
}
