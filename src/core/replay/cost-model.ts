/**
 * The replay's one cost model: what each request costs with prompt caching,
 * for schedules and runtime policies alike, and the recorded bill priced
 * with the same model row.
 *
 * Request k's billed prompt is `prefix(k) + factor · visible_k + hidden_k`
 * (calibration.ts). Nothing is read from the cache on the first request or
 * after a gap longer than the time to live (cold). Otherwise the cache holds
 * the previous request's prompt: what this one shares with it from the start
 * is read (the invisible prefix first, as far as it did not change), the
 * rest is written; where the runtime puts its breakpoints only on the head
 * and the last turns, a change further back than the cache looks is read up
 * to the head only. Less than the model's minimum prefix is never cached.
 * Dollars: `(input · (read·r + write·w) + output · output_k) / 10^6`, with
 * `w` the write the runtime asks for (5-minute or 1-hour) and every rate
 * multiplied by the model's tier when the prompt passes its threshold.
 */
import type { RecordedUsage } from '../import/recorded-usage.ts';
import { type Calibration, getPrefixTokens } from './calibrate.ts';
import type { ModelPrices } from './prices.ts';
import type { ReplayRequestSite } from './requests.ts';
import { CACHE_LOOKBACK_BLOCKS } from './runtime-profiles.ts';
import type { PromptFigures, RawRequest } from './types.ts';

/** What pricing reads besides a schedule's raw requests. */
export interface CostContext {
  model: ModelPrices;
  calibration: Calibration;
  sites: readonly ReplayRequestSite[];
  gaps: readonly (number | null)[];
}

/**
 * One schedule's requests priced, a column per figure (request k at index
 * k). Columns, not an object per request: a replay of thousands of requests
 * keeps them across young collections, and V8 then allocates such objects
 * in the old generation, where each costs more the larger the heap.
 */
export interface PricedRequests {
  length: number;
  prompt_tokens: Float64Array;
  prefix_tokens: Float64Array;
  cache_read: Float64Array;
  cache_write: Float64Array;
  output_tokens: Float64Array;
  cost: Float64Array;
  cold: Uint8Array;
  /** Warm, yet nothing read from the cache: what it shares is under the model's minimum. */
  under_minimum: Uint8Array;
  prefix_broken: Uint8Array;
}

/** The rate multipliers of a request of `promptTokens` (the highest tier it passes, or none). */
export function getTier(
  model: ModelPrices,
  promptTokens: number,
): { input: number; output: number } {
  let tier = { input: 1, output: 1 };
  for (const step of model.tiers) {
    if (promptTokens > step.above_tokens) tier = { input: step.input, output: step.output };
  }
  return tier;
}

/** The cost in dollars of one request from its own fields (the write billed at `writeMultiplier`). */
export function getRequestCost(
  model: ModelPrices,
  figures: { cache_read: number; cache_write: number; output_tokens: number },
  writeMultiplier: number = model.write,
): number {
  const tier = getTier(model, figures.cache_read + figures.cache_write);
  return (
    (model.input *
      tier.input *
      (model.read * figures.cache_read + writeMultiplier * figures.cache_write) +
      model.output * tier.output * figures.output_tokens) /
    1_000_000
  );
}

/**
 * The recorded usage priced with the model: uncached input at the input
 * price, cache reads at `read`, 5-minute writes at `write`, 1-hour writes
 * at `write_1h` (a write recorded without its split is a 5-minute one), and
 * the output; the whole request at its tier.
 */
export function getRecordedCost(model: ModelPrices, usage: RecordedUsage): number {
  const oneHour = usage.cache_write_1h_tokens ?? 0;
  const fiveMinute = usage.cache_write_tokens - oneHour;
  const uncached = usage.prompt_tokens - usage.cache_read_tokens - usage.cache_write_tokens;
  const tier = getTier(model, usage.prompt_tokens);
  return (
    (model.input *
      tier.input *
      (uncached +
        model.read * usage.cache_read_tokens +
        model.write * fiveMinute +
        model.write_1h * oneHour) +
      model.output * tier.output * usage.output_tokens) /
    1_000_000
  );
}

/** The write multiplier the calibration's cache is billed at. */
export function getWriteMultiplier(model: ModelPrices, calibration: Calibration): number {
  return calibration.cacheWrite === '1h' ? model.write_1h : model.write;
}

