import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { reportStream } from '../playground/playground.ts';
import { parseEventsText } from '../stream/codec.ts';
import type { StreamElement } from '../types.ts';
import {
  applyRecommendations,
  getApplyEffect,
  isPreTicked,
  isRecommendation,
  recommendForStreams,
  renderHintsToml,
} from './recommend.ts';
import { getWhatIfGridOfStreams } from './what-if.ts';

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

  it('keeps the example’s own omit for build_watch: keep, which the sizes suggest, saves less (issue 24)', () => {
    const rec = result.recommendations.find((candidate) => candidate.tool === 'build_watch');
    expect(rec?.currentHint).toBe('omit');
    expect(rec?.hint).toBe('omit');
    expect(rec?.reason).toMatch(
      /^Your hint omit stays: keep, which the sizes alone suggest, would save \d+ tokens? fewer than it here/,
    );
  });

  it('leaves unticked the suggestions that save less than the hint in force', () => {
    const unticked = result.recommendations.filter((rec) => !isPreTicked(rec)).map((r) => r.tool);
    // run_tests: strip-responses saves less than the rule's strip, and it inherits, so it is offered unticked.
    expect(unticked).toEqual(['run_tests']);
    const ticked = new Set(result.recommendations.filter(isPreTicked).map((rec) => rec.tool));
    const effect = getApplyEffect(result, ticked);
    expect(effect.after).toBeGreaterThanOrEqual(effect.now);
  });
});

describe('a suggestion that saves nothing is not a recommendation (issue 24)', () => {
  // One turn, and the rule keeps the last one: no call is in a compacted turn.
  const AT = '2025-07-01 00:00:00.0';
  const uncompacted: StreamElement[] = [
    { timestamp: AT, type: 'turn_start' },
    { timestamp: AT, type: 'chat_request', content: 'Read the fake file.' },
    {
      timestamp: AT,
      type: 'tool_call_request',
      id: 'fake-1',
      name: 'fake_read',
      arguments: { path: 'fake.txt' },
    },
    {
      timestamp: AT,
      type: 'tool_call_response',
      id: 'fake-1',
      content: 'fake contents of a large file\n'.repeat(40),
      is_error: false,
    },
  ];
  const rule = parseConfigToml(
    '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n',
  );
  const nothing = recommendForStreams([uncompacted], rule, options);

  it('offers no change, no ★ and no config line where nothing is compacted', () => {
    const [rec] = nothing.recommendations;
    // The sizes still say "strip-responses", and it saves 0 as the rule does.
    expect(rec).toMatchObject({ tool: 'fake_read', hint: 'strip-responses', currentHint: null });
    expect(rec?.expectedSaved.tokens).toBe(0);
    expect(nothing.recommendations.filter(isRecommendation)).toEqual([]);
    const grid = getWhatIfGridOfStreams([uncompacted], rule, options);
    expect(grid.tools.map((row) => row.suggested)).toEqual([null]);
    expect(renderHintsToml(nothing.recommendations.filter(isRecommendation), '')).toBe('');
  });
});
