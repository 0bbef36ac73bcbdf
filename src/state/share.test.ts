import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_READINGS } from '../core/compaction/readings.ts';
import {
  decodeAppLink,
  encodeAppLink,
  getShareDefaults,
  SHARE_DEFAULTS_V1,
} from '../core/share/app-link.ts';
import { decodePlaygroundFile, encodePlaygroundFile } from '../core/share/playground-file.ts';
import type { ShareState } from '../core/share/share-codec.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from '../examples/index.ts';
import { createFakeEngine } from '../test/fake-engine.ts';
import pinnedText from '../test/fixtures/share-links/app-v1.json?raw';
import codecFixtureText from '../test/fixtures/share-links/v1.json?raw';
import {
  disposeActions,
  initActions,
  loadExample,
  setConfigText,
  setReading,
  setStreamText,
  setTokenizer,
} from './actions.ts';
import {
  type KeyValueStore,
  PENDING_KEY,
  SLOT_INDEX_KEY,
  SLOT_KEY_PREFIX,
  STREAM_KEY_PREFIX,
} from './autosave.ts';
import {
  disposeShare,
  getPlaygroundFileText,
  getRecentStates,
  getShareLink,
  initShare,
  openPlaygroundFile,
  openRecentState,
  restorePreviousWork,
  startFresh,
  startPlayground,
  toShareState,
} from './share.ts';
import { setDiffLayout } from './share-actions.ts';
import {
  AUTOSAVE_KEY,
  chooseStart,
  SAVED_WORK_KEY,
  type SavedState,
  type ShareEnvironment,
  type StorageLike,
  TAB_KEY,
} from './share-start.ts';
import { resetStore, store } from './store.ts';
import { TAB_LOCK_PREFIX, type TabLocks } from './tab-claim.ts';

/** A Map-backed storage; `failWith` makes every write throw that error. */
function createStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  const storage: StorageLike & { items: Map<string, string>; failWith: Error | null } = {
    items,
    failWith: null,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      if (storage.failWith) throw storage.failWith;
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
  return storage;
}

/**
 * A Map-backed stand-in for idb-keyval: values are cloned as IndexedDB
 * clones them, every call resolves later, and `failWith` makes writes reject.
 */
function createKeyValue() {
  const items = new Map<string, unknown>();
  const kv: KeyValueStore & { items: Map<string, unknown>; failWith: Error | null } = {
    items,
    failWith: null,
    get: async (key) => structuredClone(items.get(key)),
    async set(key, value) {
      await Promise.resolve();
      if (kv.failWith) throw kv.failWith;
      items.set(key, structuredClone(value));
    },
    async del(key) {
      items.delete(key);
    },
    async update(key, updater) {
      if (kv.failWith) throw kv.failWith;
      items.set(key, structuredClone(updater(structuredClone(items.get(key)))));
    },
  };
  return kv;
}

/** The states of a tab's slot, newest first, as their config texts. */
function savedConfigs(kv: ReturnType<typeof createKeyValue>, tab: string): string[] {
  const slot = kv.items.get(`${SLOT_KEY_PREFIX}${tab}`) as { entries: { text: string }[] };
  return (slot?.entries ?? []).map((entry) => {
    const decoded = decodePlaygroundFile(entry.text);
    return decoded.ok ? decoded.state.configText : '(unreadable)';
  });
}

/** An address and a history that rewrites it, like the browser's. */
function createAddress(hash = '') {
  const address = {
    href: `https://playground.test/app/${hash}`,
    get hash() {
      const at = address.href.indexOf('#');
      return at === -1 ? '' : address.href.slice(at);
    },
  };
  const history = {
    state: null,
    urls: [] as string[],
    replaceState(_data: unknown, _unused: string, url: string) {
      address.href = url;
      history.urls.push(url);
    },
  };
  return { location: address, history };
}

function environment(
  hash = '',
  kv = createKeyValue(),
  session = createStorage(),
  storage = createStorage(),
) {
  const { location, history } = createAddress(hash);
  const env: ShareEnvironment = { location, history, autosave: kv, storage, session };
  return { env, location, history, kv, storage, session };
}

const DEFAULT_EXAMPLE = EXAMPLES.find((example) => example.id === DEFAULT_EXAMPLE_ID);
const OTHER = EXAMPLES.find((example) => example.id === 'hint-omit');
if (!DEFAULT_EXAMPLE || !OTHER)
  throw new Error('the tests need the coding-session and hint-omit examples');

function stateOf(patch: Partial<ShareState> = {}): ShareState {
  const base = getShareDefaults(EXAMPLES);
  if (!base) throw new Error('no defaults');
  return { ...base, ...patch };
}

beforeEach(() => {
  vi.useFakeTimers();
  resetStore();
  initActions({
    engine: createFakeEngine(),
    examples: EXAMPLES.map((example) => ({ ...example, load: () => example })),
  });
});

afterEach(() => {
  disposeShare();
  disposeActions();
  vi.useRealTimers();
});

