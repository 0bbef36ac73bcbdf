/**
 * Share links, playground files and autosave: the whole state in the URL
 * hash (`#v2/…`, through the core's share codec), in a `.json` file, and in
 * this tab's autosave slot (`autosave.ts`), and the order the page starts
 * from: the link in the address, then the autosave, then the default
 * example. Whatever replaces edited work (a link, a file, an example) leaves
 * an offer to restore it.
 *
 * The browser's `location`, `history` and storages are injected by
 * `initShare` (main.tsx passes the real ones), so tests drive every path
 * with plain objects.
 */

import {
  DEFAULT_READINGS,
  getChangedReadings,
  isDefaultReadings,
  withReadings,
} from '../core/compaction/readings.ts';
import { formatSize } from '../core/counting/format.ts';
import { DEFAULT_REPLAY_CHOICE } from '../core/replay/schedules.ts';
import {
  decodeAppLink,
  encodeAppLink,
  SHARE_DEFAULTS_V1,
  type ShareExample,
} from '../core/share/app-link.ts';
import {
  type AutosaveEntry,
  entryChars,
  isSameSavedState,
  toAutosaveEntry,
} from '../core/share/autosave-history.ts';
import { decodePlaygroundFile, encodePlaygroundFile } from '../core/share/playground-file.ts';
import {
  describeLinkLength,
  type ShareLinkFit,
  type ShareState,
  writeReplay,
} from '../core/share/share-codec.ts';
import { loadExample, notify, runAnalysis } from './actions.ts';
import type { AppState } from './app-state.ts';
import { type Autosaver, createAutosaver, readAutosaves, readRecentStates } from './autosave.ts';
import { selectReplayChoice } from './selectors.ts';
import { showLinkProblem } from './share-actions.ts';
import {
  AUTOSAVE_KEY,
  AUTOSAVE_META_KEY,
  chooseStart,
  decodeSavedText,
  isFirstVisit,
  linkHash,
  markSavedWork,
  ownHash,
  readLegacyAutosave,
  type SavedState,
  type ShareEnvironment,
  type StartChoice,
  type StorageLike,
} from './share-start.ts';
import { store } from './store.ts';
import { claimTab, getLiveTabs, RELOAD_CLAIM_WAIT_MS, readTabId } from './tab-claim.ts';
import { createDebounce } from './timing.ts';

/** What `initShare` needs. */
export interface ShareDeps {
  examples: readonly ShareExample[];
  /** The example a first visit, and "Start fresh", load. */
  defaultExampleId: string;
  env: ShareEnvironment;
  /** Quiet time after an edit before the address and the autosave follow it. Default 600 ms. */
  debounceMs?: number;
}

/**
 * Above this many characters of text (config and the stream's own text) the
 * address bar stops following the state: compressing it on every pause would
 * hold the page, and a link that large passes what browsers accept anyway.
 */
export const ADDRESS_MAX_CHARS = 100_000;

/**
 * Above this many characters of text, Copy link does not even try: even text
 * that compresses well would give a link past the browsers' limit.
 */
export const LINK_MAX_CHARS = 512_000;

/**
 * Above this many characters of text the autosave does not try: more than
 * the editors accept (a 10 MiB stream and a 1 MiB config), so only a state
 * built some other way gets here.
 */
export const AUTOSAVE_MAX_CHARS = 24_000_000;

const DEFAULT_DEBOUNCE_MS = 600;

let deps: ShareDeps | null = null;
let tabId = '';
/** The address and autosave writes waiting for a quiet time. */
const pendingPersist = createDebounce(() => {
  writeAddress();
  autosave();
});
let unsubscribe: (() => void) | null = null;
let removeLifecycle: (() => void) | null = null;
let autosaver: Autosaver | null = null;
/** Lets this tab's id go (its Web Lock), for tests between cases. */
let releaseTab: () => void = () => {};
/** The last entry handed to the autosaver, and whether its write has finished. */
let lastEntry: { entry: AutosaveEntry; done: boolean } | null = null;
/** True while a link, file or restore puts its state in the store. */
let applying = false;
/** The default example as the start loaded it, when it did: no work of the user's. */
let defaultStart: AutosaveEntry | null = null;

// ---------------------------------------------------------------- the store as a share state

function findExample(id: string): ShareExample | undefined {
  return deps?.examples.find((example) => example.id === id);
}

