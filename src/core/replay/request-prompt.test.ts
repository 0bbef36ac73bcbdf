/**
 * The diff pane's request k under a runtime's clearing (request-prompt.ts)
 * triggers on the prompt the cost pane prices: the visible prompt plus the
 * invisible prefix the calibration adds. A policy whose trigger sits one
 * token above the visible prompt clears nothing with no prefix, and clears
 * once a user's prefix lifts the billed prompt past it.
 */
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../../test/corpus.ts';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import {
  type Replay,
  type ReplayChoice,
  type ReplaySource,
  replayStream,
  resolveReplaySettings,
} from './replay.ts';
import {
  getRequestPrompt,
  PREFIX_ENTRY_KEY,
  type RequestPrompt,
  type RequestPromptArgs,
} from './request-prompt.ts';

const counter = await loadTokenCounter('chars');
const SOURCE: ReplaySource = {
  elements: readCorpusStream(
    listCorpus().find((entry) => entry.id.startsWith('17727523543'))?.eventsPath as string,
  ),
  config: parseConfigToml(README_CONFIG_TOML),
  configText: README_CONFIG_TOML,
  view: 'sanitized',
  readings: DEFAULT_READINGS,
  counter,
  untimed: false,
};

function promptAt(trigger: number, prefixTokens: number) {
  const args: RequestPromptArgs = {
    request: null,
    policy: {
      name: 'anthropic-context-editing',
      set: [`trigger=${trigger}`, 'keep=0', 'clear_at_least=0'],
    },
    model: null,
    price: null,
    calibration: 'user',
    prefixTokens,
  };
  const result = getRequestPrompt(SOURCE, args);
  if (result.status !== 'ok') throw new Error(result.message);
  return result.value;
}

describe('request k under context editing', () => {
  const visible = promptAt(10_000_000, 0).before.reduce((sum, entry) => sum + entry.tokens, 0);
  // The lowest trigger at which, with no prefix, nothing is cleared: the billed prompt
  // (the visible one, plus the output the model sends back unseen) sits just under it.
  let low = 1;
  let high = 10_000_000;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (promptAt(middle, 0).replaced === 0) high = middle;
    else low = middle + 1;
  }
  const trigger = low;

  it('clears nothing while the billed prompt, with no prefix, stays under the trigger', () => {
    expect(visible).toBeGreaterThan(1_000);
    expect(trigger).toBeGreaterThan(visible);
    expect(promptAt(trigger, 0).replaced).toBe(0);
  });

  it('clears once the prefix lifts the billed prompt past the trigger', () => {
    const prompt = promptAt(trigger, 5_000);
    expect(prompt.replaced).toBeGreaterThan(0);
    const after = prompt.after
      .filter((entry) => entry.key !== PREFIX_ENTRY_KEY)
      .reduce((sum, entry) => sum + entry.tokens, 0);
    expect(prompt.after[0]?.tokens).toBe(5_000);
    expect(after).toBeLessThan(visible);
  });
});

/**
 * Issue 41: request k under JP's schedules, a tool's what-if hint and a
 * runtime's policy is the prompt the replay priced at k. With a user's
 * prefix the billed prompt is the prefix plus the counted items (factor 1,
 * no hidden output), so the two sides are added up by hand here and
 * compared with the replay's own figure for that request.
 */