function init(env: ShareEnvironment) {
  initShare({ examples: EXAMPLES, defaultExampleId: DEFAULT_EXAMPLE_ID, env, debounceMs: 100 });
}

describe('the v1 defaults', () => {
  it('are frozen, and name the coding session', () => {
    expect(Object.isFrozen(SHARE_DEFAULTS_V1)).toBe(true);
    expect(SHARE_DEFAULTS_V1).toEqual({
      exampleId: 'coding-session',
      tokenizer: 'o200k',
      now: null,
      selectedTool: null,
      view: 'sanitized',
      diffLayout: 'side-by-side',
    });
  });

  it('take the config and encoding of the example a state names', () => {
    const defaults = getShareDefaults(EXAMPLES, 'hint-omit');
    expect(defaults?.configText).toBe(OTHER.configText);
    expect(defaults?.encoding).toBe(OTHER.encoding);
    // The stream default stays the v1 example, so a link always says which example it names.
    expect(defaults?.stream).toEqual({ exampleId: 'coding-session' });
    expect(getShareDefaults(EXAMPLES, 'no-such-example')).toBeNull();
  });
});

describe('app links', () => {
  it('hold nothing but a checksum for the default example as it loads', () => {
    const hash = encodeAppLink(stateOf(), EXAMPLES);
    expect(hash).toBe('#v2/N4Ig1iBcIHYGYAYBOA3ADiAvkA');
    expect(decodeAppLink(hash, EXAMPLES)).toEqual({ ok: true, state: stateOf() });
  });

  it("name another example without its config: that example's config is the default", () => {
    const state = stateOf({
      configText: OTHER.configText,
      stream: { exampleId: OTHER.id },
      encoding: OTHER.encoding ?? 'auto',
    });
    const hash = encodeAppLink(state, EXAMPLES);
    // Only the example id and the checksum: far shorter than the config.
    expect(hash.length).toBeLessThan(60);
    expect(decodeAppLink(hash, EXAMPLES)).toEqual({ ok: true, state });
  });

  it('carry an edited config, an own stream and every setting', () => {
    const state: ShareState = {
      configText: '[conversation.tools.fs_read_file]\ncompaction = "keep"\n',
      stream: { text: '[]' },
      encoding: 'storage',
      tokenizer: 'cl100k',
      now: '2026-03-01 12:00:00.0',
      selectedTool: 'fs_read_file',
      view: 'bare',
      diffLayout: 'inline',
    };
    expect(decodeAppLink(encodeAppLink(state, EXAMPLES), EXAMPLES)).toEqual({ ok: true, state });
  });

  it('report an example this playground does not have', () => {
    const hash = encodeAppLink(
      { ...stateOf(), stream: { exampleId: 'from-the-future' } },
      EXAMPLES,
    );
    const decoded = decodeAppLink(hash, EXAMPLES);
    expect(decoded).toMatchObject({ ok: false, reason: 'unknown-example' });
    expect(decoded.ok ? '' : decoded.message).toContain('from-the-future');
  });

  it('report a damaged link', () => {
    const hash = encodeAppLink(stateOf({ tokenizer: 'chars' }), EXAMPLES);
    const damaged = `${hash.slice(0, 10)}${hash[10] === 'A' ? 'B' : 'A'}${hash.slice(11)}`;
    expect(decodeAppLink(damaged, EXAMPLES)).toMatchObject({ ok: false });
  });
});

describe('pinned app links (src/test/fixtures/share-links/app-v1.json)', () => {
  const pinned = JSON.parse(pinnedText) as {
    links: { name: string; hash: string; state: ShareState }[];
  };

  it.each(pinned.links.map((link) => [link.name, link] as const))('%s', (_name, link) => {
    // Made before the reading base: opened under JP 4c1c39f1, what its author saw.
    expect(decodeAppLink(link.hash, EXAMPLES)).toMatchObject({
      ok: true,
      state: { ...link.state, readings: { base: '2026-08' } },
      migratedFrom: 1,
    });
  });
});

