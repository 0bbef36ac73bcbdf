/**
 * The figures a first visit shows before its worker has answered are the
 * default example's, computed when the page was built
 * (tools/build/first-figures.ts): they are shown only for that input, and
 * they are what a live run of it gives.
 */
import firstFigures from 'virtual:first-figures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from '../examples/index.ts';
import { createFakeEngine, type FakeEngine } from '../test/fake-engine.ts';
import {
  disposeActions,
  flushAnalysis,
  initActions,
  loadExample,
  setConfigText,
} from './actions.ts';
import { selectInput } from './selectors.ts';
import { resetStore, store } from './store.ts';

let engine: FakeEngine;

beforeEach(() => {
  resetStore();
  engine = createFakeEngine();
  // As main.tsx sets them up.
  initActions({
    engine,
    firstFigures,
    examples: EXAMPLES.map((example) => ({ ...example, load: () => example })),
  });
});

afterEach(() => {
  disposeActions();
});

describe('the first figures, computed at build time', () => {
  it('are shown for the default example without asking the worker', async () => {
    await loadExample(DEFAULT_EXAMPLE_ID);
    await flushAnalysis();
    expect(engine.runs).toHaveLength(0);
    const state = store.getState();
    expect(state.status).toBe('done');
    expect(state.result).toBe(firstFigures.figures);
    // The example's four tools, each with a row (counted in coding-session.json by hand).
    expect(state.result?.report.tools.map((row) => row.name).sort()).toEqual([
      'build_watch',
      'fs_modify_file',
      'fs_read_file',
      'run_tests',
    ]);
  });

  it('are what a live run of the page’s input gives', async () => {
    await loadExample(DEFAULT_EXAMPLE_ID);
    const live = await createPlaygroundSession().run(selectInput(store.getState()));
    expect(live.status).toBe('ok');
    expect(firstFigures.figures).toEqual(live);
    expect(live.report.totals.saved.tokens).toBeGreaterThan(0);
  });

  it('stand for no other input: an edit is counted live', async () => {
    await loadExample(DEFAULT_EXAMPLE_ID);
    await flushAnalysis();
    setConfigText(`${store.getState().configText}\n# an edit\n`);
    // The fake engine answers only when told: the run is asked for, not awaited.
    void flushAnalysis();
    expect(engine.runs).toHaveLength(1);
    expect(store.getState().status).toBe('running');
  });
});