describe('request k is the prompt the replay priced', () => {
  const PREFIX = 1_234;
  const choiceOf = (schedule: ReplayChoice['schedule'], policy: ReplayChoice['policy']) => ({
    model: null,
    price: null,
    schedule,
    calibration: 'user' as const,
    prefixTokens: PREFIX,
    policy,
  });
  const replayUnder = (choice: ReplayChoice, source: ReplaySource = SOURCE): Replay['requests'] => {
    const resolved = resolveReplaySettings(source, choice);
    if (resolved.status !== 'ok') throw new Error(resolved.message);
    return replayStream(source.elements, resolved.settings, { schedules: false, tools: false })
      .requests;
  };
  const sum = (entries: readonly { tokens: number }[]) =>
    entries.reduce((total, entry) => total + entry.tokens, 0);
  /** The billed prompt by hand: the prefix block, plus the factor times the other entries, plus the hidden output. */
  const billed = (prompt: RequestPrompt, side: 'before' | 'after') => {
    const entries = prompt[side];
    const items = entries.filter((entry) => entry.key !== PREFIX_ENTRY_KEY);
    expect(entries.length - items.length).toBe(1);
    return Math.round(PREFIX + prompt.tokenFactor * sum(items) + prompt.hiddenTokens[side]);
  };

  it.each(['every-turn', 'auto', 'stored'] as const)('under jp %s', (schedule) => {
    const requests = replayUnder(choiceOf(schedule, { name: 'jp', set: [] }));
    expect(requests.length).toBeGreaterThan(3);
    for (const k of [1, Math.ceil(requests.length / 2), requests.length]) {
      const result = getRequestPrompt(SOURCE, {
        request: k,
        policy: { name: 'jp', set: [] },
        schedule,
        model: null,
        price: null,
        calibration: 'user',
        prefixTokens: PREFIX,
      });
      if (result.status !== 'ok') throw new Error(result.message);
      const priced = requests[k - 1];
      expect(result.value.request).toBe(k);
      expect(result.value.prefixTokens).toBe(PREFIX);
      expect(result.value.after[0]?.key).toBe(PREFIX_ENTRY_KEY);
      expect(billed(result.value, 'after')).toBe(priced?.prompt_tokens);
      expect(billed(result.value, 'before')).toBe(priced?.baseline.prompt_tokens);
      expect(result.value.billedTokens.after).toBe(priced?.prompt_tokens);
    }
  });

  it('under every-turn compacts the prompt it shows at the last request', () => {
    const result = getRequestPrompt(SOURCE, {
      request: null,
      policy: { name: 'jp', set: [] },
      schedule: 'every-turn',
      model: null,
      price: null,
      calibration: 'user',
      prefixTokens: PREFIX,
    });
    if (result.status !== 'ok') throw new Error(result.message);
    expect(result.value.replaced).toBeGreaterThan(0);
    expect(sum(result.value.after)).toBeLessThan(sum(result.value.before));
  });

  it("under a tool's what-if hint: the replay with that hint written as the tool's own", () => {
    // fs_read_file is `strip-responses` in the config; `keep` written in its place.
    const configText = `${README_CONFIG_TOML.replace('compaction = "strip-responses"', 'compaction = "keep"')}`;
    const written: ReplaySource = { ...SOURCE, config: parseConfigToml(configText), configText };
    const requests = replayUnder(choiceOf('every-turn', { name: 'jp', set: [] }), written);
    const asConfigured = replayUnder(choiceOf('every-turn', { name: 'jp', set: [] }));
    const k = requests.length;
    const result = getRequestPrompt(SOURCE, {
      request: k,
      policy: { name: 'jp', set: [] },
      schedule: 'every-turn',
      toolChoice: { tool: 'fs_read_file', choice: 'keep' },
      model: null,
      price: null,
      calibration: 'user',
      prefixTokens: PREFIX,
    });
    if (result.status !== 'ok') throw new Error(result.message);
    expect(billed(result.value, 'after')).toBe(requests[k - 1]?.prompt_tokens);
    // Keeping the reads' results keeps more than the config's strip does.
    expect(billed(result.value, 'after')).toBeGreaterThan(asConfigured[k - 1]?.prompt_tokens ?? 0);
  });

  it('under a runtime policy', () => {
    const policy = {
      name: 'anthropic-context-editing' as const,
      set: ['trigger=2000', 'keep=1', 'clear_at_least=0'],
    };
    const requests = replayUnder(choiceOf('none', policy));
    for (const k of [2, requests.length]) {
      const result = getRequestPrompt(SOURCE, {
        request: k,
        policy,
        model: null,
        price: null,
        calibration: 'user',
        prefixTokens: PREFIX,
      });
      if (result.status !== 'ok') throw new Error(result.message);
      expect(billed(result.value, 'after')).toBe(requests[k - 1]?.prompt_tokens);
    }
  });
});
