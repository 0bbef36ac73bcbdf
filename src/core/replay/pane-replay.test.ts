/**
 * The cost pane's three answers (pane-replay.ts): asking for the figures
 * computes neither the policies side by side nor the per-tool what-if, and
 * each answer is, figure for figure, what the one combined answer gave
 * before the split (the chosen replay with every schedule's series and the
 * what-if, and the comparison with each row's series), computed here the
 * way it was: `replayStream` and `comparePolicies` on the same settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { listCorpus, SHARED_DIR } from '../../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../../test/corpus.ts';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { readAnyStream } from '../import/read-stream.ts';
import type { StreamElement } from '../types.ts';
import { comparePolicies } from './compare-policies.ts';
import { comparePoliciesForPane, replayForPane, replayToolsForPane } from './pane-replay.ts';
import { type ReplaySource, replayStream, resolveReplaySettings } from './replay.ts';
import type { ReplayChoice } from './schedules.ts';

// Counting spies on what only the two opened sections need: the comparison,
// and the tools the what-if prices (buildToolInfo is where both begin).
vi.mock('./compare-policies.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./compare-policies.ts')>();
  return { ...actual, comparePolicies: vi.fn(actual.comparePolicies) };
});
vi.mock('../playground/playground.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../playground/playground.ts')>();
  return { ...actual, buildToolInfo: vi.fn(actual.buildToolInfo) };
});
const { buildToolInfo } = await import('../playground/playground.ts');

const counter = await loadTokenCounter('chars');
const config = parseConfigToml(README_CONFIG_TOML);

function sourceOf(elements: readonly StreamElement[]): ReplaySource {
  return {
    elements,
    config,
    configText: README_CONFIG_TOML,
    view: 'sanitized',
    readings: DEFAULT_READINGS,
    counter,
    untimed: false,
  };
}

/** A JP conversation of the corpus (36 requests) whose tools' hints change what `idle` costs. */
const JP = sourceOf(
  readCorpusStream(
    listCorpus().find((entry) => entry.id.startsWith('17727523543'))?.eventsPath as string,
  ),
);
/** A Claude Code session with recorded usage (the scaling to it has a ratio to apply). */
const RECORDED = sourceOf(
  readAnyStream(
    readFileSync(
      join(
        SHARED_DIR,
        'corpus/agent-transcripts-2026/claude-code/kimi-cli__6f__b0000a4ae0__3__full.jsonl',
      ),
      'utf8',
    ),
    { encoding: 'auto' },
  ).parsed.elements ?? [],
);

/** The one combined answer the pane had before the split. */
function combined(source: ReplaySource, choice: ReplayChoice) {
  const resolved = resolveReplaySettings(source, choice);
  if (resolved.status !== 'ok') throw new Error(resolved.message);
  return {
    replay: replayStream(source.elements, resolved.settings, { series: true }),
    comparison: comparePolicies(source.elements, resolved.settings, { series: true }),
  };
}

const CHOICES: { name: string; source: ReplaySource; choice: ReplayChoice }[] = [
  { name: 'idle', source: JP, choice: { model: null, price: null, schedule: 'idle' } },
  {
    name: 'every-turn with custom prices',
    source: JP,
    choice: {
      model: null,
      price: 'input=2,output=10,write=1.5,read=0.2,ttl=120,min=0',
      schedule: 'every-turn',
    },
  },
  {
    name: 'a runtime policy',
    source: JP,
    choice: {
      model: null,
      price: null,
      schedule: 'auto',
      policy: { name: 'claude-code', set: ['keep_recent=1'] },
    },
  },
  {
    name: 'auto, calibrated on the recorded usage',
    source: RECORDED,
    choice: { model: null, price: null, schedule: 'auto', calibration: 'recorded' },
  },
];

beforeEach(() => {
  vi.mocked(comparePolicies).mockClear();
  vi.mocked(buildToolInfo).mockClear();
});

describe("the cost pane's answers", () => {
  it('asking for the figures computes neither the policies side by side nor the what-if', () => {
    const figures = replayForPane(JP, {
      model: null,
      price: null,
      schedule: 'idle',
    });
    if (figures.status !== 'ok') throw new Error(figures.message);
    expect(figures.replay.requests.length).toBeGreaterThan(10);
    expect(comparePolicies).not.toHaveBeenCalled();
    expect(buildToolInfo).not.toHaveBeenCalled();
    expect(figures.replay.tools).toEqual([]);
    // The chart's lines are all there: every schedule, request by request.
    expect(Object.keys(figures.replay.series ?? {}).sort()).toEqual(
      ['auto', 'every-turn', 'idle', 'none', 'stored'].sort(),
    );

    // The what-if alone does not compare the policies, and the comparison prices no what-if.
    replayToolsForPane(JP, { model: null, price: null, schedule: 'idle' });
    expect(comparePolicies).not.toHaveBeenCalled();
  });

  for (const { name, source, choice } of CHOICES) {
    it(`each answer is the combined answer's, ${name}`, () => {
      const whole = combined(source, choice);
      const figures = replayForPane(source, choice);
      const policies = comparePoliciesForPane(source, {
        model: choice.model,
        price: choice.price,
        calibration: choice.calibration ?? 'auto',
        prefixTokens: null,
      });
      const tools = replayToolsForPane(source, {
        model: choice.model,
        price: choice.price,
        calibration: choice.calibration ?? 'auto',
        prefixTokens: null,
        schedule: choice.schedule,
      });
      if (figures.status !== 'ok' || policies.status !== 'ok' || tools.status !== 'ok') {
        throw new Error('the choices should read');
      }
      expect(figures.replay).toEqual({ ...whole.replay, tools: [] });
      // Under a runtime's policy the pane does not ask for the what-if (it has none).
      if (choice.policy) expect(whole.replay.tools).toEqual([]);
      else expect(tools.tools).toEqual(whole.replay.tools);
      expect(policies.comparison).toEqual(whole.comparison);
    });
  }

  it('the inputs tell the answers apart, or the equalities above would prove little', () => {
    const whole = combined(JP, { model: null, price: null, schedule: 'idle' });
    // Schedules, tools' hints and policies that change the cost.
    expect(new Set(Object.values(whole.replay.schedules)).size).toBeGreaterThan(2);
    expect(
      whole.replay.tools.some((tool) => new Set(Object.values(tool.what_if_cost)).size > 1),
    ).toBe(true);
    expect(new Set(whole.comparison.map((row) => row.totals.schedule.cost)).size).toBeGreaterThan(
      2,
    );
    const calibrated = replayForPane(RECORDED, {
      model: null,
      price: null,
      schedule: 'auto',
      calibration: 'recorded',
    });
    const fileOnly = replayForPane(RECORDED, {
      model: null,
      price: null,
      schedule: 'auto',
      calibration: 'none',
    });
    if (calibrated.status !== 'ok' || fileOnly.status !== 'ok') throw new Error('should read');
    expect(calibrated.replay.calibration.source).toBe('recorded');
    expect(calibrated.replay.totals.schedule.cost).not.toBe(fileOnly.replay.totals.schedule.cost);
  });

  it('a price that does not read is an error with its column, for each answer', () => {
    const pricing = { model: null, price: 'input=1,output=x' };
    const expected = {
      status: 'invalid',
      message: expect.stringMatching(/^Price, column 16: /),
    };
    expect(replayForPane(JP, { ...pricing, schedule: 'idle' })).toMatchObject(expected);
    expect(comparePoliciesForPane(JP, pricing)).toMatchObject(expected);
    expect(replayToolsForPane(JP, { ...pricing, schedule: 'idle' })).toMatchObject(expected);
  });
});
