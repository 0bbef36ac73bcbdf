/**
 * When to compact (issue 41): the sweep's cheapest trigger, written into the
 * config as `[conversation.compaction.auto] trigger_ratio` and replayed as
 * a plain `auto` replay, costs what the sweep says, on two corpus
 * conversations; every point is such a replay, and the saving is against
 * `stored`, the replay's own.
 */
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../../test/corpus.ts';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { type ReplaySource, replayStream, resolveReplaySettings } from './replay.ts';
import type { ReplayChoice } from './schedules.ts';
import { sweepAutoTrigger } from './sweep.ts';

const counter = await loadTokenCounter('chars');

function sourceOf(id: string, configText: string): ReplaySource {
  const entry = listCorpus().find((conversation) => conversation.id.startsWith(id));
  if (!entry) throw new Error(`no corpus conversation ${id}`);
  return {
    elements: readCorpusStream(entry.eventsPath),
    config: parseConfigToml(configText),
    configText,
    view: 'sanitized',
    readings: DEFAULT_READINGS,
    counter,
    untimed: false,
  };
}

function settingsOf(source: ReplaySource, schedule: ReplayChoice['schedule']) {
  const resolved = resolveReplaySettings(source, { model: null, price: null, schedule });
  if (resolved.status !== 'ok') throw new Error(resolved.message);
  return resolved.settings;
}

/** The plain replay under auto with the trigger written into the config's auto table. */
function autoAt(id: string, ratio: number): { cost: number; stored: number } {
  const text = `${README_CONFIG_TOML}\n[conversation.compaction.auto]\ntrigger_ratio = ${ratio}\n`;
  const source = sourceOf(id, text);
  const replay = replayStream(source.elements, settingsOf(source, 'auto'));
  return { cost: replay.totals.schedule.cost, stored: replay.schedules.stored ?? Number.NaN };
}

describe('the sweep of auto’s trigger', () => {
  for (const id of ['17738399468', '17727523543']) {
    it(`on ${id}: the cheapest point is the plain replay at that trigger_ratio`, () => {
      const source = sourceOf(id, README_CONFIG_TOML);
      const sweep = sweepAutoTrigger(source.elements, settingsOf(source, 'stored'));
      // Points from 10 K tokens up to 95 % of the window, each the ratio of it.
      expect(sweep.points[0]?.trigger_tokens).toBe(10_000);
      for (const point of sweep.points) {
        expect(point.trigger_tokens).toBeLessThanOrEqual(0.95 * sweep.context_window_tokens);
        expect(point.trigger_ratio * sweep.context_window_tokens).toBeCloseTo(
          point.trigger_tokens,
          6,
        );
      }
      const best = Math.min(...sweep.points.map((point) => point.cost));
      const last = sweep.points.at(-1);
      if (!last) throw new Error('no points');
      const lastReplay = autoAt(id, last.trigger_ratio);
      expect(last.cost).toBeCloseTo(lastReplay.cost, 12);
      expect(sweep.stored_cost).toBeCloseTo(lastReplay.stored, 12);
      if (best >= sweep.stored_cost) {
        expect(sweep.cheapest).toBeNull();
        return;
      }
      const cheapest = sweep.cheapest;
      if (!cheapest) throw new Error('a point is cheaper than stored, and no cheapest');
      expect(cheapest.cost).toBe(best);
      // On a tie, the highest trigger: no later point costs as little.
      const after = sweep.points.filter((point) => point.trigger_tokens > cheapest.trigger_tokens);
      expect(after.every((point) => point.cost > best)).toBe(true);
      expect(autoAt(id, cheapest.trigger_ratio).cost).toBeCloseTo(cheapest.cost, 12);
      expect(cheapest.saved).toBeCloseTo(sweep.stored_cost - cheapest.cost, 12);
    });
  }
});
