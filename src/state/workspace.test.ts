import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderHintsToml } from '../core/analyses/recommend.ts';
import codingSession from '../examples/coding-session.json?raw';
import hintOmit from '../examples/hint-omit.json?raw';
import hintStrip from '../examples/hint-strip.json?raw';
import { EMPTY_RULE, OVER_STREAMS } from '../test/fixtures/over-streams.ts';
import {
  createInThreadPool,
  type InThreadPool,
  pickedFile,
  reportInOneThread,
} from '../test/in-thread-pool.ts';
import type { WorkspaceRequest } from '../worker/main-thread/workspace-pool.ts';
import { selectWorkspaceStatusMessage } from './selectors.ts';
import { resetStore, store } from './store.ts';
import {
  applyRecommendedHints,
  cancelWorkspaceLoad,
  closeWorkspace,
  disposeWorkspace,
  initWorkspace,
  openConversationInEditor,
  openWorkspace,
  parseTokenCount,
  refreshWorkspace,
} from './workspace.ts';
import {
  checkWorkspaceLimits,
  collectConversations,
  MAX_WORKSPACE_BYTES,
  MAX_WORKSPACE_CONVERSATIONS,
  type PickedFile,
} from './workspace-files.ts';

const EXAMPLES = ['coding-session', 'hint-strip', 'hint-omit'];
const TEXTS = [codingSession, hintStrip, hintOmit];
const CONFIG = `[[conversation.compaction.rules]]
keep_last = 1
tool_calls = "strip"
`;

/** A JP conversations folder of the examples, each with a metadata.json title. */
function folder(): PickedFile[] {
  return EXAMPLES.flatMap((id, index) => [
    pickedFile(TEXTS[index] as string, `conversations/${index + 1}-${id}/events.json`),
    pickedFile(
      JSON.stringify({ title: `Title of ${id}` }),
      `conversations/${index + 1}-${id}/metadata.json`,
    ),
  ]);
}

function analyses(workers: InThreadPool['workers']): number {
  return workers.flatMap((w) => w.requests).filter((r) => r.method === 'analyze').length;
}