describe('D17 readings in links', () => {
  it('opens a link made before readings existed with every ruling, under the JP its author saw', async () => {
    const pinned = JSON.parse(pinnedText) as { links: { hash: string }[] };
    const old = pinned.links[1]?.hash ?? '';
    // A reading switched in this tab must not survive opening an old link.
    store.setState({ readings: { ...DEFAULT_READINGS, jp: 'today' } });
    init(environment(old).env);
    await startPlayground();
    expect(store.getState().readings).toEqual({ ...DEFAULT_READINGS, base: '2026-08' });
    expect(store.getState().tokenizer).toBe('cl100k');
    // And it says so, once.
    const notes = store.getState().toasts.filter((toast) => /old one/.test(toast.message));
    expect(notes.map((toast) => toast.message)).toEqual([
      expect.stringContaining('under JP 4c1c39f1 (base 2026-08)'),
    ]);
  });

  it('carries a switched reading to a fresh page, and the run gets it', async () => {
    const first = environment();
    init(first.env);
    await startPlayground();
    setReading('noToolCalls', 'apply');
    setReading('jp', 'today');
    const link = getShareLink();
    const url = link?.kind === 'link' ? link.url : '';
    expect(url).toMatch(/#v2\//);
    disposeShare();
    resetStore();

    const engine = createFakeEngine();
    initActions({
      engine,
      examples: EXAMPLES.map((example) => ({ ...example, load: () => example })),
    });
    init(environment(url.slice(url.indexOf('#'))).env);
    await startPlayground();
    expect(store.getState().readings).toEqual({
      ...DEFAULT_READINGS,
      noToolCalls: 'apply',
      jp: 'today',
    });
    await vi.advanceTimersByTimeAsync(200);
    expect(engine.runs.at(-1)?.input.readings).toEqual({ noToolCalls: 'apply', jp: 'today' });
  });
});

describe("the codec's pinned links (v1.json), made against the fixture's own defaults", () => {
  const fixture = JSON.parse(codecFixtureText) as {
    links: { name: string; hash: string; state: ShareState }[];
  };

  it('open in the app; one that differs from both sets of defaults in every field it holds opens the same', () => {
    for (const link of fixture.links) {
      expect(decodeAppLink(link.hash, EXAMPLES), link.name).toMatchObject({ ok: true });
    }
    const own = fixture.links.find((link) => link.name === 'its own config, stream and now');
    expect(own && decodeAppLink(own.hash, EXAMPLES)).toMatchObject({
      ok: true,
      state: { ...own?.state, readings: { base: '2026-08' } },
    });
  });
});

describe('chooseStart: the address, then the autosave, then the default example', () => {
  const saved = (state: ShareState, meta: SavedState['meta'] = null): SavedState => ({
    state,
    meta,
  });
  const linked = stateOf({ tokenizer: 'cl100k' });
  const autosaved = stateOf({ tokenizer: 'chars' });
  const link = encodeAppLink(linked, EXAMPLES);
  const at = (hash: string) => createAddress(hash).location;

  it('opens the link in the address first', () => {
    expect(chooseStart(at(link), saved(autosaved), EXAMPLES, 'tab')).toEqual({
      source: 'link',
      state: linked,
      note: null,
    });
  });

  it('opens the autosave without a link', () => {
    expect(chooseStart(at(''), saved(autosaved), EXAMPLES, 'tab')).toEqual({
      source: 'autosave',
      state: autosaved,
      resumed: false,
      problem: null,
    });
  });

  it('opens the default example with neither', () => {
    expect(chooseStart(at('#'), null, EXAMPLES, 'tab')).toEqual({
      source: 'default',
      problem: null,
    });
  });

  it('falls back to the autosave, then the default example, when the link is damaged', () => {
    const damaged = `${link.slice(0, -3)}zzz`;
    const withSave = chooseStart(at(damaged), saved(autosaved), EXAMPLES, 'tab');
    expect(withSave).toMatchObject({ source: 'autosave', state: autosaved });
    expect(withSave.source !== 'link' && withSave.problem).toMatch(/damaged|cut off/);
    const without = chooseStart(at(damaged), null, EXAMPLES, 'tab');
    expect(without).toMatchObject({ source: 'default' });
    expect(without.source !== 'link' && without.problem).toBeTruthy();
  });

  it("resumes this tab's autosave when the tab reloads the address it wrote", () => {
    const save = saved(autosaved, { tab: 'tab-1', hash: link, savedAt: 1 });
    expect(chooseStart(at(link), save, EXAMPLES, 'tab-1')).toMatchObject({
      source: 'autosave',
      resumed: true,
    });
    // Another tab opening the same link gets the link.
    expect(chooseStart(at(link), save, EXAMPLES, 'tab-2')).toMatchObject({ source: 'link' });
  });

  it('takes an in-page anchor (the skip link) for no link at all', () => {
    expect(chooseStart(at('#results'), null, EXAMPLES, 'tab')).toEqual({
      source: 'default',
      problem: null,
    });
    expect(chooseStart(at('#v2/abc'), null, EXAMPLES, 'tab')).toMatchObject({
      source: 'default',
      problem: /newer version/,
    });
  });
});

describe('a first visit', () => {
  /** Holds every autosave read until `open()`: what the page shows while IndexedDB opens. */
  function gateReads(kv: KeyValueStore) {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const get = kv.get;
    kv.get = async (key) => {
      await opened;
      return get(key);
    };
    return () => open();
  }

  /** Starts in a tab of its own with edited work, and lets it be saved. */
  async function saveWork(
    kv: ReturnType<typeof createKeyValue>,
    storage: ReturnType<typeof createStorage>,
    change = () => setConfigText('my own work = 1\n'),
  ) {
    init(environment('', kv, createStorage(), storage).env);
    await startPlayground();
    change();
    await vi.advanceTimersByTimeAsync(200);
    disposeShare();
  }

  it('shows the default example before the autosave is read', async () => {
    const { env, kv } = environment();
    const open = gateReads(kv);
    init(env);
    const started = startPlayground();
    // Only microtasks: no timer ran, nothing came from the autosave.
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().configText).toBe(DEFAULT_EXAMPLE.configText);
    expect(store.getState().streamText).toBe(DEFAULT_EXAMPLE.streamText);
    open();
    await started;
    expect(store.getState().exampleId).toBe(DEFAULT_EXAMPLE_ID);
  });

  it('is not one once work was saved: the start waits for the autosave and opens it', async () => {
    const kv = createKeyValue();
    const storage = createStorage();
    await saveWork(kv, storage);
    expect(storage.getItem(SAVED_WORK_KEY)).not.toBeNull();
    resetStore();
    const open = gateReads(kv);
    init(environment('', kv, createStorage(), storage).env);
    const started = startPlayground();
    await Promise.resolve();
    await Promise.resolve();
    // The empty store of a page that has not started: never the default example's figures.
    expect(store.getState().configText).toBe('');
    open();
    await started;
    expect(store.getState().configText).toBe('my own work = 1\n');
  });

  it('leaves the mark for edited work only, not for the default example as it loads', async () => {
    const { env, storage } = environment();
    init(env);
    await startPlayground();
    await vi.advanceTimersByTimeAsync(200);
    expect(store.getState().autosavedAt).not.toBeNull();
    expect(storage.getItem(SAVED_WORK_KEY)).toBeNull();
    setTokenizer('chars');
    await vi.advanceTimersByTimeAsync(200);
    expect(storage.getItem(SAVED_WORK_KEY)).toBe('1');
  });

  /**
   * Saves work in one tab, takes the mark away (as a build before it left
   * things), and starts a new tab with its autosave reads held back.
   */
  async function startOverUnmarkedWork(change?: () => void) {
    const kv = createKeyValue();
    const storage = createStorage();
    await saveWork(kv, storage, change);
    storage.removeItem(SAVED_WORK_KEY);
    resetStore();
    const open = gateReads(kv);
    const { env, location } = environment('', kv, createStorage(), storage);
    init(env);
    const started = startPlayground();
    await Promise.resolve();
    await Promise.resolve();
    return { open, started, location };
  }

  it('opens unmarked work that changed only a setting', async () => {
    const { open, started } = await startOverUnmarkedWork(() => setTokenizer('chars'));
    expect(store.getState().tokenizer).not.toBe('chars');
    open();
    await started;
    expect(store.getState().tokenizer).toBe('chars');
  });

  it('opens a link put in the address while the autosave was read', async () => {
    const { open, started, location } = await startOverUnmarkedWork();
    location.href = `https://playground.test/app/${encodeAppLink(stateOf({ configText: 'from the link = 3\n' }), EXAMPLES)}`;
    open();
    await started;
    expect(store.getState().configText).toBe('from the link = 3\n');
  });

  it('opens work an earlier version saved without the mark, in place of the default example', async () => {
    const { open, started } = await startOverUnmarkedWork();
    expect(store.getState().configText).toBe(DEFAULT_EXAMPLE.configText);
    open();
    await started;
    expect(store.getState().configText).toBe('my own work = 1\n');
    expect(store.getState().restoreOffer).toBeNull();
  });

  it('keeps a change made while the autosave was read, and offers the saved work back', async () => {
    const { open, started } = await startOverUnmarkedWork();
    setConfigText('typed at once = 2\n');
    open();
    await started;
    expect(store.getState().configText).toBe('typed at once = 2\n');
    expect(store.getState().restoreOffer?.state.configText).toBe('my own work = 1\n');
  });
});

