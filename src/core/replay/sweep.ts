/**
 * When to compact (issue 41): `auto`'s trigger swept over the model's
 * context window, at prompts from 10 K tokens up (finer where real prompts
 * are: a share of a 1 M window in steps of 5 % starts at 50 K), each point the whole
 * conversation replayed under `auto` with that `trigger_ratio` and priced
 * on the same calibrated model as every other figure. The cheapest point is
 * the answer ("compact once the prompt passes N tokens: saves $X against
 * the session as it ran"); each point is exactly `replay --schedule auto`
 * with `[conversation.compaction.auto] trigger_ratio` set to it.
 *
 * Boundary: pure TypeScript, no DOM.
 */
import { formatCount, formatDollars, formatPercent } from '../counting/format.ts';
import type { StreamElement } from '../types.ts';
import { sumColumn } from './cost-model.ts';
import { SAVING_BASIS } from './presentation.ts';
import { createPricingModel, runAndPrice } from './replay.ts';
import { createStreamState } from './stream-state.ts';
import type { ReplaySettings } from './types.ts';

/**
 * The prompts, in thousands of tokens, at which `auto` is swept to trigger
 * (those under 95 % of the window); each is written as the ratio of the
 * window it is, which `trigger_ratio` reads back as the same number.
 */
export const SWEEP_THOUSANDS: readonly number[] = [
  10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800, 1000,
];

/** One point of the sweep: `auto` at that trigger. */
export interface SweepPoint {
  /** The share of the context window, as `trigger_ratio` is written. */
  trigger_ratio: number;
  /** The billed prompt above which `auto` compacts: ratio × window. */
  trigger_tokens: number;
  cost: number;
  /** Compactions `auto` created over the conversation at this trigger. */
  compactions: number;
}

/** `replay --sweep trigger --json`'s shape (docs/replay.md). */
export interface TriggerSweep {
  sweep: 'auto-trigger';
  model: string;
  context_window_tokens: number;
  /** `auto` compacts only from this turn on (`min_turns`). */
  min_turns: number;
  /** The session as it ran (`stored`), the figure each saving is against. */
  stored_cost: number;
  points: SweepPoint[];
  /**
   * The cheapest point, when it costs less than `stored`; on a tie the
   * highest trigger (the same money for the least context taken away).
   */
  cheapest: (SweepPoint & { saved: number; saved_percent: number }) | null;
}

/** `auto` at every trigger of {@link SWEEP_THOUSANDS} under the window, beside `stored`. */
export function sweepAutoTrigger(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
): TriggerSweep {
  const pricing = createPricingModel(createStreamState(elements, settings));
  const window = pricing.triggers.contextWindow;
  const storedCost = sumColumn(runAndPrice(pricing, 'stored').priced.cost);
  const triggers = SWEEP_THOUSANDS.map((thousands) => thousands * 1000).filter(
    (tokens) => tokens <= 0.95 * window,
  );
  const points = triggers.map((tokens): SweepPoint => {
    const ratio = tokens / window;
    // The same state and calibration, `auto` reading another trigger (its runs are memoised by it).
    const state = {
      ...pricing.state,
      settings: { ...settings, auto: { ...settings.auto, triggerRatio: ratio } },
    };
    const run = runAndPrice({ ...pricing, state }, 'auto');
    return {
      trigger_ratio: ratio,
      trigger_tokens: Math.round(ratio * window),
      cost: sumColumn(run.priced.cost),
      compactions: run.raw.reduce((total, request) => total + request.created, 0),
    };
  });
  const best = points.reduce<SweepPoint | null>(
    (found, point) => (found === null || point.cost <= found.cost ? point : found),
    null,
  );
  const cheapest =
    best && best.cost < storedCost
      ? {
          ...best,
          saved: storedCost - best.cost,
          saved_percent: storedCost === 0 ? 0 : ((storedCost - best.cost) / storedCost) * 100,
        }
      : null;
  return {
    sweep: 'auto-trigger',
    model: pricing.model.name,
    context_window_tokens: window,
    min_turns: settings.auto.minTurns,
    stored_cost: storedCost,
    points,
    cheapest,
  };
}

/** The sweep's answer in one sentence, the same on the page and in the CLI. */
export function describeSweep(sweep: TriggerSweep): string {
  const { cheapest } = sweep;
  if (sweep.points.every((point) => point.compactions === 0)) {
    return `auto compacts nothing on this conversation at any trigger from ${formatCount((SWEEP_THOUSANDS[0] ?? 0) * 1000)} tokens up (it starts once the conversation has min_turns = ${formatCount(sweep.min_turns)} turns): every point costs what the session as it ran did (${formatDollars(sweep.stored_cost)}).`;
  }
  if (!cheapest) {
    return `No trigger of auto is cheaper than the session as it ran (${formatDollars(sweep.stored_cost)}): compacting at any share of ${sweep.model}'s ${formatCount(sweep.context_window_tokens)}-token window costs as much or more.`;
  }
  return `Compact once the prompt passes ${formatCount(cheapest.trigger_tokens)} tokens (trigger_ratio = ${cheapest.trigger_ratio}): ${formatDollars(cheapest.cost)}, saving ${formatDollars(cheapest.saved)} (${formatPercent(cheapest.saved_percent)}) ${SAVING_BASIS.stored} (${formatDollars(sweep.stored_cost)}).`;
}