/**
 * The example the stream editor holds, unchanged, or null: the example's
 * text as written, or the JP events an imported example (a foreign
 * transcript) became when the page imported exactly that text.
 */
export function getStreamExampleId(
  state: Pick<AppState, 'exampleId' | 'streamText' | 'importedStream'>,
): string | null {
  const example = state.exampleId === null ? undefined : findExample(state.exampleId);
  if (!example) return null;
  if (example.streamText === state.streamText) return example.id;
  const imported = state.importedStream;
  return imported?.from === example.streamText && imported.to === state.streamText
    ? example.id
    : null;
}

/** The share state of the store: the stream as its example's id while it is unchanged. */
export function toShareState(state: AppState): ShareState {
  const exampleId = getStreamExampleId(state);
  return {
    configText: state.configText,
    stream: exampleId !== null ? { exampleId } : { text: state.streamText },
    encoding: state.encoding,
    tokenizer: state.tokenizer,
    now: state.now,
    selectedTool: state.selectedTool,
    view: state.view,
    diffLayout: state.diffLayout,
    ...(isDefaultReadings(state.readings) ? {} : { readings: getChangedReadings(state.readings) }),
    // The policy in force is written when it is a runtime's, chosen or the file's own: a link
    // holds the JP events of an import, whose format the page that opens it no longer knows.
    ...(writeReplay({ replay: selectReplayChoice(state) }) === undefined
      ? {}
      : { replay: selectReplayChoice(state) }),
  };
}

/** Characters of text a state carries besides its settings. */
function textSize(state: ShareState): number {
  return state.configText.length + ('text' in state.stream ? state.stream.text.length : 0);
}

/** Whether a state holds work of the user's: anything but an example as it loads. */
function isEdited(state: ShareState): boolean {
  if ('text' in state.stream) return true;
  return findExample(state.stream.exampleId)?.configText !== state.configText;
}

function sameText(a: ShareState, b: ShareState): boolean {
  return a.configText === b.configText && JSON.stringify(a.stream) === JSON.stringify(b.stream);
}

/**
 * Offers to bring `previous` back when `next` replaced it and it was the
 * user's work. `byLink`: Back to an address without a link restores it.
 */
function offerRestore(previous: ShareState, next: ShareState, byLink: boolean): void {
  if (!isEdited(previous) || sameText(previous, next)) return;
  store.setState({ restoreOffer: { state: previous, byLink } });
}

/**
 * Puts a state in the editors and starts a run; false when it names an
 * unknown example. Edited work it replaces is saved first and offered back.
 */
function applyShareState(share: ShareState, byLink = false): boolean {
  const example = 'exampleId' in share.stream ? findExample(share.stream.exampleId) : undefined;
  let streamText: string;
  if ('text' in share.stream) streamText = share.stream.text;
  else if (example) streamText = example.streamText;
  else return false;
  flushShare();
  // Before the start has put anything in the editors they hold the store's
  // empty initial state, which is no work of anyone's.
  if (unsubscribe !== null) offerRestore(toShareState(store.getState()), share, byLink);
  applying = true;
  store.setState({
    configText: share.configText,
    streamText,
    encoding: share.encoding,
    tokenizer: share.tokenizer,
    now: share.now,
    view: share.view,
    streamFileName: null,
    exampleId: example?.id ?? null,
    selectedTool: share.selectedTool,
    selectedEventKey: null,
    diffLayout: share.diffLayout,
    readings: withReadings(share.readings),
    replayChoice: { ...DEFAULT_REPLAY_CHOICE, ...share.replay },
  });
  applying = false;
  runAnalysis();
  return true;
}

// ---------------------------------------------------------------- start

/** Connects the share actions to the examples and the browser; call once at start-up. */
export function initShare(next: ShareDeps): void {
  disposeShare();
  deps = next;
  tabId = readTabId(next.env.session);
}

/** Stops following the state and forgets the browser (tests, between cases). */
export function disposeShare(): void {
  pendingPersist.cancel();
  unsubscribe?.();
  unsubscribe = null;
  removeLifecycle?.();
  removeLifecycle = null;
  releaseTab();
  releaseTab = () => {};
  deps = null;
  autosaver = null;
  lastEntry = null;
  defaultStart = null;
}

/**
 * Loads the state the page starts from (see {@link chooseStart}), opens the
 * link dialog when a link could not be used, and from then on keeps the
 * address and the autosave in step with the state.
 */