describe('startPlayground', () => {
  it('opens a link: the editors, the settings and the selection', async () => {
    const state = stateOf({
      configText: 'x = 1\n',
      tokenizer: 'chars',
      selectedTool: 'run_tests',
      diffLayout: 'inline',
    });
    const { env } = environment(encodeAppLink(state, EXAMPLES));
    init(env);
    await startPlayground();
    const s = store.getState();
    expect(s.configText).toBe('x = 1\n');
    expect(s.streamText).toBe(DEFAULT_EXAMPLE.streamText);
    expect(s.exampleId).toBe('coding-session');
    expect(s.tokenizer).toBe('chars');
    expect(s.selectedTool).toBe('run_tests');
    expect(s.diffLayout).toBe('inline');
    expect(s.linkProblem).toBeNull();
    expect(toShareState(s)).toEqual(state);
  });

  it('opens the dialog for a damaged link and shows the default example', async () => {
    const { env } = environment('#v1/N4IgHiBcIHYGYAYBOA3ADiAvkA');
    init(env);
    await startPlayground();
    const { linkProblem, exampleId } = store.getState();
    expect(exampleId).toBe(DEFAULT_EXAMPLE_ID);
    expect(linkProblem?.what).toMatch(/damaged/);
    expect(linkProblem?.loadedInstead).toContain(DEFAULT_EXAMPLE.title);
  });

  it('opens the dialog for a link to an unknown example', async () => {
    const hash = encodeAppLink({ ...stateOf(), stream: { exampleId: 'gone' } }, EXAMPLES);
    init(environment(hash).env);
    await startPlayground();
    expect(store.getState().linkProblem?.what).toContain('“gone”');
  });

  it('keeps the address and the autosave in step with the state, after a quiet time', async () => {
    const { env, history, kv } = environment();
    init(env);
    await startPlayground();
    await vi.advanceTimersByTimeAsync(100);
    const first = history.urls.at(-1);
    expect(first).toBe('https://playground.test/app/#v2/N4Ig1iBcIHYGYAYBOA3ADiAvkA');

    setConfigText('a = 1\n');
    setConfigText('a = 12\n');
    await vi.advanceTimersByTimeAsync(50);
    expect(history.urls.at(-1)).toBe(first);
    await vi.advanceTimersByTimeAsync(60);
    const hash = history.urls.at(-1)?.split('/app/')[1] ?? '';
    expect(decodeAppLink(hash, EXAMPLES)).toMatchObject({ state: { configText: 'a = 12\n' } });

    const tab = env.session?.getItem(TAB_KEY) ?? '';
    expect(savedConfigs(kv, tab)[0]).toBe('a = 12\n');
    const slot = kv.items.get(`${SLOT_KEY_PREFIX}${tab}`) as { entries: { hash: string }[] };
    expect(slot.entries[0]?.hash).toBe(hash);
    expect(kv.items.get(SLOT_INDEX_KEY)).toMatchObject({ tabs: [{ tab }] });
  });

  it('saves at once when the page is hidden, and keeps that state in the tab session too', async () => {
    const { env, kv, session } = environment();
    init(env);
    await startPlayground();
    setConfigText('typed just before a reload\n');
    window.dispatchEvent(new Event('pagehide'));
    // IndexedDB may not finish while the page unloads: sessionStorage holds it at once.
    expect(JSON.parse(session.items.get(PENDING_KEY) ?? '{}').text).toContain(
      'typed just before a reload',
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(savedConfigs(kv, session.items.get(TAB_KEY) ?? '')[0]).toBe(
      'typed just before a reload\n',
    );
    // Once stored, the session copy is no longer needed.
    expect(session.items.has(PENDING_KEY)).toBe(false);
  });

  it('comes back after a reload in the middle of typing, even with an older link in the address', async () => {
    const first = environment();
    init(first.env);
    await startPlayground();
    setConfigText('b = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    const address = first.location.hash;
    setConfigText('b = 12345\n');
    window.dispatchEvent(new Event('pagehide'));
    // The unload cuts the IndexedDB write short: only the session copy is left.
    first.kv.failWith = new Error('the page went away');
    disposeShare();
    resetStore();
    first.kv.failWith = null;

    // The reload: the same address (whose hash is one edit behind), storage and tab.
    const reload = environment(address, first.kv, first.session);
    init(reload.env);
    await startPlayground();
    expect(store.getState().configText).toBe('b = 12345\n');
  });

  it("gives each tab its own slot: a reload of tab A shows tab A's work", async () => {
    const kv = createKeyValue();
    const a = environment('', kv);
    init(a.env);
    await startPlayground();
    setStreamText('[{"a": 1}]');
    await vi.advanceTimersByTimeAsync(100);
    disposeShare();
    resetStore();

    const b = environment('', kv);
    init(b.env);
    await startPlayground();
    // A new tab opens the work saved last, then goes its own way.
    expect(store.getState().streamText).toBe('[{"a": 1}]');
    setStreamText('[{"b": 2}]');
    await vi.advanceTimersByTimeAsync(100);
    disposeShare();
    resetStore();

    init(environment('', kv, a.session).env);
    await startPlayground();
    expect(store.getState().streamText).toBe('[{"a": 1}]');
  });

  describe('a large stream', () => {
    /** A stream of about 180,000 characters (past the 100,000 kept apart), told apart by `mark`. */
    const largeStream = (mark: number) => `[${`{"a": ${mark}},`.repeat(18_000)}{"a": 0}]`;
    const streamRecords = (kv: ReturnType<typeof createKeyValue>) =>
      [...kv.items.keys()].filter((key) => key.startsWith(STREAM_KEY_PREFIX));

    it('is written once: a config edit over it writes a few KB, and a reload brings both back', async () => {
      const { env, kv, session } = environment();
      const writes: { key: string; chars: number }[] = [];
      const set = kv.set;
      kv.set = async (key, value) => {
        writes.push({ key, chars: JSON.stringify(value).length });
        await set(key, value);
      };
      init(env);
      await startPlayground();
      const stream = largeStream(1);
      setStreamText(stream);
      await vi.advanceTimersByTimeAsync(100);
      const afterOpen = writes.length;
      setConfigText('x = 1\n');
      await vi.advanceTimersByTimeAsync(100);
      setConfigText('x = 12\n');
      await vi.advanceTimersByTimeAsync(100);

      expect(writes.filter((write) => write.key.startsWith(STREAM_KEY_PREFIX))).toHaveLength(1);
      const edits = writes.slice(afterOpen);
      expect(edits.length).toBeGreaterThan(0);
      // The slot holds three states by now (the stream, then two configs): each config's text only.
      for (const write of edits) expect(write.chars).toBeLessThan(20_000);
      expect(streamRecords(kv)).toHaveLength(1);

      disposeShare();
      resetStore();
      init(environment('', kv, session).env);
      await startPlayground();
      expect(store.getState().configText).toBe('x = 12\n');
      expect(store.getState().streamText).toBe(stream);
    });

    it('is deleted once no saved state names it, and with the slot when starting fresh', async () => {
      const { env, kv } = environment();
      init(env);
      await startPlayground();
      // The example, then six streams: the slot keeps its five newest states (six streams' five).
      for (const mark of [1, 2, 3, 4, 5, 6]) {
        setStreamText(largeStream(mark));
        await vi.advanceTimersByTimeAsync(100);
      }
      const kept = streamRecords(kv).map((key) => kv.items.get(key));
      expect(kept).toHaveLength(5);
      expect(kept).not.toContain(largeStream(1));
      expect(kept).toContain(largeStream(2));
      expect(kept).toContain(largeStream(6));

      await startFresh();
      expect(streamRecords(kv)).toEqual([]);
    });

    it('whose record is gone leaves out that state only: the one before it opens', async () => {
      const { env, kv, session } = environment();
      init(env);
      await startPlayground();
      setStreamText('[{"small": 1}]');
      await vi.advanceTimersByTimeAsync(100);
      setStreamText(largeStream(1));
      await vi.advanceTimersByTimeAsync(100);
      for (const key of streamRecords(kv)) kv.items.delete(key);

      disposeShare();
      resetStore();
      init(environment('', kv, session).env);
      await startPlayground();
      expect(store.getState().streamText).toBe('[{"small": 1}]');
    });
  });

  it('keeps the last good save, and says so, when the browser refuses a state', async () => {
    const { env, kv, session } = environment();
    init(env);
    await startPlayground();
    setConfigText('good = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    kv.failWith = Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    setConfigText('too big = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    const s = store.getState();
    expect(s.autosave).toMatchObject({ kind: 'too-large' });
    expect(savedConfigs(kv, session.items.get(TAB_KEY) ?? '')[0]).toBe('good = 1\n');
    expect(s.toasts.map((toast) => toast.message).join(' ')).toMatch(/previous save is kept/);

    kv.failWith = null;
    setConfigText('fits = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    expect(store.getState().autosave).toEqual({ kind: 'on' });
    expect(savedConfigs(kv, session.items.get(TAB_KEY) ?? '').slice(0, 2)).toEqual([
      'fits = 1\n',
      'good = 1\n',
    ]);
  });

  it('opens the state an earlier version left in localStorage', async () => {
    const legacy = createStorage({
      [AUTOSAVE_KEY]: encodePlaygroundFile(stateOf({ configText: 'old = 1\n' })),
    });
    init(environment('', createKeyValue(), createStorage(), legacy).env);
    await startPlayground();
    expect(store.getState().configText).toBe('old = 1\n');
  });

  it('leaves the address without state when the state is too large, and says so only where a link is made', async () => {
    const { env, history } = environment();
    init(env);
    await startPlayground();
    await vi.advanceTimersByTimeAsync(100);
    expect(history.urls.at(-1)).toContain('#v2/');
    setStreamText(JSON.stringify([noise(150_000)]));
    await vi.advanceTimersByTimeAsync(100);
    expect(history.urls.at(-1)).toBe('https://playground.test/app/');
    expect(store.getState().address).toMatchObject({ kind: 'too-large' });
    // No toast on opening a large state: the Copy link panel says it when a link is asked for.
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual([]);
    // Copy link still tries, and says the link is too long.
    expect(getShareLink()).toMatchObject({ kind: 'link', fit: 'too-long' });
    setStreamText(JSON.stringify([noise(600_000)]));
    expect(getShareLink()).toMatchObject({ kind: 'too-large' });
  });
});

/** Text that does not compress: a link to it is as long as it is. */
function noise(length: number): string {
  let seed = 42;
  let text = '';
  while (text.length < length) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    text += (seed >>> 8).toString(36);
  }
  return text.slice(0, length);
}

describe('a link pasted into the address of an open tab', () => {
  it('opens when the hash changes, and a damaged one changes nothing', async () => {
    const { env, location } = environment();
    init(env);
    await startPlayground();
    const state = stateOf({ tokenizer: 'chars', selectedTool: 'run_tests' });
    location.href = `https://playground.test/app/${encodeAppLink(state, EXAMPLES)}`;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(toShareState(store.getState())).toEqual(state);

    location.href = `${location.href.slice(0, -4)}AAAA`;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(toShareState(store.getState())).toEqual(state);
    expect(store.getState().linkProblem).toMatchObject({
      loadedInstead: expect.stringContaining('Nothing was changed'),
    });
  });
});

describe('playground files and starting fresh', () => {
  it('round-trips the state through a file', async () => {
    init(environment().env);
    await startPlayground();
    setConfigText('c = 1\n');
    setDiffLayout('inline');
    const text = getPlaygroundFileText();
    resetStore();
    expect(openPlaygroundFile(text, 'state.json')).toBe(true);
    expect(store.getState()).toMatchObject({
      configText: 'c = 1\n',
      diffLayout: 'inline',
      exampleId: DEFAULT_EXAMPLE_ID,
    });
  });

  it('changes nothing and says why for a file it cannot read', async () => {
    init(environment().env);
    await startPlayground();
    const before = store.getState().configText;
    expect(openPlaygroundFile('{"format": "something else"}', 'other.json')).toBe(false);
    expect(store.getState().configText).toBe(before);
    expect(store.getState().linkProblem).toMatchObject({
      title: 'other.json could not be opened',
      loadedInstead: expect.stringContaining('Nothing was changed'),
    });
  });

  it('start fresh forgets the autosave and loads the default example', async () => {
    const { env, kv, session } = environment();
    init(env);
    await startPlayground();
    setConfigText('mine\n');
    await vi.advanceTimersByTimeAsync(100);
    const tab = session.items.get(TAB_KEY) ?? '';
    expect(savedConfigs(kv, tab)).toContain('mine\n');
    await startFresh();
    expect(savedConfigs(kv, tab)).not.toContain('mine\n');
    expect(store.getState().configText).toBe(DEFAULT_EXAMPLE.configText);
    expect(store.getState().restoreOffer).toBeNull();
  });
});

describe('restore previous work', () => {
  it('is offered when a link replaces edited work, and brings it back', async () => {
    const { env, location } = environment();
    init(env);
    await startPlayground();
    setConfigText('my work = 1\n');
    const link = stateOf({ tokenizer: 'chars' });
    location.href = `https://playground.test/app/${encodeAppLink(link, EXAMPLES)}`;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(store.getState().configText).toBe(link.configText);
    expect(store.getState().restoreOffer).toMatchObject({ byLink: true });
    restorePreviousWork();
    expect(store.getState().configText).toBe('my work = 1\n');
    expect(store.getState().restoreOffer).toBeNull();
  });

  it("is offered when a link opens in this tab over this tab's saved work", async () => {
    const kv = createKeyValue();
    const first = environment('', kv);
    init(first.env);
    await startPlayground();
    setConfigText('saved work = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    disposeShare();
    resetStore();

    const link = encodeAppLink(stateOf({ configText: 'from a link = 1\n' }), EXAMPLES);
    init(environment(link, kv, first.session).env);
    await startPlayground();
    expect(store.getState().configText).toBe('from a link = 1\n');
    restorePreviousWork();
    expect(store.getState().configText).toBe('saved work = 1\n');
  });

  it('is not offered after a reload or in a new tab, where nothing was replaced', async () => {
    const kv = createKeyValue();
    const first = environment('', kv);
    init(first.env);
    await startPlayground();
    expect(store.getState().restoreOffer).toBeNull();
    setConfigText('saved work = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    const address = first.location.hash;
    disposeShare();
    resetStore();

    // A reload of the same tab, with the address it wrote.
    init(environment(address, kv, first.session).env);
    await startPlayground();
    expect(store.getState().configText).toBe('saved work = 1\n');
    expect(store.getState().restoreOffer).toBeNull();
    disposeShare();
    resetStore();

    // A new tab without a link, then a new tab with another link: the other tab's work is not replaced.
    init(environment('', kv).env);
    await startPlayground();
    expect(store.getState().configText).toBe('saved work = 1\n');
    expect(store.getState().restoreOffer).toBeNull();
    disposeShare();
    resetStore();
    const link = encodeAppLink(stateOf({ configText: 'from a link = 1\n' }), EXAMPLES);
    init(environment(link, kv).env);
    await startPlayground();
    expect(store.getState().configText).toBe('from a link = 1\n');
    expect(store.getState().restoreOffer).toBeNull();
  });

  it("never offers the page's empty start state", async () => {
    const link = encodeAppLink(stateOf({ configText: 'from a link = 1\n' }), EXAMPLES);
    init(environment(link).env);
    await startPlayground();
    expect(store.getState().restoreOffer).toBeNull();
    restorePreviousWork();
    expect(store.getState().configText).toBe('from a link = 1\n');
    expect(store.getState().streamText).not.toBe('');
  });

  it('is offered when an example replaces edited work, not when it replaces an example', async () => {
    init(environment().env);
    await startPlayground();
    await loadExample('hint-omit');
    expect(store.getState().restoreOffer).toBeNull();
    setConfigText('edited = 1\n');
    await loadExample(DEFAULT_EXAMPLE_ID);
    expect(store.getState().restoreOffer).not.toBeNull();
    restorePreviousWork();
    expect(store.getState().configText).toBe('edited = 1\n');
  });

  it('comes back with Back to the address of a state too large for a link', async () => {
    const { env, location } = environment();
    init(env);
    await startPlayground();
    setStreamText(JSON.stringify([noise(150_000)]));
    await vi.advanceTimersByTimeAsync(100);
    expect(location.hash).toBe('');
    const big = store.getState().streamText;
    location.href = `https://playground.test/app/${encodeAppLink(stateOf(), EXAMPLES)}`;
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(store.getState().streamText).not.toBe(big);
    location.href = 'https://playground.test/app/';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(store.getState().streamText).toBe(big);
  });
});

/**
 * Web Locks as the browser keeps them for one origin: one holder per name.
 * `open(tab)` keeps a tab's lock when the test disposes its module state:
 * that tab is still open.
 */
function createTabLocks() {
  const held = new Set<string>();
  const openTabs = new Set<string>();
  const locks: TabLocks = {
    async request(name, _options, callback) {
      if (held.has(name)) return callback(null);
      held.add(name);
      await callback({ name });
      if (!openTabs.has(name.slice(TAB_LOCK_PREFIX.length))) held.delete(name);
    },
    async query() {
      return { held: [...held].map((name) => ({ name })) };
    },
  };
  return { locks, held, open: (tab: string) => openTabs.add(tab) };
}

describe('tab ids', () => {
  it('a duplicated tab (its session copied while the first is open) takes its own id and slot', async () => {
    const kv = createKeyValue();
    const { locks, open } = createTabLocks();
    const first = environment('', kv);
    init({ ...first.env, locks });
    await startPlayground();
    setConfigText('first tab = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    const firstTab = first.session.items.get(TAB_KEY) ?? '';
    // The first tab stays open; the test only needs the module for the second.
    open(firstTab);
    disposeShare();
    resetStore();

    const copied = createStorage(Object.fromEntries(first.session.items));
    const duplicate = environment('', kv, copied);
    init({ ...duplicate.env, locks });
    await startPlayground();
    const duplicateTab = copied.items.get(TAB_KEY) ?? '';
    expect(duplicateTab).not.toBe(firstTab);
    // It starts from the work saved last, then goes its own way in its own slot.
    expect(store.getState().configText).toBe('first tab = 1\n');
    setConfigText('duplicate = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    expect(savedConfigs(kv, firstTab)[0]).toBe('first tab = 1\n');
    expect(savedConfigs(kv, duplicateTab)[0]).toBe('duplicate = 1\n');
  });

  it('a reload keeps its id when the old document lets go of the lock only after the new one starts', async () => {
    const kv = createKeyValue();
    const { locks, held, open } = createTabLocks();
    const first = environment('', kv);
    init({ ...first.env, locks });
    await startPlayground();
    setConfigText('typed before the reload = 1\n');
    await vi.advanceTimersByTimeAsync(100);
    const tab = first.session.items.get(TAB_KEY) ?? '';
    const address = first.location.hash;
    // The old document still holds its lock when the reloaded one starts.
    open(tab);
    disposeShare();
    resetStore();
    setTimeout(() => held.delete(`${TAB_LOCK_PREFIX}${tab}`), 300);

    init({ ...environment(address, kv, first.session).env, locks, reloaded: true });
    const started = startPlayground();
    await vi.advanceTimersByTimeAsync(400);
    await started;
    expect(first.session.items.get(TAB_KEY)).toBe(tab);
    expect(store.getState().configText).toBe('typed before the reload = 1\n');
  });

  it('never drops the slot of an open tab; a dropped slot stays reachable in the recent states', async () => {
    const kv = createKeyValue();
    const { locks, held, open } = createTabLocks();
    // Nine tabs saved one after the other; the first stays open, the others close.
    const sessions: ReturnType<typeof createStorage>[] = [];
    for (let i = 0; i < 9; i++) {
      const env = environment('', kv);
      sessions.push(env.session);
      init({ ...env.env, locks });
      await startPlayground();
      setConfigText(`tab ${i} = 1\n`);
      await vi.advanceTimersByTimeAsync(100);
      if (i === 0) open(env.session.items.get(TAB_KEY) ?? '');
      disposeShare();
      resetStore();
    }
    const tabs = sessions.map((session) => session.items.get(TAB_KEY) ?? '');
    expect(held.has(`${TAB_LOCK_PREFIX}${tabs[0]}`)).toBe(true);
    // Eight slots: the open tab 0 keeps its slot; tab 1, closed and saved longest ago, is dropped…
    expect(savedConfigs(kv, tabs[0] as string)).toEqual(['tab 0 = 1\n']);
    expect(savedConfigs(kv, tabs[1] as string)).toEqual([]);
    // …and its work is in the recent states of a new tab.
    init({ ...environment('', kv).env, locks });
    await startPlayground();
    const recent = await getRecentStates();
    const configs = recent.map((item) => item.state.configText);
    expect(configs).toContain('tab 1 = 1\n');
    expect(configs).toContain('tab 0 = 1\n');
    const dropped = recent.find((item) => item.state.configText === 'tab 1 = 1\n');
    if (!dropped) throw new Error('unreachable');
    expect(dropped.summary).toBe(`the example “${DEFAULT_EXAMPLE.title}”, config edited`);
    openRecentState(dropped);
    expect(store.getState().configText).toBe('tab 1 = 1\n');
  });
});
