/**
 * The replay folder owns what the conversation cost, request by request
 * (issues 21 and 40). This file is its front door: one conversation's
 * replay (`replayStream`) and a folder's sum, from settings resolved in one
 * place (`resolveReplaySettings`). The rooms behind it, each with one rule:
 * requests.ts (the requests), prompts.ts (their prompts, incrementally),
 * stream-state.ts (what a stream shares between runs), schedule-runner.ts
 * (JP's schedules), policy-runner.ts (a runtime's own clearing),
 * calibration.ts and calibrate.ts (the invisible prefix, the token factor
 * and the hidden output, fitted on the bill), cost-model.ts (the cache and
 * the dollars), prices.ts and price-table.ts (the models), runtime-profiles.ts
 * (each runtime's defaults).
 *
 * The model is first-order: it assumes the model would have answered the
 * same with less context. Every figure is priced on one calibrated model:
 * under `stored` it reproduces the recorded bill (docs/replay.md).
 *
 * Boundary: pure TypeScript, no DOM; the worker can call `runReplay`.
 */

import { HINT_CHOICES } from '../analyses/hint-table.ts';
import type { Readings } from '../compaction/readings.ts';
import { DEFAULT_READINGS, withReadings } from '../compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../config/config.ts';
import { type DrawnOnLater, measureDrawnOnLater } from '../counting/drawn-on.ts';
import { formatCount } from '../counting/format.ts';
import { loadTokenCounter, type TokenCounter } from '../counting/tokens.ts';
import { hasErrors } from '../diagnostics.ts';
import { NO_TIMESTAMP_NOTE_CODE } from '../import/builder.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { PLAYGROUND_STREAM_LIMITS } from '../json/limits.ts';
import { compareCodePoints } from '../json/values.ts';
import { buildToolInfo, describeFirstProblem, planCompactions } from '../playground/playground.ts';
import type { HintChoice, PlaygroundInput, ViewMode } from '../playground/types.ts';
import type { Diagnostic, StreamElement } from '../types.ts';
import { DEFAULT_AUTO_COMPACTION, readAutoCompaction } from './auto-config.ts';
import { type Calibration, calibrate, getPrefixTokens, reportCalibration } from './calibrate.ts';
import { median } from './calibration.ts';
import {
  type CostContext,
  figuresAt,
  getRecordedCost,
  type PricedRequests,
  priceRequests,
  savedPercent,
  sumColumn,
} from './cost-model.ts';
import { type PolicyChoice, parsePolicyChoice } from './policies/policies.ts';
import { runPolicy } from './policy-runner.ts';
import {
  DEFAULT_MODEL,
  findModel,
  type ModelPrices,
  matchRecordedModel,
  parsePriceSpec,
} from './prices.ts';
import { addRecordedUsage, type RecordedUsage } from './recorded-usage.ts';
import { createsCompactions, runSchedule, type ScheduleTriggers } from './schedule-runner.ts';
import { type ReplayChoice, SCHEDULES, type ScheduleId } from './schedules.ts';
import { createStreamState, type StreamState } from './stream-state.ts';
import type {
  CalibrationReport,
  CalibrationSettings,
  ConversationRow,
  RawRequest,
  RecordedTotals,
  Replay,
  ReplayRequest,
  ReplaySettings,
  ReplayTotals,
  ScheduleSeries,
  ToolWhatIf,
} from './types.ts';

export { getRecordedCost, getRequestCost } from './cost-model.ts';
export type { ModelPrices } from './prices.ts';
export { DEFAULT_MODEL, findModel, MODELS, parsePriceSpec } from './prices.ts';
export type { RecordedUsage } from './recorded-usage.ts';
export type { PolicySelection, ReplayChoice, ScheduleId } from './schedules.ts';
export { DEFAULT_REPLAY_CHOICE, isScheduleId, SCHEDULES } from './schedules.ts';
export type {
  CalibrationChoice,
  CalibrationReport,
  CalibrationSettings,
  CalibrationSource,
  ConversationRow,
  PromptFigures,
  RecordedTotals,
  Replay,
  ReplayRequest,
  ReplaySettings,
  ReplayTotals,
  ScheduleSeries,
  ToolWhatIf,
} from './types.ts';

/** The caveat shown wherever the figures are. */
export const FIRST_ORDER_NOTE =
  'First-order: every schedule is priced as if the model had answered the same with less context.';