export async function startPlayground(): Promise<StartChoice | null> {
  if (!deps) return null;
  const { env, examples, defaultExampleId } = deps;
  // A first visit has nothing to choose from but the default example: its
  // figures do not wait for the tab's claim and IndexedDB (200 to 300 ms).
  const firstVisit = isFirstVisit(env) ? loadDefaultExample() : null;
  // A duplicated tab finds the id of a tab that is still open: it takes a new one.
  const claim = await claimTab(
    env.locks ?? null,
    env.session,
    tabId,
    env.reloaded ? RELOAD_CLAIM_WAIT_MS : 0,
  );
  if (deps?.env !== env) {
    claim.release();
    return null;
  }
  tabId = claim.tab;
  releaseTab = claim.release;
  const reading = await readAutosaves(env.autosave, env.session, tabId);
  if (!deps) return null;
  const slot = reading.own ?? reading.latest;
  const newest = slot?.entries[0];
  let saved: SavedState | null = null;
  if (slot && newest) {
    const meta = { tab: slot.tab, hash: newest.hash, savedAt: newest.savedAt };
    saved = decodeSavedText(newest, meta, examples);
  }
  if (!slot) saved = readLegacyAutosave(env.storage, examples);
  if (env.autosave) {
    const locks = env.locks ?? null;
    autosaver = createAutosaver(env.autosave, env.session, tabId, reading.own, () =>
      getLiveTabs(locks),
    );
  }
  const choice = chooseStart(env.location, saved, examples, tabId);
  if (firstVisit) await firstVisit;
  // A first visit shows the default example already. Saved work without the
  // mark (an earlier version of the page wrote it) replaces it unless it was
  // changed meanwhile; a link put in the address meanwhile opens as below.
  if (firstVisit && choice.source === 'autosave') {
    resumeUnmarkedWork(choice.state, saved?.note);
    followState();
    return choice;
  }
  if (firstVisit && choice.source === 'default' && choice.problem === null) {
    followState();
    return choice;
  }
  let problemFallback: string | null = null;
  if (choice.source === 'link') {
    applyShareState(choice.state);
    notifyOldState('link', choice.note);
    if (choice.dropped !== undefined) {
      showLinkProblem({
        title: 'Part of this link could not be used',
        what: `This link opened, but ${choice.dropped}`,
        loadedInstead: 'Everything else the link holds is open as its author left it.',
      });
    }
    // A link opened in this tab over its own saved work replaced that work:
    // it stays one click away. Another tab's work was not replaced (it is in
    // that tab, or in the recent states).
    if (saved && reading.own) offerRestore(saved.state, choice.state, true);
  } else if (choice.source === 'autosave') {
    applyShareState(choice.state);
    notifyOldState('saved', saved?.note);
    problemFallback = 'The playground shows the state it saved in this browser last time instead.';
  } else {
    if (!firstVisit) await loadDefaultExample();
    const title = findExample(defaultExampleId)?.title;
    problemFallback = `The playground shows the default example${title ? `, “${title}”,` : ''} instead.`;
  }
  if (choice.source !== 'link' && choice.problem !== null) {
    showLinkProblem({
      title: 'This link could not be opened',
      what: choice.problem,
      loadedInstead: problemFallback ?? '',
    });
  }
  followState();
  return choice;
}

/**
 * Loads the default example as the start does, and keeps it as the state
 * that is no work of the user's (the saved-work mark is not set for it).
 */
async function loadDefaultExample(): Promise<void> {
  if (!deps) return;
  const loaded = await loadExample(deps.defaultExampleId);
  if (!loaded) runAnalysis();
  defaultStart = toAutosaveEntry(toShareState(store.getState()), '', 0);
}

/** Whether the store holds the default example exactly as the start loaded it. */
function isDefaultStart(entry: AutosaveEntry): boolean {
  return defaultStart !== null && isSameSavedState(entry, defaultStart);
}

/**
 * A first visit found saved work after all (saved by an earlier version of
 * the page, or the mark could not be written): it takes the place of the
 * default example, as the start would have chosen it; over a change made
 * meanwhile it is offered back instead.
 */
