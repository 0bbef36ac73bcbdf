import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { parseEventsText } from '../stream/codec.ts';
import { reportStream } from './playground.ts';
import {
  applyRecommendations,
  getApplyEffect,
  isPreTicked,
  recommendForStreams,
} from './recommend.ts';

const read = (name: string) =>
  readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8');
const config = parseConfigToml(read('coding-session.toml'));
const elements = parseEventsText(read('coding-session.json'), 'auto').elements ?? [];
// o200k, as the page counts on first visit.
const options = { now: null, view: 'sanitized' as const, counter: await loadTokenCounter('o200k') };
const result = recommendForStreams([elements], config, options);
const savedWith = (tools: ReadonlySet<string>) =>
  reportStream(
    elements,
    applyRecommendations(
      config,
      result.recommendations.filter((rec) => tools.has(rec.tool)),
    ),
    options,
  ).report.totals.saved.tokens;

describe('the effect of applying suggestions, on the default example', () => {
  it('starts from the saving the page shows now (1,671)', () => {
    expect(elements.length).toBeGreaterThan(0);
    const now = reportStream(elements, config, options).report.totals.saved.tokens;
    expect(now).toBe(1671);
    expect(getApplyEffect(result, new Set()).now).toBe(now);
  });

  it('equals a pipeline run with exactly the chosen hints, for every choice', () => {
    const tools = result.recommendations.map((rec) => rec.tool);
    for (let mask = 0; mask < 1 << tools.length; mask++) {
      const chosen = new Set(tools.filter((_, i) => mask & (1 << i)));
      expect(getApplyEffect(result, chosen).after, [...chosen].join(',')).toBe(savedWith(chosen));
    }
  });

  it('leaves unticked the suggestions that save less than the hint in force', () => {
    const unticked = result.recommendations.filter((rec) => !isPreTicked(rec)).map((r) => r.tool);
    // build_watch: keep saves less than omit; run_tests: strip-responses less than the rule's strip.
    expect(unticked).toEqual(['build_watch', 'run_tests']);
    const ticked = new Set(result.recommendations.filter(isPreTicked).map((rec) => rec.tool));
    const effect = getApplyEffect(result, ticked);
    expect(effect.after).toBeGreaterThanOrEqual(effect.now);
  });
});