/** JP's own compactions, the policy when none is chosen. */
const JP_POLICY: PolicyChoice = { name: 'jp', parameters: {} };

/** The model a replay prices with, and what was said choosing it. */
interface ModelChoice {
  model: ModelPrices;
  notes: string[];
}

/**
 * The model: the one asked for, else the one the transcript recorded (the
 * table's row for its id), else the table's default; custom prices over it.
 * A custom price that does not read was refused before (`resolveReplaySettings`).
 */
function chooseModel(settings: ReplaySettings, state: StreamState): ModelChoice {
  const notes: string[] = [];
  let base = settings.model;
  const recorded = state.runtime.model;
  if (base === null) {
    const matched = recorded === null ? undefined : matchRecordedModel(recorded);
    base = matched ?? DEFAULT_MODEL;
    if (recorded !== null && !matched) {
      notes.push(
        `The transcript's model "${shorten(recorded)}" is not in the price table: priced as ${DEFAULT_MODEL.name}; choose a model or custom prices.`,
      );
    }
    if (state.runtime.models.length > 1) {
      notes.push(
        `The transcript records ${state.runtime.models.length} models (${state.runtime.models.map(shorten).join(', ')}): every request is priced as ${base.name}, the most used.`,
      );
    }
  }
  if (settings.price) {
    const custom = parsePriceSpec(settings.price, base);
    if (custom.ok) return { model: custom.value, notes };
  }
  return { model: base, notes };
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** What schedules read from the calibrated model to decide: the time to live and the billed prompt. */
function getTriggers(calibration: Calibration, model: ModelPrices): ScheduleTriggers {
  return {
    ttlSeconds: calibration.ttlSeconds,
    contextWindow: model.context_window_tokens,
    billedPrompt: (k, visible, hidden) =>
      getPrefixTokens(calibration, k) + calibration.tokenFactor * visible + hidden,
    key: JSON.stringify([
      calibration.ttlSeconds,
      model.context_window_tokens,
      calibration.prefix,
      calibration.tokenFactor,
    ]),
  };
}

/** A stream's calibrated model under the settings: everything pricing needs. */
export interface PricingModel {
  state: StreamState;
  model: ModelPrices;
  calibration: Calibration;
  triggers: ScheduleTriggers;
  cost: CostContext;
  notes: string[];
}

export function createPricingModel(state: StreamState): PricingModel {
  const { settings } = state;
  const chosen = chooseModel(settings, state);
  const calibration = calibrate({
    settings: settings.calibration,
    runtime: state.runtime,
    sites: state.scan.requests,
    stored: runSchedule(state, 'stored', NO_TRIGGERS),
    hidden: state.hidden,
    configPrefix: state.configPrefix,
    gaps: state.gaps,
    model: chosen.model,
  });
  return {
    state,
    model: chosen.model,
    calibration,
    triggers: getTriggers(calibration, chosen.model),
    cost: { model: chosen.model, calibration, sites: state.scan.requests, gaps: state.gaps },
    notes: chosen.notes,
  };
}

/** `none` and `stored` create nothing: no trigger is read. */
const NO_TRIGGERS: ScheduleTriggers = {
  ttlSeconds: Number.POSITIVE_INFINITY,
  contextWindow: Number.POSITIVE_INFINITY,
  billedPrompt: () => 0,
  key: 'none',
};

/** One schedule's run over the stream and its pricing, request by request. */
export function runAndPrice(
  pricing: PricingModel,
  schedule: ScheduleId,
  toolChoice?: Parameters<typeof runSchedule>[3],
) {
  const raw = runSchedule(pricing.state, schedule, triggersFor(pricing, schedule), toolChoice);
  return { raw, priced: priceRequests(pricing.cost, raw) };
}

/** What a schedule's run reads to decide: none for the schedules that create nothing. */
export function triggersFor(pricing: PricingModel, schedule: ScheduleId): ScheduleTriggers {
  return createsCompactions(schedule) ? pricing.triggers : NO_TRIGGERS;
}

/**
 * What a replay computes beyond the chosen schedule and its baseline: every
 * schedule's total side by side, and the per-tool what-if (six replays per
 * tool the stream calls, under a schedule that creates compactions).
 * Both by default; the figures alone are the chosen schedule, `none` and
 * `stored` (the bill's).
 */
export interface ReplayScope {
  schedules?: boolean;
  tools?: boolean;
  /** Each computed schedule's per-request figures (`Replay.series`), off by default. */
  series?: boolean;
}

/** Replays one conversation (already read and decoded) under the settings. */
export function replayStream(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
  scope: ReplayScope = {},
): Replay {
  const state = createStreamState(elements, settings);
  const pricing = createPricingModel(state);
  const rawBySchedule = new Map<ScheduleId, readonly RawRequest[]>();
  const priced = new Map<ScheduleId, PricedRequests>();
  for (const schedule of SCHEDULES) {
    const needed =
      scope.schedules !== false ||
      schedule === 'none' ||
      schedule === 'stored' ||
      schedule === settings.schedule;
    if (!needed) continue;
    const run = runAndPrice(pricing, schedule);
    rawBySchedule.set(schedule, run.raw);
    priced.set(schedule, run.priced);
  }
  // `none`, `stored` and the chosen schedule are always run (above).
  const baseline = priced.get('none') as PricedRequests;
  const stored = priced.get('stored') as PricedRequests;
  const policy: PolicyChoice = settings.policy ?? JP_POLICY;
  const runtime =
    policy.name === 'jp'
      ? null
      : runPolicy(state, policy, pricing.calibration, pricing.model.context_window_tokens);
  const chosen = runtime
    ? priceRequests(pricing.cost, runtime.raw)
    : (priced.get(settings.schedule) as PricedRequests);
  const chosenRaw = runtime ? runtime.raw : (rawBySchedule.get(settings.schedule) ?? []);
  // Every request is priced, or none: a policy the replay does not know prices none.
  if (chosen.length !== state.scan.requests.length || baseline.length !== chosen.length) {
    throw new Error(`a replay priced ${chosen.length} of ${state.scan.requests.length} requests`);
  }
  const misses = findUnexplainedMisses(pricing, stored, rawBySchedule.get('stored') ?? []);
  const requests = state.scan.requests.map((site, k): ReplayRequest => {
    const recordedCost = site.recorded ? getRecordedCost(pricing.model, site.recorded) : null;
    return {
      index: k + 1,
      time: site.time,
      gap_seconds: state.gaps[k] ?? null,
      turn: site.turn,
      prompt_tokens: chosen.prompt_tokens[k] as number,
      prefix_tokens: chosen.prefix_tokens[k] as number,
      cache_read: chosen.cache_read[k] as number,
      cache_write: chosen.cache_write[k] as number,
      output_tokens: chosen.output_tokens[k] as number,
      cost: chosen.cost[k] as number,
      baseline: figuresAt(baseline, k),
      compactions_created: runtime ? 0 : (chosenRaw[k]?.created ?? 0),
      prefix_broken: chosen.prefix_broken[k] === 1,
      cold: chosen.cold[k] === 1,
      recorded: site.recorded,
      recorded_cost: recordedCost,
      ...(misses[k] ? { unexplained_miss: true } : {}),
      ...(chosen.under_minimum[k] === 1 ? { under_minimum: true } : {}),
      ...(runtime
        ? {
            cleared_tool_uses: chosenRaw[k]?.created ?? 0,
            summarised: k > 0 && runtime.decisions[k - 1]?.summary?.since === k - 1,
          }
        : {}),
    };
  });
  const schedules: Partial<Record<ScheduleId, number>> = Object.fromEntries(
    [...priced].map(([schedule, figures]) => [schedule, sumColumn(figures.cost)]),
  );
  const chosenCost = schedules[settings.schedule] ?? 0;
  const tools =
    scope.tools === false || !hasToolWhatIf(policy) ? [] : getToolWhatIfs(pricing, chosenCost);
  return {
    model: pricing.model,
    // A runtime's policy runs on the history with no JP compaction in force.
    schedule: runtime ? 'none' : settings.schedule,
    policy,
    tokenizer: settings.counter.id,
    calibration: reportCalibration(pricing.calibration),
    requests,
    totals: makeTotals(baseline, chosen),
    schedules,
    tools,
    recorded: getRecordedTotals(pricing, stored, misses),
    scale: 1,
    notes: getNotes(pricing, settings, chosen),
    ...(scope.series
      ? {
          series: Object.fromEntries(
            [...priced].map(([schedule, figures]) => [schedule, getSeries(figures)]),
          ),
        }
      : {}),
  };
}

/**
 * Requests where the bill wrote far more to the cache than `stored` models
 * (a write spike) though the model has them warm, unbroken and with no step
 * in the prefix: cache misses nothing in the transcript explains. Marked and
 * counted, never fitted away.
 */
function findUnexplainedMisses(
  pricing: PricingModel,
  stored: PricedRequests,
  raw: readonly RawRequest[],
): boolean[] {
  const { calibration } = pricing;
  if (calibration.source === 'none') return [];
  return pricing.state.scan.requests.map((site, k) => {
    const recorded = site.recorded;
    if (!recorded || k === 0 || stored.cold[k] === 1 || stored.prefix_broken[k] === 1) return false;
    if ((raw[k]?.created ?? 0) > 0) return false;
    if (getPrefixTokens(calibration, k) !== getPrefixTokens(calibration, k - 1)) return false;
    const modelledWrite = stored.cache_write[k] as number;
    const recordedWrite = recorded.prompt_tokens - recorded.cache_read_tokens;
    return (
      recordedWrite > Math.max(2 * modelledWrite, modelledWrite + 0.25 * recorded.prompt_tokens)
    );
  });
}

function getSeries(figures: PricedRequests): ScheduleSeries {
  return {
    prompt_tokens: Array.from(figures.prompt_tokens),
    prefix_tokens: Array.from(figures.prefix_tokens),
    cache_read: Array.from(figures.cache_read),
    cache_write: Array.from(figures.cache_write),
    cost: Array.from(figures.cost),
    totals: {
      prompt_tokens: sumColumn(figures.prompt_tokens),
      cache_read: sumColumn(figures.cache_read),
      cache_write: sumColumn(figures.cache_write),
      output_tokens: sumColumn(figures.output_tokens),
      cost: sumColumn(figures.cost),
    },
  };
}

function getNotes(
  pricing: PricingModel,
  settings: ReplaySettings,
  chosen: PricedRequests,
): string[] {
  const { state } = pricing;
  const notes = [FIRST_ORDER_NOTE, ...pricing.calibration.notes, ...pricing.notes];
  const requests = state.scan.requests.length;
  if (requests === 0) {
    notes.push(
      'The conversation makes no request: nothing was sent to a model, so it cost nothing.',
    );
  }
  const underMinimum = sumColumn(chosen.under_minimum);
  if (underMinimum > 0) {
    notes.push(
      `${formatCount(underMinimum)} of ${formatCount(requests)} requests read nothing from a warm cache: what each shares with the request before is under ${pricing.model.name}'s minimum of ${formatCount(pricing.model.min_prefix_tokens)} tokens to cache (marked under_minimum, not cold).`,
    );
  }
  const untimed = state.scan.requests.filter((site) => site.instant === undefined).length;
  if (untimed > 0) {
    notes.push(
      `${untimed} of ${requests} requests have no readable timestamp: their gaps are unknown and the cache is assumed warm between requests.`,
    );
  }
  if (state.backwardsGaps > 0) {
    notes.push(
      `${state.backwardsGaps} request${state.backwardsGaps === 1 ? ' is' : 's are'} timed before the request before ${state.backwardsGaps === 1 ? 'it' : 'them'}: ${state.backwardsGaps === 1 ? 'its gap is' : 'their gaps are'} taken as unknown, the cache as warm.`,
    );
  }
  const window = pricing.model.context_window_tokens;
  const oversized = state.scan.requests.filter((_, k) => {
    const raw = state.fixedSchedules.get('stored')?.[k];
    return (
      raw !== undefined &&
      pricing.triggers.billedPrompt(k, raw.visibleTokens, raw.hiddenTokens) > window
    );
  }).length;
  if (oversized > 0) {
    notes.push(
      `${oversized} request${oversized === 1 ? '' : 's'} would exceed ${pricing.model.name}'s context window of ${formatCount(window)} tokens: no such request could have been sent; the figures price ${oversized === 1 ? 'it' : 'them'} anyway.`,
    );
  }
  const policy = settings.policy?.name ?? 'jp';
  if (policy !== 'jp') {
    notes.push(
      `Figures under ${policy}'s own clearing, replayed from its published behaviour (docs/runtime-policies.md); the schedules' totals are JP's.`,
    );
    if ('summary_ratio' in (settings.policy?.parameters ?? {})) {
      notes.push(
        `A summary's size is an estimate (summary_ratio ${String(settings.policy?.parameters.summary_ratio)} of what it replaces); its own request is not priced.`,
      );
    }
  } else if (settings.schedule === 'stored') {
    notes.push(
      "Hints change nothing under stored: they are frozen into the stored compaction events (D17's first open question).",
    );
  } else if (settings.schedule === 'none') {
    notes.push('Hints change nothing under none: no compaction is in force.');
  }
  const invalid = state.scan.invalidRecorded;
  for (const entry of invalid.slice(0, 3)) {
    notes.push(`Element ${entry.index + 1}: ${entry.message}; its recorded usage is left out.`);
  }
  if (invalid.length > 3) {
    notes.push(
      `${invalid.length - 3} more elements carry recorded usage that does not read; left out too (${invalid.length} in all).`,
    );
  }
  return notes;
}

function getRecordedTotals(
  pricing: PricingModel,
  stored: PricedRequests,
  misses: readonly boolean[],
): RecordedTotals | null {
  let usage: RecordedUsage | null = null;
  let requests = 0;
  let modelled = 0;
  let modelledCost = 0;
  let cost = 0;
  const errors: number[] = [];
  pricing.state.scan.requests.forEach((site, k) => {
    if (site.recorded === null) return;
    usage = usage === null ? { ...site.recorded } : addRecordedUsage(usage, site.recorded);
    requests++;
    const prompt = stored.prompt_tokens[k] as number;
    modelled += prompt;
    modelledCost += stored.cost[k] as number;
    cost += getRecordedCost(pricing.model, site.recorded);
    if (site.recorded.prompt_tokens > 0) {
      errors.push(Math.abs(prompt - site.recorded.prompt_tokens) / site.recorded.prompt_tokens);
    }
  });
  if (usage === null) return null;
  const total = usage as RecordedUsage;
  return {
    ...total,
    requests,
    cost,
    modelled_prompt_tokens: modelled,
    modelled_cost: modelledCost,
    ratio: modelled === 0 ? null : total.prompt_tokens / modelled,
    median_prompt_error: errors.length === 0 ? null : median(errors),
    unexplained_misses: misses.filter(Boolean).length,
  };
}

function makeTotals(baseline: PricedRequests, chosen: PricedRequests): ReplayTotals {
  const base = { prompt_tokens: sumColumn(baseline.prompt_tokens), cost: sumColumn(baseline.cost) };
  const schedule = { prompt_tokens: sumColumn(chosen.prompt_tokens), cost: sumColumn(chosen.cost) };
  return {
    baseline: base,
    schedule,
    saved: {
      prompt_tokens: base.prompt_tokens - schedule.prompt_tokens,
      cost: base.cost - schedule.cost,
      percent: savedPercent(base.cost, schedule.cost),
    },
  };
}

function cheapestOf(costs: Record<HintChoice, number>): HintChoice {
  let best: HintChoice = HINT_CHOICES[0] as HintChoice;
  for (const choice of HINT_CHOICES) if (costs[choice] < costs[best]) best = choice;
  return best;
}

/**
 * Whether a replay under `policy` has a per-tool what-if: it prices JP's
 * hints under JP's schedules; a runtime's knobs are its parameters.
 */
function hasToolWhatIf(policy: PolicyChoice): boolean {
  return policy.name === 'jp';
}

/**
 * The per-tool what-if in money: each tool the config knows under each of
 * the six hint choices, the others as configured, under the chosen schedule
 * (`chosenCost` is its total with every hint as configured). A cell equals
 * the replay with that hint written into the config as the tool's own.
 */
function getToolWhatIfs(pricing: PricingModel, chosenCost: number): ToolWhatIf[] {
  const { elements, settings } = pricing.state;
  const toolInfo = buildToolInfo(
    elements,
    planCompactions(elements, settings.config, null, settings.readings).configInForce,
  );
  // The hint in force is read at the end of the stream; a config_delta may have set the
  // tool's hint only part of the way (a compaction before it froze another): then no cell
  // is taken to be the chosen figures, each is replayed.
  const changesAlong = elements.some((element) => element.type === 'config_delta');
  const drawnOn = measureDrawnOnLater(elements);
  return toolInfo.map((info): ToolWhatIf => {
    const costs = {} as Record<HintChoice, number>;
    const inForce = info.hint ?? 'inherit';
    for (const choice of HINT_CHOICES) {
      // The config already says exactly this choice for the tool: its own entry, or no entry at all.
      const written =
        !changesAlong &&
        ((choice === inForce && info.source === 'tool') ||
          (choice === 'inherit' && info.source === 'rule'));
      const same = !createsCompactions(settings.schedule) || written || info.calls === 0;
      costs[choice] = same
        ? chosenCost
        : sumColumn(
            runAndPrice(pricing, settings.schedule, { tool: info.name, choice }).priced.cost,
          );
    }
    return {
      name: info.name,
      hint: inForce,
      what_if_cost: costs,
      cheapest: cheapestOf(costs),
      drawn_on_later: drawnOn.get(info.name) ?? { results: 0, drawn: 0, ids: [] },
    };
  });
}

/**
 * The per-tool what-if alone (the cost pane's own extra, asked for when its
 * section is open): equal to `replayStream(…).tools` with the same settings,
 * without the other schedules, the baseline or a runtime's replay.
 */
export function replayToolWhatIfs(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
): ToolWhatIf[] {
  if (!hasToolWhatIf(settings.policy ?? JP_POLICY)) return [];
  const pricing = createPricingModel(createStreamState(elements, settings));
  const chosenCost = sumColumn(runAndPrice(pricing, settings.schedule).priced.cost);
  return getToolWhatIfs(pricing, chosenCost);
}

function addRecordedTotals(total: RecordedTotals | null, more: RecordedTotals): RecordedTotals {
  if (total === null) return { ...more };
  const usage = addRecordedUsage(total, more);
  const modelled = total.modelled_prompt_tokens + more.modelled_prompt_tokens;
  return {
    ...usage,
    requests: total.requests + more.requests,
    cost: total.cost + more.cost,
    modelled_prompt_tokens: modelled,
    modelled_cost: total.modelled_cost + more.modelled_cost,
    ratio: modelled === 0 ? null : usage.prompt_tokens / modelled,
    // The folder's median is not the median of medians: the larger of the two stands for both.
    median_prompt_error:
      total.median_prompt_error === null
        ? more.median_prompt_error
        : more.median_prompt_error === null
          ? total.median_prompt_error
          : Math.max(total.median_prompt_error, more.median_prompt_error),
    unexplained_misses: total.unexplained_misses + more.unexplained_misses,
  };
}

/** A folder's calibration: each conversation has its own (`conversations[].calibration`). */
function sumCalibrations(reports: readonly CalibrationReport[]): CalibrationReport {
  const first = reports[0];
  const sources = new Set(reports.map((report) => report.source));
  const source = first && sources.size === 1 ? first.source : 'recorded';
  return {
    source: first ? source : 'none',
    prefix_tokens: 0,
    prefix_steps: [],
    token_factor: first?.token_factor ?? 1,
    factor_source: first?.factor_source ?? 'none',
    hidden_output_tokens: reports.reduce((n, report) => n + report.hidden_output_tokens, 0),
    runtime: first?.runtime ?? null,
    runtime_version: null,
    points: reports.reduce((n, report) => n + report.points, 0),
    median_error: null,
    ttl_seconds: first?.ttl_seconds ?? 0,
    cache_write: first?.cache_write ?? '5m',
    breakpoints: first?.breakpoints ?? 'every-request',
    head_tokens: 0,
    cold_read_tokens: 0,
    notes: [
      sources.size > 1
        ? `Each conversation is calibrated on its own (sources: ${[...sources].join(', ')}); see each conversation's calibration.`
        : "Each conversation is calibrated on its own; see each conversation's calibration.",
    ],
  };
}

/** Sums several conversations' replays (same schedule and tokenizer), a row each. */
export function sumReplays(
  named: readonly { name: string; replay: Replay }[],
  template: ReplaySettings,
): Replay {
  const requests: ReplayRequest[] = [];
  const schedules = Object.fromEntries(SCHEDULES.map((s) => [s, 0])) as Record<ScheduleId, number>;
  let recorded: RecordedTotals | null = null;
  const notes = new Set<string>();
  for (const { name, replay } of named) {
    for (const request of replay.requests) requests.push({ ...request, conversation: name });
    for (const schedule of SCHEDULES) schedules[schedule] += replay.schedules[schedule] ?? 0;
    if (replay.recorded) recorded = addRecordedTotals(recorded, replay.recorded);
    for (const note of replay.notes) notes.add(note);
  }
  // A tool a conversation never calls costs that conversation's schedule under every hint.
  const toolNames = new Map<string, HintChoice>();
  for (const { replay } of named)
    for (const tool of replay.tools) toolNames.set(tool.name, tool.hint);
  const tools = [...toolNames].map(([name, hint]): ToolWhatIf => {
    const costs = Object.fromEntries(HINT_CHOICES.map((c) => [c, 0])) as Record<HintChoice, number>;
    const drawn: DrawnOnLater = { results: 0, drawn: 0, ids: [] };
    for (const { replay } of named) {
      const tool = replay.tools.find((t) => t.name === name);
      for (const choice of HINT_CHOICES) {
        costs[choice] += tool
          ? tool.what_if_cost[choice]
          : (replay.schedules[replay.schedule] ?? 0);
      }
      if (tool) {
        drawn.results += tool.drawn_on_later.results;
        drawn.drawn += tool.drawn_on_later.drawn;
        drawn.ids.push(...tool.drawn_on_later.ids);
      }
    }
    return {
      name,
      hint,
      what_if_cost: costs,
      cheapest: cheapestOf(costs),
      drawn_on_later: drawn,
    };
  });
  const sumOf = (pick: (totals: ReplayTotals) => number) =>
    named.reduce((t, { replay }) => t + pick(replay.totals), 0);
  const baselineTokens = sumOf((t) => t.baseline.prompt_tokens);
  const scheduleTokens = sumOf((t) => t.schedule.prompt_tokens);
  const baselineCost = sumOf((t) => t.baseline.cost);
  const scheduleCost = sumOf((t) => t.schedule.cost);
  return {
    model: named[0]?.replay.model ?? template.model ?? DEFAULT_MODEL,
    schedule: template.schedule,
    policy: template.policy ?? JP_POLICY,
    tokenizer: template.counter.id,
    calibration: sumCalibrations(named.map(({ replay }) => replay.calibration)),
    requests,
    totals: {
      baseline: { prompt_tokens: baselineTokens, cost: baselineCost },
      schedule: { prompt_tokens: scheduleTokens, cost: scheduleCost },
      saved: {
        prompt_tokens: baselineTokens - scheduleTokens,
        cost: baselineCost - scheduleCost,
        percent: savedPercent(baselineCost, scheduleCost),
      },
    },
    schedules,
    tools: tools.sort((a, b) => compareCodePoints(a.name, b.name)),
    recorded,
    scale: 1,
    notes: [...notes],
    conversations: named.map(
      ({ name, replay }): ConversationRow => ({
        name,
        requests: replay.requests.length,
        totals: replay.totals,
        schedules: replay.schedules,
        recorded: replay.recorded,
        calibration: replay.calibration,
      }),
    ),
  };
}

/** The session's inputs and the replay's choices, for one call that reads everything itself. */
export interface ReplayInput extends PlaygroundInput, ReplayChoice {}

/** The replay, or why it could not be computed (with the position). */
export type ReplayResult =
  | { status: 'ok'; replay: Replay }
  | { status: 'invalid'; message: string; diagnostics: Diagnostic[] };

/**
 * Reads the model (null: the transcript's own) and checks custom prices; an
 * error names its column in the text. The prices apply over the model the
 * replay settles on.
 */
export function resolveModel(
  model: string | null,
  priceText: string | null,
): { ok: true; value: ModelPrices | null } | { ok: false; message: string; column: number } {
  if (priceText !== null) {
    const checked = parsePriceSpec(priceText);
    if (!checked.ok) return checked;
  }
  if (model !== null) return findModel(model);
  return { ok: true, value: null };
}

/**
 * A conversation already read and a config already parsed (the page's
 * session has both from its run; `runReplay` reads them here).
 */
export interface ReplaySource {
  elements: readonly StreamElement[];
  config: ParsedConfig;
  /** The config's text: `[conversation.compaction.auto]` is read from it. */
  configText: string;
  view: ViewMode;
  readings: Readonly<Readings>;
  counter: TokenCounter;
  /** The import invented the timestamps (`hasInventedTimes`). */
  untimed: boolean;
  /** The format the stream was imported from (its runtime), when known. */
  format?: string | null;
}

/** The settings a replay of `source` under `choice` is computed with, or why there are none. */
export type ResolvedSettings =
  | { status: 'ok'; settings: ReplaySettings }
  | Extract<ReplayResult, { status: 'invalid' }>;

/**
 * The one settings resolver (issue 40): the CLI, the page, the request
 * prompt and the exports all read their choices here. The model or prices,
 * the policy and its parameters, the calibration, the config's auto table;
 * one that does not read is an error with its position, never a throw.
 */
export function resolveReplaySettings(
  source: ReplaySource,
  choice: ReplayChoice,
): ResolvedSettings {
  const model = resolveModel(choice.model, choice.price);
  if (!model.ok) {
    const what = choice.price !== null ? 'Price' : 'Model';
    return {
      status: 'invalid',
      message: `${what}, column ${model.column}: ${model.message}`,
      diagnostics: [{ line: 1, column: model.column, severity: 'error', message: model.message }],
    };
  }
  const policy = choice.policy ? parsePolicyChoice(choice.policy.name, choice.policy.set) : null;
  if (policy && !policy.ok) {
    return {
      status: 'invalid',
      message: `Policy ${choice.policy?.name}: ${policy.errors.join('; ')}`,
      diagnostics: [],
    };
  }
  const auto = readAutoCompaction(source.configText);
  if (hasErrors(auto.diagnostics)) {
    return {
      status: 'invalid',
      message: describeFirstProblem([], auto.diagnostics),
      diagnostics: auto.diagnostics,
    };
  }
  return {
    status: 'ok',
    settings: {
      config: source.config,
      auto: auto.auto,
      model: model.value,
      price: choice.price,
      schedule: choice.schedule,
      view: source.view,
      readings: source.readings,
      counter: source.counter,
      calibration: getCalibrationSettings(choice),
      runtime: source.format ?? null,
      untimed: source.untimed,
      ...(policy?.ok ? { policy: policy.value } : {}),
    },
  };
}

/** The calibration a choice asks for: `auto` unless it names one; a prefix figure is the user's. */
function getCalibrationSettings(choice: ReplayChoice): CalibrationSettings {
  return {
    choice: choice.calibration ?? 'auto',
    ...(choice.prefixTokens !== undefined && choice.prefixTokens !== null
      ? { prefixTokens: choice.prefixTokens }
      : {}),
  };
}

/**
 * Replays a conversation already read under the choices: the one path
 * `runReplay` takes (the page's cost pane adds the policies side by side,
 * compare-policies.ts). Never throws on user input.
 */
export function replayFrom(
  source: ReplaySource,
  choice: ReplayChoice,
  scope: ReplayScope = {},
): ReplayResult {
  const resolved = resolveReplaySettings(source, choice);
  if (resolved.status !== 'ok') return resolved;
  return { status: 'ok', replay: replayStream(source.elements, resolved.settings, scope) };
}

/**
 * The session's inputs in, the replay out: reads the stream and the config
 * (under the reading base, as the session and the CLI do). Never throws on
 * user input.
 */
export async function runReplay(input: ReplayInput): Promise<ReplayResult> {
  const readings = withReadings(input.readings);
  const read = readAnyStream(input.streamText, {
    encoding: input.encoding,
    limits: PLAYGROUND_STREAM_LIMITS,
    base: readings.base,
  });
  const config = parseConfigToml(input.configText, readings.base);
  const streamDiagnostics = read.parsed.diagnostics;
  if (!read.parsed.elements || hasErrors(streamDiagnostics) || hasErrors(config.diagnostics)) {
    return {
      status: 'invalid',
      message: describeFirstProblem(streamDiagnostics, config.diagnostics),
      diagnostics: [...streamDiagnostics, ...config.diagnostics],
    };
  }
  const source: ReplaySource = {
    elements: read.parsed.elements,
    config,
    configText: input.configText,
    view: input.view,
    readings,
    counter: await loadTokenCounter(input.tokenizer),
    untimed: hasInventedTimes(read.imported?.notes),
    format: read.imported?.format ?? null,
  };
  return replayFrom(source, input);
}

/** Whether an import invented the timestamps (its source has none). */
export function hasInventedTimes(notes: readonly { code: string }[] | undefined): boolean {
  return notes?.some((note) => note.code === NO_TIMESTAMP_NOTE_CODE) ?? false;
}

/**
 * Settings with the defaults filled in, for tests and tools: the file-only
 * model (`calibration none`), on which the independent oracles are written,
 * and the table's default model.
 */
export function createReplaySettings(
  counter: TokenCounter,
  overrides: Partial<ReplaySettings> = {},
): ReplaySettings {
  return {
    config: parseConfigToml(''),
    auto: DEFAULT_AUTO_COMPACTION,
    model: DEFAULT_MODEL,
    schedule: 'stored',
    view: 'sanitized',
    readings: DEFAULT_READINGS,
    counter,
    calibration: { choice: 'none' },
    ...overrides,
  };
}
