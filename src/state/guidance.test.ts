import { beforeEach, describe, expect, it } from 'vitest';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import { EXAMPLES } from '../examples/index.ts';
import { makeResult } from '../test/fake-engine.ts';
import { setConfigText } from './actions.ts';
import { selectConfigFixes, selectConfigGuidance, selectListedGuidance } from './guidance.ts';
import { selectInput } from './selectors.ts';
import { resetStore, store } from './store.ts';

const example = EXAMPLES.find((candidate) => candidate.id === 'coding-session');
if (!example) throw new Error('no coding-session example');

/** The coding session with run_tests hinted under a misspelt name. */
const CONFIG = `${example.configText}\n[conversation.tools.run_test]\ncompaction = "keep"\n`;

/** Runs the real pipeline on `configText` and stores its result as it arrives from the worker (a copy). */
async function computed(configText: string) {
  store.setState({ configText, streamText: example?.streamText ?? '[]', encoding: 'plain' });
  const result = await createPlaygroundSession().run(selectInput(store.getState()));
  store.setState({ result: structuredClone(result), status: 'done', isStale: false });
}

const UNKNOWN_TOOL = { severity: 'warning', fix: { title: 'Rename to run_tests' } };

beforeEach(() => resetStore());

describe('selectConfigGuidance', () => {
  it('gives the guidance the run computed for the config text in the editor', async () => {
    await computed(CONFIG);
    const guidance = selectConfigGuidance(store.getState());
    expect(guidance.configText).toBe(CONFIG);
    const unknown = guidance.diagnostics.find((d) => d.code === 'guidance/unknown-tool');
    expect(unknown).toMatchObject(UNKNOWN_TOOL);
    // The same object while nothing changed, even for a fresh copy of an equal result.
    expect(selectConfigGuidance(store.getState())).toBe(guidance);
    store.setState({ result: structuredClone(store.getState().result) });
    expect(selectConfigGuidance(store.getState())).toBe(guidance);
  });

  it('gives none while the config text has changed since the result', async () => {
    await computed(CONFIG);
    store.setState({ configText: `${CONFIG}# typing…\n` });
    expect(selectConfigGuidance(store.getState()).diagnostics).toEqual([]);
  });

  it('gives none for a result computed from another config text', async () => {
    await computed(CONFIG);
    const { result } = store.getState();
    if (!result) throw new Error('no result');
    expect(result.guidance.length).toBeGreaterThan(0);
    store.setState({ result: { ...result, configText: example?.configText ?? '' } });
    expect(selectConfigGuidance(store.getState()).diagnostics).toEqual([]);
  });

  it('gives none for a result that carries no guidance', () => {
    store.setState({ configText: CONFIG, result: makeResult({ before: 1, after: 1 }) });
    expect(selectConfigGuidance(store.getState()).diagnostics).toEqual([]);
  });
});

describe('selectListedGuidance', () => {
  it("keeps the guidance of the text before an edit, stale, while the edit's run is on its way", async () => {
    await computed(CONFIG);
    const fresh = selectListedGuidance(store.getState());
    expect(fresh.stale).toBe(false);
    expect(fresh.diagnostics.find((d) => d.code === 'guidance/unknown-tool')).toMatchObject(
      UNKNOWN_TOOL,
    );
    // As the editor reports a keystroke: the text is stored, then its run starts.
    setConfigText(`${CONFIG}# typing…\n`);
    const pending = selectListedGuidance(store.getState());
    expect(pending).toEqual({ diagnostics: fresh.diagnostics, stale: true });
    expect(selectListedGuidance(store.getState())).toBe(pending);
    // The editor's own guidance stays empty meanwhile: stale guidance would point at wrong places.
    expect(selectConfigGuidance(store.getState()).diagnostics).toEqual([]);
    // The run answers for the new text: its guidance, fresh.
    await computed(`${CONFIG}# typing…\n`);
    expect(selectListedGuidance(store.getState()).stale).toBe(false);
  });

  it('shows none once the edit is invalid: the last good result is not guidance for it', async () => {
    await computed(CONFIG);
    expect(selectListedGuidance(store.getState()).diagnostics.length).toBeGreaterThan(0);
    store.setState({ configText: 'not = [toml', status: 'done', isStale: true });
    expect(selectListedGuidance(store.getState())).toEqual({ diagnostics: [], stale: false });
  });
});

describe('selectConfigFixes', () => {
  const SINGLE = '[conversation.compaction.rules]\nkeep_last = 1\n';

  /** Runs the real pipeline on an invalid config and stores its diagnostics as a finished run does. */
  async function invalid(configText: string) {
    store.setState({ configText, streamText: example?.streamText ?? '[]', encoding: 'plain' });
    const result = structuredClone(
      await createPlaygroundSession().run(selectInput(store.getState())),
    );
    store.setState({
      configDiagnostics: result.configDiagnostics,
      configDiagnosticsText: result.configText,
      status: 'done',
    });
  }

  it("offers a config error's quick fix while the editor holds its text", async () => {
    await invalid(SINGLE);
    const fixes = selectConfigFixes(store.getState());
    expect(fixes.configText).toBe(SINGLE);
    expect(fixes.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'config/rules-not-array',
        fix: expect.objectContaining({ title: 'Change to [[conversation.compaction.rules]]' }),
      }),
    );
  });

  it('offers none once the text has changed since those errors', async () => {
    await invalid(SINGLE);
    store.setState({ configText: `${SINGLE}# edited\n` });
    expect(selectConfigFixes(store.getState()).diagnostics).toEqual([]);
  });
});