/** Waits until the store satisfies `done` (the pool answers on later ticks). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(done()).toBe(true);
}

let pooled: InThreadPool;

function setup(options: Parameters<typeof createInThreadPool>[0] = {}) {
  pooled = createInThreadPool(options);
  initWorkspace({ pool: pooled.pool, debounceMs: 0, progressMs: 0 });
  return pooled;
}

beforeEach(() => {
  resetStore();
  store.setState({ configText: CONFIG, tokenizer: 'chars' });
});

afterEach(() => {
  disposeWorkspace();
});

describe('collectConversations', () => {
  it("finds a folder's conversations, with their metadata, in path order", async () => {
    const files = folder().reverse();
    files.push(pickedFile('notes', 'conversations/NOTICE.md'));
    const collected = await collectConversations(files);
    expect(collected.folder).toBe('conversations');
    expect(collected.conversations.map((c) => [c.path, c.name, c.metadata !== null])).toEqual([
      ['conversations/1-coding-session', '1-coding-session', true],
      ['conversations/2-hint-strip', '2-hint-strip', true],
      ['conversations/3-hint-omit', '3-hint-omit', true],
    ]);
    expect(collected.bytes).toBe(TEXTS.reduce((sum, text) => sum + new Blob([text]).size, 0));
  });

  it('takes files picked one by one as conversations, and pairs a lone metadata.json', async () => {
    const two = await collectConversations([
      pickedFile('[]', 'b.json'),
      pickedFile('[]', 'a.json'),
    ]);
    expect(two.folder).toBeNull();
    expect(two.conversations.map((c) => c.path)).toEqual(['a.json', 'b.json']);
    const same = await collectConversations([
      pickedFile('[]', 'events.json'),
      pickedFile('[]', 'events.json'),
    ]);
    expect(same.conversations.map((c) => c.name)).toEqual(['events.json', 'events.json (2)']);
    const pair = await collectConversations([
      pickedFile('{"title": "T"}', 'metadata.json'),
      pickedFile('[]', 'events.json'),
    ]);
    expect(pair.conversations).toHaveLength(1);
    expect(pair.conversations[0]?.metadata).not.toBeNull();
  });
});

describe('checkWorkspaceLimits', () => {
  const sized = (count: number, size: number) =>
    Array.from({ length: count }, (_, i) => ({
      name: 'events.json',
      size,
      webkitRelativePath: `c/${i}/events.json`,
    })) as unknown as PickedFile[];

  it('accepts a workspace up to the limits', async () => {
    expect(checkWorkspaceLimits(await collectConversations(sized(3, 1000)))).toBeNull();
  });

  it('refuses too many conversations or too many bytes, saying what to do', async () => {
    const many = checkWorkspaceLimits(
      await collectConversations(sized(MAX_WORKSPACE_CONVERSATIONS + 1, 10)),
    );
    expect(many).toMatch(/^This holds 5,001 conversations \(0\.1 MB of events\.json\)/);
    expect(many).toContain('compaction-playground report --config FILE.toml FOLDER');
    const large = checkWorkspaceLimits(
      await collectConversations(sized(3, Math.ceil(MAX_WORKSPACE_BYTES / 2))),
    );
    expect(large).toMatch(/^This holds 3 conversations \(300 MB of events\.json\)/);
  });
});

describe('parseTokenCount', () => {
  it('reads whole numbers with separators and k/m, blank as none', () => {
    expect(parseTokenCount('200,000')).toBe(200_000);
    expect(parseTokenCount(' 200 000 ')).toBe(200_000);
    expect(parseTokenCount('200k')).toBe(200_000);
    expect(parseTokenCount('1.5M')).toBe(1_500_000);
    expect(parseTokenCount('')).toBeNull();
    expect(parseTokenCount('0')).toBeUndefined();
    expect(parseTokenCount('-5')).toBeUndefined();
    expect(parseTokenCount('lots')).toBeUndefined();
  });
});

describe('a workspace', () => {
  it("counts every conversation to report's figures, titled from metadata.json", async () => {
    setup();
    await openWorkspace(folder());
    const state = store.getState();
    expect(state.workspaceStatus).toBe('done');
    expect(state.workspaceBusy).toBe(false);
    expect(state.resultsView).toBe('workspace');
    expect(state.workspaceProgress).toEqual({ done: 3, total: 3 });
    expect(state.workspaceReport).toEqual(await reportInOneThread(TEXTS, CONFIG));
    expect(state.workspaceConversations.map((c) => [c.title, c.status])).toEqual(
      EXAMPLES.map((id) => [`Title of ${id}`, 'done']),
    );
    expect(state.workspaceRecommendations.status).toBe('done');
    // Out of what: the three conversations' next requests, counted in one thread.
    const before = (await reportInOneThread(TEXTS, CONFIG)).totals.before.tokens;
    expect(selectWorkspaceStatusMessage(state)).toMatch(
      new RegExp(
        `^Saved [\\d,]+ tokens \\(.+\\) of the ${before.toLocaleString('en-US')} tokens the conversations' next requests would carry, across 3 conversations\\.$`,
      ),
    );
  });

  it('answers a hint edit from the tables, and counts again for new rules', async () => {
    const { workers } = setup();
    await openWorkspace(folder());
    expect(analyses(workers)).toBe(3);

    const hinted = `${CONFIG}\n[conversation.tools.fs_read_file]\ncompaction = "keep"\n`;
    store.setState({ configText: hinted });
    expect(store.getState().workspaceBusy).toBe(true);
    await until(() => !store.getState().workspaceBusy);
    expect(store.getState().workspaceReport).toEqual(await reportInOneThread(TEXTS, hinted));
    expect(analyses(workers)).toBe(3);

    const ruled = hinted.replace('keep_last = 1', 'keep_last = 2');
    store.setState({ configText: ruled });
    await until(
      () => store.getState().workspaceStatus === 'done' && !store.getState().workspaceBusy,
    );
    expect(store.getState().workspaceReport).toEqual(await reportInOneThread(TEXTS, ruled));
    expect(analyses(workers)).toBe(6);
  });

  it('waits for a config without errors before counting', async () => {
    setup();
    store.setState({ configText: '[[conversation' });
    await openWorkspace(folder());
    expect(store.getState().workspaceStatus).toBe('invalid');
    expect(store.getState().workspaceMessage?.text).toMatch(/^Config line 1, column \d+: /);
    expect(store.getState().workspaceReport).toBeNull();
    store.setState({ configText: CONFIG });
    await until(
      () => store.getState().workspaceStatus === 'done' && !store.getState().workspaceBusy,
    );
    expect(store.getState().workspaceReport).toEqual(await reportInOneThread(TEXTS, CONFIG));
  });

  it('shows progress while counting, and a cancel drops the partial figures', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first conversation answers; the others wait.
    const gate = (request: WorkspaceRequest) =>
      request.method === 'analyze' && request.args[0].index > 0 ? held : Promise.resolve();
    const { workers } = setup({ size: 1, gate });
    const opening = openWorkspace(folder());
    await until(() => store.getState().workspaceProgress.done === 1);
    const partial = store.getState();
    expect(partial.workspaceStatus).toBe('loading');
    expect(partial.workspaceBusy).toBe(true);
    expect(partial.workspaceReport).not.toBeNull();
    expect(selectWorkspaceStatusMessage(partial)).toBe('Counting 3 conversations…');

    cancelWorkspaceLoad();
    await opening;
    release?.();
    const state = store.getState();
    expect(state.workspaceStatus).toBe('cancelled');
    expect(state.workspaceBusy).toBe(false);
    expect(state.workspaceReport).toBeNull();
    expect(state.workspaceConversations.every((c) => c.figures === null)).toBe(true);
    expect(state.workspaceMessage?.text).toBe(
      'Counting was cancelled after 1 of 3 conversations, so no figures are shown.',
    );
    expect(workers.filter((w) => w.terminated)).toHaveLength(1);

    // Hint edits do not restart a cancelled workspace.
    store.setState({ configText: `${CONFIG}\n` });
    await refreshWorkspace();
    expect(store.getState().workspaceStatus).toBe('cancelled');
  });

  it('refuses a workspace beyond the limits without counting anything', async () => {
    const { workers } = setup();
    const many = Array.from({ length: MAX_WORKSPACE_CONVERSATIONS + 1 }, (_, i) =>
      pickedFile('[]', `c/${i}/events.json`),
    );
    await openWorkspace(many);
    expect(store.getState().workspaceStatus).toBe('refused');
    expect(store.getState().workspaceMessage?.tone).toBe('error');
    expect(store.getState().workspaceConversations).toEqual([]);
    expect(analyses(workers)).toBe(0);
  });

  it('opens a conversation in the editors, and closes', async () => {
    setup();
    await openWorkspace(folder());
    expect(await openConversationInEditor(1)).toBe(true);
    expect(store.getState().streamText).toBe(TEXTS[1]);
    expect(store.getState().streamFileName).toBe('Title of hint-strip');
    expect(store.getState().resultsView).toBe('conversation');
    expect(store.getState().workspaceStatus).toBe('done');
    closeWorkspace();
    expect(store.getState().workspaceStatus).toBe('empty');
    expect(store.getState().workspaceConversations).toEqual([]);
  });
});

describe('the reading base', () => {
  // Streams whose stored compactions carry `over`: see the fixture's header.
  const OVER_FOLDER = OVER_STREAMS.map((text, index) =>
    pickedFile(text, `conversations/${index + 1}/events.json`),
  );

  /** Per tool: [response tokens after, tokens saved]; and all tokens after. */
  function figures() {
    const report = store.getState().workspaceReport;
    return {
      tools: Object.fromEntries(
        (report?.tools ?? []).map((row) => [
          row.name,
          [row.response.after.tokens, row.saved.tokens],
        ]),
      ),
      after: report?.totals.after.tokens,
    };
  }

  it('counts the folder under the chosen base, and counts again when it changes', async () => {
    store.setState({ configText: EMPTY_RULE });
    setup();
    await openWorkspace(OVER_FOLDER);
    // Expected values: `report --tokenizer chars --reading base=…` on the
    // folder (CLI), and by hand with chars/4: the 812-byte response is 203
    // tokens, g2's 100 bytes 25; a stripped response's status line 9.
    expect(figures()).toEqual({
      tools: { fs_read_file: [203 + 9, 1_015], grep: [25, 753] },
      after: 246,
    });

    store.setState({ readings: { ...store.getState().readings, base: '2026-08' } });
    await until(
      () => store.getState().workspaceStatus === 'done' && !store.getState().workspaceBusy,
    );
    expect(figures()).toEqual({
      tools: { fs_read_file: [9 + 9, 1_209], grep: [0, 781] },
      after: 24,
    });
  });
});

describe('recommendations', () => {
  it("apply writes the workspace's hints into the config text as TOML", async () => {
    setup();
    await openWorkspace(folder());
    const result = store.getState().workspaceRecommendations.result;
    expect(result?.recommendations.length).toBeGreaterThan(0);
    const recommendations = result?.recommendations ?? [];
    expect(await applyRecommendedHints(recommendations)).toBe(true);
    expect(store.getState().configText).toBe(renderHintsToml(recommendations, CONFIG));
    expect(store.getState().configText).toContain('[conversation.tools.');
  });
});