function resumeUnmarkedWork(state: ShareState, note: string | undefined): void {
  if (!deps) return;
  const current = toShareState(store.getState());
  if (!isDefaultStart(toAutosaveEntry(current, '', 0))) {
    offerRestore(state, current, false);
    return;
  }
  // The store holds the default start, so the work is the same state when it is that start.
  // Settings count too: a save that changed only the tokenizer or a reading is work.
  if (isDefaultStart(toAutosaveEntry(state, '', 0))) return;
  applyShareState(state);
  notifyOldState('saved', note);
}

/**
 * Says that a link or the state saved in this browser was written by an
 * earlier version of the page, with what its reading changed (`note`);
 * nothing when there is no note.
 */
function notifyOldState(what: 'link' | 'saved', note: string | null | undefined): void {
  if (note === null || note === undefined) return;
  const which = what === 'link' ? 'This link' : 'The state saved in this browser';
  notify(`${which} is an old one. ${note}`, 'info');
}

// ---------------------------------------------------------------- following the state

const SHARED_FIELDS = [
  'configText',
  'streamText',
  'exampleId',
  'encoding',
  'tokenizer',
  'now',
  'view',
  'selectedTool',
  'diffLayout',
  'readings',
  'replayChoice',
] as const satisfies readonly (keyof AppState)[];

function followState(): void {
  if (!deps) return;
  unsubscribe?.();
  unsubscribe = store.subscribe((state, previous) => {
    if (!SHARED_FIELDS.some((field) => !Object.is(state[field], previous[field]))) return;
    if (!applying && state.exampleId !== null && state.exampleId !== previous.exampleId) {
      // An example replaced the editors: keep what they held, saved and offered back.
      const before = toShareState(previous);
      flushShare();
      if (isEdited(before) && !sameText(before, toShareState(state))) {
        saveEntry(before, ownHash(deps?.env.location ?? { hash: '' }));
        offerRestore(before, toShareState(state), false);
      }
    }
    schedulePersist();
  });
  // Write the address for the state just loaded, after the same quiet time.
  schedulePersist();
  if (typeof window !== 'undefined' && typeof document !== 'undefined') {
    // A reload or a closed tab in the middle of typing must not lose the
    // last keystrokes: save at once when the page is hidden.
    const onHide = () => {
      flushShare();
      stashUnsaved();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') onHide();
    };
    // A link pasted into the address bar of an open tab changes only the hash.
    const onHashChange = () => openAddressLink();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('hashchange', onHashChange);
    removeLifecycle = () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('hashchange', onHashChange);
    };
  }
}

/**
 * Opens the link now in the address (a hash changed by hand, not by us:
 * `replaceState` fires no `hashchange`). A link that cannot be used changes
 * nothing and opens the dialog.
 */
export function openAddressLink(): void {
  if (!deps) return;
  const hash = linkHash(deps.env.location);
  if (hash === '') {
    // Back from a link to the address of a state too large for one: that state.
    const offer = store.getState().restoreOffer;
    if (offer?.byLink) restorePreviousWork();
    return;
  }
  const decoded = decodeAppLink(hash, deps.examples);
  if (decoded.ok) {
    applyShareState(decoded.state, true);
    notifyOldState('link', decoded.migrationNote);
    return;
  }
  showLinkProblem({
    title: 'This link could not be opened',
    what: decoded.message,
    loadedInstead: 'Nothing was changed: the playground still shows what it showed before.',
  });
}

function schedulePersist(): void {
  pendingPersist.schedule(deps?.debounceMs ?? DEFAULT_DEBOUNCE_MS);
}

/**
 * Saves now what is pending. The autosave goes first and records the address
 * as it is: a reload already under way reloads that address, and
 * {@link chooseStart} then knows the autosave is newer than its link.
 */
export function flushShare(): void {
  if (!pendingPersist.pending) return;
  pendingPersist.cancel();
  autosave();
  writeAddress();
}

/**
 * Reloads the page with the work kept: the address and the autosave are
 * written first. `pagehide` writes them too, but by then the reload has
 * taken the address as it was, and the new page may not yet own the old
 * one's autosave (its tab lock), so a change made within the quiet time
 * before the click would be lost.
 */
export function reloadKeepingWork(): void {
  flushShare();
  window.location.reload();
}

