import { beforeEach, describe, expect, it } from 'vitest';
import { createPlaygroundSession, type PlaygroundInput } from '../core/playground/playground.ts';
import { EXAMPLES } from '../examples/index.ts';
import { createFakeEngine, makeResult } from '../test/fake-engine.ts';
import { rememberInput, selectConfigGuidance, withResultInputs } from './guidance.ts';
import { selectInput } from './selectors.ts';
import { resetStore, store } from './store.ts';

const example = EXAMPLES.find((candidate) => candidate.id === 'coding-session');
if (!example) throw new Error('no coding-session example');

/** The coding session with run_tests hinted under a misspelt name. */
const CONFIG = `${example.configText}\n[conversation.tools.run_test]\ncompaction = "keep"\n`;

async function computed(configText: string) {
  store.setState({ configText, streamText: example?.streamText ?? '[]', encoding: 'plain' });
  const input = selectInput(store.getState());
  const result = await createPlaygroundSession().run(input);
  rememberInput(result, input);
  store.setState({ result, status: 'done', isStale: false });
}

beforeEach(() => resetStore());

describe('selectConfigGuidance', () => {
  it('gives the guidance for the config text the result was computed from', async () => {
    await computed(CONFIG);
    const guidance = selectConfigGuidance(store.getState());
    expect(guidance.configText).toBe(CONFIG);
    const unknown = guidance.diagnostics.find((d) => d.code === 'guidance/unknown-tool');
    expect(unknown).toMatchObject({ severity: 'warning', fix: { title: 'Rename to run_tests' } });
    // The same object while nothing changed.
    expect(selectConfigGuidance(store.getState())).toBe(guidance);
  });

  it('gives none while the config text has changed since the result', async () => {
    await computed(CONFIG);
    store.setState({ configText: `${CONFIG}# typing…\n` });
    expect(selectConfigGuidance(store.getState()).diagnostics).toEqual([]);
  });

  it('gives none for a result it does not know the input of', () => {
    store.setState({ configText: CONFIG, result: makeResult({ before: 1, after: 1 }) });
    expect(selectConfigGuidance(store.getState()).diagnostics).toEqual([]);
  });
});

describe('withResultInputs', () => {
  it('makes every result remember its input', async () => {
    const fake = createFakeEngine();
    const engine = withResultInputs(fake);
    const input: PlaygroundInput = { ...selectInput(store.getState()), configText: 'a = 1' };
    const pending = engine.run(input);
    const result = makeResult({ before: 1, after: 1 });
    fake.runs[0]?.resolve(result);
    expect(await pending).toBe(result);
    store.setState({ configText: 'a = 1', result });
    // Known input, same text: the core is asked (and finds nothing to say on an empty result).
    expect(selectConfigGuidance(store.getState()).configText).toBe('a = 1');
  });
});
