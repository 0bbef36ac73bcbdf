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
import type { ReplaySource } from './replay.ts';
import { getRequestPrompt, type RequestPromptArgs } from './request-prompt.ts';

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
    const after = prompt.after.reduce((sum, entry) => sum + entry.tokens, 0);
    expect(after).toBeLessThan(visible);
  });
});