/** Prices one schedule's (or policy's) requests: prompt, cache read and write, output and cost. */
export function priceRequests(context: CostContext, raw: readonly RawRequest[]): PricedRequests {
  const { model, calibration, sites, gaps } = context;
  const { tokenFactor } = calibration;
  const writeMultiplier = getWriteMultiplier(model, calibration);
  const length = raw.length;
  const priced: PricedRequests = {
    length,
    prompt_tokens: new Float64Array(length),
    prefix_tokens: new Float64Array(length),
    cache_read: new Float64Array(length),
    cache_write: new Float64Array(length),
    output_tokens: new Float64Array(length),
    cost: new Float64Array(length),
    cold: new Uint8Array(length),
    under_minimum: new Uint8Array(length),
    prefix_broken: new Uint8Array(length),
  };
  let previousPrefix = 0;
  for (let k = 0; k < length; k++) {
    const request = raw[k] as RawRequest;
    const gap = gaps[k] ?? null;
    // An unknown gap is taken as warm (said in the notes).
    const cold = k === 0 || (gap !== null && gap > calibration.ttlSeconds);
    const prefix = getPrefixTokens(calibration, k);
    const prompt = round(prefix + tokenFactor * request.visibleTokens + request.hiddenTokens);
    const broken = k > 0 && request.commonCount < request.previousCount;
    // A cold request still reads the head other sessions keep warm, as far as the bill shows it.
    let cached = cold ? Math.min(calibration.coldReadTokens, prompt) : 0;
    if (!cold) {
      // The prefix is cached as far as both requests have it: a step adds to its end.
      const head = Math.min(prefix, previousPrefix);
      const farBack =
        calibration.breakpoints === 'head-and-last-turns' &&
        request.previousCount - request.commonCount > CACHE_LOOKBACK_BLOCKS;
      cached = farBack
        ? head
        : round(head + tokenFactor * request.commonVisible + request.commonHidden);
      cached = Math.min(cached, prompt);
    }
    const underMinimum = cached > 0 && cached < model.min_prefix_tokens;
    if (underMinimum) cached = 0;
    const outputTokens = getOutputTokens(calibration, sites[k] as ReplayRequestSite, k);
    priced.prompt_tokens[k] = prompt;
    priced.prefix_tokens[k] = round(prefix);
    priced.cache_read[k] = cached;
    priced.cache_write[k] = prompt - cached;
    priced.output_tokens[k] = outputTokens;
    priced.cost[k] = getRequestCost(
      model,
      { cache_read: cached, cache_write: prompt - cached, output_tokens: outputTokens },
      writeMultiplier,
    );
    priced.cold[k] = cold ? 1 : 0;
    priced.under_minimum[k] = underMinimum && !cold ? 1 : 0;
    priced.prefix_broken[k] = broken ? 1 : 0;
    previousPrefix = prefix;
  }
  return priced;
}

/**
 * A request's output: the recorded output where the calibration reads the
 * bill, else the visible output at the factor plus the hidden output
 * estimated for a response (first-order: the same under every schedule).
 */
function getOutputTokens(calibration: Calibration, site: ReplayRequestSite, k: number): number {
  if (calibration.source === 'none') return site.outputTokens;
  if (calibration.usesRecordedOutput && site.recorded !== null) return site.recorded.output_tokens;
  return round(calibration.tokenFactor * site.outputTokens + (calibration.hiddenOfRequest[k] ?? 0));
}

function round(tokens: number): number {
  return Math.round(tokens);
}

/** Request k's figures of a priced schedule. */
export function figuresAt(priced: PricedRequests, k: number): PromptFigures {
  return {
    prompt_tokens: priced.prompt_tokens[k] as number,
    cache_read: priced.cache_read[k] as number,
    cache_write: priced.cache_write[k] as number,
    cost: priced.cost[k] as number,
  };
}

/** A column's sum, in request order: floating-point sums depend on their order, and the CLI's figures are compared exactly. */
export function sumColumn(column: Float64Array | Uint8Array): number {
  let total = 0;
  for (let k = 0; k < column.length; k++) total += column[k] as number;
  return total;
}

/** The saving of `cost` against `baseline`, in percent of the baseline (0 when the baseline is 0). */
export function savedPercent(baseline: number, cost: number): number {
  return baseline === 0 ? 0 : ((baseline - cost) / baseline) * 100;
}