/** The address without its hash. */
function baseUrl(env: ShareEnvironment): string {
  const href = env.location.href;
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

/** Puts the state's link in the address bar, or clears it when the state is too large. */
function writeAddress(): void {
  const history = deps?.env.history;
  if (!deps || !history) return;
  const { env, examples } = deps;
  const share = toShareState(store.getState());
  const base = baseUrl(env);
  const size = textSize(share);
  let hash = '';
  let tooLarge: number | null = null;
  if (size > ADDRESS_MAX_CHARS) {
    tooLarge = size;
  } else {
    hash = encodeAppLink(share, examples);
    if (describeLinkLength(base.length + hash.length).fit === 'too-long') {
      tooLarge = base.length + hash.length;
      hash = '';
    }
  }
  const address = store.getState().address;
  if (tooLarge === null) {
    if (address.kind !== 'follows') store.setState({ address: { kind: 'follows' } });
  } else if (address.kind !== 'too-large' || address.chars !== tooLarge) {
    // Said where a link is made (the Copy link panel), not on every file open.
    store.setState({ address: { kind: 'too-large', chars: tooLarge } });
  }
  if (ownHash(env.location) !== hash) {
    try {
      history.replaceState(history.state, '', `${base}${hash}`);
    } catch (error) {
      // Some embedding pages forbid it; the state is still autosaved.
      console.warn(error);
    }
  }
}

/** Saves the state in this tab's slot; says so once when the browser refuses it. */
function autosave(): void {
  if (!deps) return;
  if (!autosaver) {
    if (store.getState().autosave.kind !== 'unavailable') {
      store.setState({ autosave: { kind: 'unavailable' } });
    }
    return;
  }
  const share = toShareState(store.getState());
  const size = textSize(share);
  if (size > AUTOSAVE_MAX_CHARS) {
    refuseAutosave(size, true);
    return;
  }
  saveEntry(share, ownHash(deps.env.location));
}

/** Hands a state to the autosaver (unless it is the one saved last) and follows the outcome. */
function saveEntry(share: ShareState, hash: string): void {
  const saver = autosaver;
  if (!saver) return;
  // Strictly increasing, so the newer of two saves in one millisecond wins at the start.
  const savedAt = Math.max(Date.now(), (lastEntry?.entry.savedAt ?? 0) + 1);
  const entry = toAutosaveEntry(share, hash, savedAt);
  if (lastEntry && isSameSavedState(lastEntry.entry, entry) && lastEntry.entry.hash === hash)
    return;
  const pending = { entry, done: false };
  lastEntry = pending;
  void saver.save(pending.entry).then((outcome) => {
    if (autosaver !== saver) return;
    pending.done = true;
    if (lastEntry !== pending) return;
    if (outcome.ok) {
      if (!isDefaultStart(pending.entry)) markSavedWork(deps?.env.storage ?? null);
      store.setState({ autosave: { kind: 'on' }, autosavedAt: outcome.savedAt });
    } else {
      console.warn(outcome.error);
      // The next try must write again.
      lastEntry = null;
      refuseAutosave(entryChars(pending.entry), outcome.quota);
    }
  });
}

/** A reload under way may cut the IndexedDB write short: keep the state in this tab's session too. */
function stashUnsaved(): void {
  if (autosaver && lastEntry && !lastEntry.done) autosaver.stash(lastEntry.entry);
}

/** Says once that this state is not saved; the last good save stays where it is. */
function refuseAutosave(chars: number, tooLarge: boolean): void {
  const previous = store.getState().autosave;
  if (tooLarge) {
    store.setState({ autosave: { kind: 'too-large', chars } });
    if (previous.kind !== 'too-large') {
      notify(
        `Autosave could not keep this state: at ${formatSize(chars, 'MB', 'characters')} it is more than this browser lets the page store. The previous save is kept; download a playground file to keep this one.`,
        'info',
      );
    }
  } else {
    store.setState({ autosave: { kind: 'unavailable' } });
    if (previous.kind !== 'unavailable') {
      notify('Autosave is off: this browser does not let the page store anything.', 'info');
    }
  }
}

// ---------------------------------------------------------------- actions

/** A link to the current state, or why there is none. */
export type ShareLink =
  | {
      kind: 'link';
      url: string;
      /** The whole URL's length in characters. */
      chars: number;
      fit: ShareLinkFit;
      /** A sentence about the length (`describeLinkLength`). */
      message: string;
    }
  | { kind: 'too-large'; chars: number; message: string };

/** The link to the current state (always with its hash, even for the defaults). */
export function getShareLink(): ShareLink | null {
  if (!deps) return null;
  const share = toShareState(store.getState());
  const size = textSize(share);
  if (size > LINK_MAX_CHARS) {
    return {
      kind: 'too-large',
      chars: size,
      message: `This state holds ${formatSize(size, 'MB', 'characters')} of text, far more than a link can carry (browsers accept about 32,000 characters). Download a playground file instead.`,
    };
  }
  const url = `${baseUrl(deps.env)}${encodeAppLink(share, deps.examples)}`;
  const { fit, message } = describeLinkLength(url.length);
  return { kind: 'link', url, chars: url.length, fit, message };
}

/** The current state as a playground file's text. */
export function getPlaygroundFileText(): string {
  return encodePlaygroundFile(toShareState(store.getState()));
}

/**
 * Opens a playground file's text. A file that cannot be used changes nothing
 * and opens the dialog that says why; resolves whether it was loaded.
 */
export function openPlaygroundFile(text: string, name: string): boolean {
  const decoded = decodePlaygroundFile(text);
  let problem: string | null = null;
  if (!decoded.ok) problem = decoded.message;
  else if (!applyShareState(decoded.state)) {
    const stream = decoded.state.stream;
    problem = `This file names the example “${'exampleId' in stream ? stream.exampleId : ''}”, which this version of the playground does not have.`;
  }
  if (problem === null) {
    if (decoded.ok && decoded.migrationNote !== undefined) {
      notify(`${name} is an old playground file. ${decoded.migrationNote}`, 'info');
    }
    return true;
  }
  showLinkProblem({
    title: `${name} could not be opened`,
    what: problem,
    loadedInstead: 'Nothing was changed: the playground still shows what it showed before.',
  });
  return false;
}

/** Forgets this tab's autosave and loads the default example with default settings. */
export async function startFresh(): Promise<boolean> {
  if (!deps) return false;
  await autosaver?.forget();
  lastEntry = null;
  forgetLegacyAutosave(deps.env.storage);
  store.setState({
    restoreOffer: null,
    tokenizer: SHARE_DEFAULTS_V1.tokenizer,
    diffLayout: SHARE_DEFAULTS_V1.diffLayout,
    readings: DEFAULT_READINGS,
    autosave: { kind: 'on' },
    autosavedAt: null,
  });
  // Asked for and confirmed: nothing to offer back.
  applying = true;
  try {
    return await loadExample(deps.defaultExampleId);
  } finally {
    applying = false;
  }
}

function forgetLegacyAutosave(storage: StorageLike | null): void {
  try {
    storage?.removeItem(AUTOSAVE_KEY);
    storage?.removeItem(AUTOSAVE_META_KEY);
  } catch {
    // Nothing more can be done.
  }
}

/** A state this browser keeps besides this tab's own (another tab's, or a dropped slot's). */
export interface RecentState {
  savedAt: number;
  /** What it holds, in a few words: the example, or the stream's size. */
  summary: string;
  state: ShareState;
}

/** The recent states, newest first (see `readRecentStates`); the ones this page cannot open are left out. */
export async function getRecentStates(): Promise<RecentState[]> {
  if (!deps) return [];
  const { env, examples } = deps;
  const entries = await readRecentStates(env.autosave, tabId);
  const states: RecentState[] = [];
  for (const entry of entries) {
    const saved = decodeSavedText(entry, null, examples);
    if (saved)
      states.push({ savedAt: entry.savedAt, summary: summarize(saved.state), state: saved.state });
  }
  return states;
}

function summarize(state: ShareState): string {
  if ('exampleId' in state.stream) {
    const example = findExample(state.stream.exampleId);
    const title = `the example “${example?.title ?? state.stream.exampleId}”`;
    return example?.configText === state.configText ? title : `${title}, config edited`;
  }
  return `a stream of ${formatSize(state.stream.text.length, 'MB', 'characters')}`;
}

/** Opens a recent state; the work it replaces is offered back. */
export function openRecentState(recent: RecentState): void {
  applyShareState(recent.state);
}

/** Brings back the work a link, file or example replaced. */
export function restorePreviousWork(): void {
  const offer = store.getState().restoreOffer;
  if (!offer) return;
  store.setState({ restoreOffer: null });
  applying = true;
  applyShareState(offer.state);
  applying = false;
  // Restoring replaced the link's state, which is no work of the user's to offer back.
  store.setState({ restoreOffer: null });
}
