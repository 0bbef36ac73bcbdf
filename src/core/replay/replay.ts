/**
 * The replay folder owns what the conversation cost, request by request
 * (issue 21): the requests (requests.ts), their prompts computed
 * incrementally (prompts.ts), the models and prices (prices.ts), the
 * recorded usage importers keep (recorded-usage.ts), the `auto` schedule's
 * settings (auto-config.ts), and this file, its entry point: the schedules,
 * the cache model, the per-tool what-if in money and the sum over a folder.
 *
 * The model is first-order: it assumes the model would have answered the
 * same with less context. For request k with prompt tokens P and the cached
 * part C (the tokens of the longest run of leading prompt elements equal to
 * request k−1's, when the gap is within the time to live and the run
 * reaches the minimum prefix), the cost in dollars is
 * `(input × (read·C + write·(P − C)) + output × output_k) / 1,000,000`.
 *
 * Boundary: pure TypeScript, no DOM; the worker can call `runReplay`.
 */

import { HINT_CHOICES } from '../analyses/hint-table.ts';
import type { Readings } from '../compaction/readings.ts';
import { DEFAULT_READINGS, withReadings } from '../compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../config/config.ts';
import { loadTokenCounter, type TokenCounter, type TokenizerId } from '../counting/tokens.ts';
import { hasErrors } from '../diagnostics.ts';
import { NO_TIMESTAMP_NOTE_CODE } from '../import/builder.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { PLAYGROUND_STREAM_LIMITS } from '../json/limits.ts';
import { compareCodePoints } from '../json/values.ts';
import type { ToolChoice } from '../playground/pipeline.ts';
import { buildToolInfo, describeFirstProblem, planCompactions } from '../playground/playground.ts';
import type { HintChoice, PlaygroundInput, ViewMode } from '../playground/types.ts';
import type { Diagnostic, StreamElement } from '../types.ts';
import { type AutoCompaction, DEFAULT_AUTO_COMPACTION, readAutoCompaction } from './auto-config.ts';
import { type ElementFacts, readElementFacts } from './element-facts.ts';
import {
  getRuntimePolicy,
  type PolicyChoice,
  type PolicyDecision,
  type PolicyItem,
  parsePolicyChoice,
  replacementKey,
} from './policies/policies.ts';
import { DEFAULT_MODEL, findModel, type ModelPrices, parsePriceSpec } from './prices.ts';
import {
  buildEpochView,
  createPromptContext,
  type EpochView,
  getCacheKey,
  getCommonPrefix,
  getPrompt,
  type Prompt,
  type PromptContext,
  type PromptItem,
} from './prompts.ts';
import { addRecordedUsage, type RecordedUsage } from './recorded-usage.ts';
import { findRequests, type ReplayRequestSite, type RequestScan } from './requests.ts';
import { type ReplayChoice, SCHEDULES, type ScheduleId } from './schedules.ts';

export type { ModelPrices } from './prices.ts';
export { DEFAULT_MODEL, findModel, MODELS, parsePriceSpec } from './prices.ts';
export type { RecordedUsage } from './recorded-usage.ts';

export type { PolicySelection, ReplayChoice, ScheduleId } from './schedules.ts';
export { DEFAULT_REPLAY_CHOICE, isScheduleId, SCHEDULES } from './schedules.ts';

/** Schedules whose compactions are created by the config's rules, so hints change them. */
function createsCompactions(schedule: ScheduleId): boolean {
  return schedule === 'every-turn' || schedule === 'auto' || schedule === 'idle';
}

/** What a replay is computed with, besides the stream. */
export interface ReplaySettings {
  config: ParsedConfig;
  auto: AutoCompaction;
  model: ModelPrices;
  schedule: ScheduleId;
  view: ViewMode;
  readings: Readonly<Readings>;
  counter: TokenCounter;
  /** Scale modelled tokens by the recorded/modelled ratio of input tokens. */
  scaleToRecorded: boolean;
  /**
   * The stream's timestamps were invented by the import (the source has
   * none): every time is unknown, and the cache is taken as warm.
   */
  untimed?: boolean;
  /** A runtime's own clearing instead of JP's schedule (issue 22); absent or `jp`: the schedule. */
  policy?: PolicyChoice;
}

/** Token figures of a request's prompt under one schedule. */
export interface PromptFigures {
  prompt_tokens: number;
  cache_read: number;
  cache_write: number;
  cost: number;
}

/** One request in the `replay --json` shape. */
export interface ReplayRequest extends PromptFigures {
  /** 1-based. */
  index: number;
  /** The run's first event's timestamp (canonical), null when it has none that reads. */
  time: string | null;
  /** Seconds since the previous request; null for the first, or when a time is unknown. */
  gap_seconds: number | null;
  /** The raw 0-based turn of the run (spec 2), as stored compactions number turns. */
  turn: number;
  output_tokens: number;
  baseline: PromptFigures;
  compactions_created: number;
  /** Some element of the previous request's prompt is not at the head of this one. */
  prefix_broken: boolean;
  /** Nothing is cached: the first request, or the gap passed the time to live. */
  cold: boolean;
  recorded: RecordedUsage | null;
  /** Under a runtime policy: tool uses it cleared (trimmed, masked, truncated) at this request. */
  cleared_tool_uses?: number;
  /** Under a runtime policy: a summary replaced the history before this request. */
  summarised?: boolean;
  /** The conversation it belongs to, when a folder is replayed. */
  conversation?: string;
}

/** Recorded usage beside what `stored` models, over the requests that carry it. */
export interface RecordedTotals extends RecordedUsage {
  /** Requests with recorded usage. */
  requests: number;
  /** `stored`'s modelled prompt tokens over the same requests (unscaled). */
  modelled_prompt_tokens: number;
  /** recorded prompt tokens / modelled prompt tokens; null when nothing was modelled. */
  ratio: number | null;
}

/** A tool's cost under each of the six hint choices, the others as configured. */
export interface ToolWhatIf {
  name: string;
  /** The hint in force (`inherit` when the tool follows the rule's `tool_calls`). */
  hint: HintChoice;
  what_if_cost: Record<HintChoice, number>;
  /** The cheapest choice (the first in the order of the six on a tie). */
  cheapest: HintChoice;
}

/** The totals of a replay. */
export interface ReplayTotals {
  baseline: { prompt_tokens: number; cost: number };
  schedule: { prompt_tokens: number; cost: number };
  saved: { prompt_tokens: number; cost: number; percent: number };
}

/** One conversation's replay, or a folder's sum. */
export interface Replay {
  model: ModelPrices;
  schedule: ScheduleId;
  /** The policy the chosen figures are under: `jp` (the schedule) or a runtime's, with its parameters. */
  policy: PolicyChoice;
  tokenizer: TokenizerId;
  requests: ReplayRequest[];
  totals: ReplayTotals;
  /** Each schedule's total cost (only the computed ones when the scope leaves some out). */
  schedules: Partial<Record<ScheduleId, number>>;
  /** Empty when the scope leaves the what-if out. */
  tools: ToolWhatIf[];
  recorded: RecordedTotals | null;
  /** The scale applied to modelled tokens (1 unless `scaleToRecorded` found a ratio). */
  scale: number;
  /** Sentences to show beside the figures: the first-order caveat and what was assumed. */
  notes: string[];
  /** A folder's conversations, one row each (absent for one conversation). */
  conversations?: ConversationRow[];
  /** Per schedule, each request's figures (only when the scope asks: the page's chart). */
  series?: Partial<Record<ScheduleId, ScheduleSeries>>;
}

/** One schedule's requests, figure by figure, in request order, and their sums. */
export interface ScheduleSeries {
  prompt_tokens: number[];
  cache_read: number[];
  cache_write: number[];
  cost: number[];
  totals: PromptFigures & { output_tokens: number };
}

/** One conversation's row in a folder's sum. */
export interface ConversationRow {
  name: string;
  requests: number;
  totals: ReplayTotals;
  schedules: Partial<Record<ScheduleId, number>>;
  recorded: RecordedTotals | null;
}

/** The caveat shown wherever the figures are. */
export const FIRST_ORDER_NOTE =
  'First-order: every schedule is priced as if the model had answered the same with less context.';

/** What a schedule decided per request, before pricing. */
interface RawRequest {
  promptTokens: number;
  commonTokens: number;
  commonCount: number;
  previousCount: number;
  created: number;
}

/**
 * What depends on the stream and how it is read (view, readings, counter,
 * timed or not) but on no choice of the replay: the requests, the prompt
 * context, and the two schedules the config cannot change (`none` and
 * `stored`). Never mutated once made.
 */
interface StreamPrep {
  scan: RequestScan;
  context: PromptContext;
  stored: { index: number; element: StreamElement }[];
  gaps: (number | null)[];
  /** `none` and `stored`, filled the first time a replay runs them. */
  fixedSchedules: Map<ScheduleId, readonly RawRequest[]>;
  /**
   * The schedules that create compactions, by the config they ran under
   * (the run's parsed config, one object per input version) and
   * `getCreatedScheduleKey`, filled the first time a replay runs them.
   */
  createdSchedules: WeakMap<ParsedConfig, Map<string, readonly RawRequest[]>>;
}

/** Everything computed once per stream, shared by every schedule and what-if. */
interface StreamState extends StreamPrep {
  elements: readonly StreamElement[];
  settings: ReplaySettings;
  views: Map<string, EpochView>;
}

/**
 * Preparations by stream, then by how it is read. The page replays the same
 * decoded stream on every config edit and once per row of the policy
 * comparison, so each reuses the first one's requests, prompts and
 * baseline; the entry goes with the stream.
 */
const preparedStreams = new WeakMap<readonly StreamElement[], Map<string, StreamPrep>>();

function prepareStream(elements: readonly StreamElement[], settings: ReplaySettings): StreamPrep {
  const key = JSON.stringify([
    settings.view,
    settings.readings,
    settings.counter.id,
    settings.untimed === true,
  ]);
  let byReading = preparedStreams.get(elements);
  if (!byReading) {
    byReading = new Map();
    preparedStreams.set(elements, byReading);
  }
  const known = byReading.get(key);
  if (known) return known;
  // The one pass over the element objects: the requests and the prompts read its facts.
  const facts = getElementFacts(elements, settings.counter);
  const scan = findRequests(elements, facts);
  if (settings.untimed) {
    for (const site of scan.requests) {
      site.instant = undefined;
      site.time = null;
    }
  }
  const context = createPromptContext(
    elements,
    facts,
    settings.view,
    settings.readings,
    settings.counter,
  );
  const stored: StreamPrep['stored'] = context.compactionIndexes.map((index) => ({
    index,
    element: elements[index] as StreamElement,
  }));
  const gaps = scan.requests.map((site, k) => {
    const previous = scan.requests[k - 1];
    if (!previous || previous.instant === undefined || site.instant === undefined) return null;
    return Number(site.instant - previous.instant) / 1e9;
  });
  const prep: StreamPrep = {
    scan,
    context,
    stored,
    gaps,
    fixedSchedules: new Map(),
    createdSchedules: new WeakMap(),
  };
  byReading.set(key, prep);
  return prep;
}

/**
 * The facts of a stream by counter: they depend on neither the view nor the
 * readings, so switching either reads no element again.
 */
const factsByStream = new WeakMap<readonly StreamElement[], Map<string, ElementFacts>>();

function getElementFacts(elements: readonly StreamElement[], counter: TokenCounter): ElementFacts {
  let byCounter = factsByStream.get(elements);
  if (!byCounter) {
    byCounter = new Map();
    factsByStream.set(elements, byCounter);
  }
  let facts = byCounter.get(counter.id);
  if (!facts) {
    facts = readElementFacts(elements, counter);
    byCounter.set(counter.id, facts);
  }
  return facts;
}

function createStreamState(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
): StreamState {
  return { ...prepareStream(elements, settings), elements, settings, views: new Map() };
}

function getView(state: StreamState, compactions: readonly StreamElement[]): EpochView {
  const key = JSON.stringify(compactions);
  let view = state.views.get(key);
  if (!view) {
    view = buildEpochView(state.context, compactions);
    state.views.set(key, view);
  }
  return view;
}

/** The config with its rules replaced by the auto rule. */
function withAutoRule(config: ParsedConfig, auto: AutoCompaction): ParsedConfig {
  return {
    config: { ...config.config, rules: { rules: [auto.rule], strategy: 'replace', dedup: false } },
    diagnostics: [],
  };
}

/** Runs one schedule over the requests: the prompt of each and what was created. */
function runSchedule(
  state: StreamState,
  schedule: ScheduleId,
  toolChoice?: ToolChoice,
): readonly RawRequest[] {
  // Neither the config nor a tool's what-if changes these two: no rule runs in them.
  if (!createsCompactions(schedule)) {
    const known = state.fixedSchedules.get(schedule);
    if (known) return known;
    const raw = computeSchedule(state, schedule);
    state.fixedSchedules.set(schedule, raw);
    return raw;
  }
  // A tool's what-if is asked for once per tool and choice: not kept.
  if (toolChoice) return computeSchedule(state, schedule, toolChoice);
  // Kept: the pane replays every schedule for each choice of schedule,
  // policy or scaling, and none of those changes a schedule's run.
  const { config } = state.settings;
  let byKey = state.createdSchedules.get(config);
  if (!byKey) {
    byKey = new Map();
    state.createdSchedules.set(config, byKey);
  }
  const key = getCreatedScheduleKey(state.settings, schedule);
  const known = byKey.get(key);
  if (known) return known;
  const raw = computeSchedule(state, schedule);
  byKey.set(key, raw);
  return raw;
}

/**
 * What a schedule's run may depend on besides the stream and the config:
 * every setting but the three it never reads (the chosen schedule, the
 * runtime's policy, and scaling to the recorded usage, which are pricing's
 * and the result's). Prices are in the model's figures: another price runs
 * the schedules again, which is safe if not needed.
 */
function getCreatedScheduleKey(settings: ReplaySettings, schedule: ScheduleId): string {
  const { config: _config, counter, schedule: _chosen, policy: _policy, ...rest } = settings;
  return JSON.stringify([schedule, counter.id, { ...rest, scaleToRecorded: null }]);
}

function computeSchedule(
  state: StreamState,
  schedule: ScheduleId,
  toolChoice?: ToolChoice,
): RawRequest[] {
  const { elements, settings } = state;
  const created: StreamElement[] = [];
  const raw: RawRequest[] = [];
  let storedInForce = 0;
  let previous: Prompt | null = null;
  const autoConfig = withAutoRule(settings.config, settings.auto);
  const compactionsNow = () => [
    ...state.stored.slice(0, storedInForce).map((entry) => entry.element),
    ...created,
  ];
  const create = (site: ReplayRequestSite, config: ParsedConfig): number => {
    // Rules run on the stream as it stands at that request: stored compactions in place, then created ones.
    const stream = [...elements.slice(0, site.cut), ...created];
    const plan = planCompactions(stream, config, site.time, settings.readings, toolChoice);
    created.push(...plan.created.events);
    return plan.created.events.length;
  };
  let epoch = { stored: 0, compactions: [] as StreamElement[], view: getView(state, []) };
  state.scan.requests.forEach((site, k) => {
    if (schedule !== 'none') {
      while (
        storedInForce < state.stored.length &&
        (state.stored[storedInForce]?.index as number) < site.cut
      ) {
        storedInForce++;
      }
    }
    let createdHere = 0;
    const gap = state.gaps[k] ?? null;
    if (schedule === 'every-turn' && site.firstOfTurn) createdHere += create(site, settings.config);
    if (schedule === 'idle' && gap !== null && gap > settings.model.ttl_seconds) {
      createdHere += create(site, settings.config);
    }
    if (
      schedule === 'auto' &&
      site.firstOfTurn &&
      k > 0 &&
      site.turn + 1 >= settings.auto.minTurns
    ) {
      const compactions = compactionsNow();
      const before = getPrompt(state.context, getView(state, compactions), compactions, site.cut);
      const limit = settings.auto.triggerRatio * settings.model.context_window_tokens;
      if (before.tokens > limit) createdHere += create(site, autoConfig);
    }
    // The compactions in force, and their view, change only at a stored one or a created one.
    if (createdHere > 0 || storedInForce !== epoch.stored) {
      const compactions = compactionsNow();
      epoch = { stored: storedInForce, compactions, view: getView(state, compactions) };
    }
    const prompt = getPrompt(state.context, epoch.view, epoch.compactions, site.cut);
    const common = previous ? getCommonPrefix(previous, prompt) : { count: 0, tokens: 0 };
    raw.push({
      promptTokens: prompt.tokens,
      commonTokens: common.tokens,
      commonCount: common.count,
      previousCount: previous?.count ?? 0,
      created: createdHere,
    });
    previous = prompt;
  });
  return raw;
}

/** A prompt entry as the cache compares it: an element, or what a policy put in its place. */
interface PolicyEntry {
  key: StreamElement | string;
  tokens: number;
}

function getPolicyKind(element: StreamElement): PolicyItem['kind'] {
  switch (element.type) {
    case 'chat_request':
      return 'user';
    case 'chat_response':
      return 'assistant';
    case 'tool_call_request':
      return 'call';
    case 'tool_call_response':
      return 'result';
    default:
      return 'other';
  }
}

/** Each tool id's name: the last request with that id (spec 4 step 3). */
function getToolNames(elements: readonly StreamElement[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const element of elements) {
    if (
      element.type === 'tool_call_request' &&
      typeof element.id === 'string' &&
      typeof element.name === 'string'
    ) {
      names.set(element.id, element.name);
    }
  }
  return names;
}

/** The summary the prompt of a request holds: one made at this request is in force from the next; until then the one before stands. */
function getSummaryInForce(
  decision: PolicyDecision,
  previous: PolicyDecision | null,
  requestIndex: number,
): PolicyDecision['summary'] {
  return decision.summary && decision.summary.since < requestIndex
    ? decision.summary
    : (previous?.summary ?? null);
}

function applyDecision(
  items: readonly PolicyItem[],
  decision: PolicyDecision,
  previous: PolicyDecision | null,
  requestIndex: number,
): PolicyEntry[] {
  const entries: PolicyEntry[] = [];
  const summary = getSummaryInForce(decision, previous, requestIndex);
  if (summary) entries.push({ key: `summary:${summary.since}`, tokens: summary.tokens });
  for (const item of items) {
    if (summary && item.origin <= summary.through) continue;
    const key = replacementKey(item.origin, item.kind);
    const replacement = decision.replaced.get(key);
    entries.push(
      replacement
        ? { key: `${key}:${replacement.what}:${replacement.tokens}`, tokens: replacement.tokens }
        : { key: item.element, tokens: item.tokens },
    );
  }
  return entries;
}

function getEntriesPrefix(
  previous: readonly PolicyEntry[],
  current: readonly PolicyEntry[],
): { count: number; tokens: number } {
  const limit = Math.min(previous.length, current.length);
  let count = 0;
  let tokens = 0;
  while (count < limit) {
    const a = (previous[count] as PolicyEntry).key;
    const b = (current[count] as PolicyEntry).key;
    const same =
      a === b ||
      (typeof a !== 'string' && typeof b !== 'string' && getCacheKey(a) === getCacheKey(b));
    if (!same) break;
    tokens += (current[count] as PolicyEntry).tokens;
    count++;
  }
  return { count, tokens };
}

/** What a runtime policy decided and the prompt it left, per request. */
interface PolicyRun {
  raw: RawRequest[];
  decisions: PolicyDecision[];
}

/** Request `through`'s prompt as a policy left it (the diff pane's per-request view). */
interface PolicyPromptSeen {
  items: PolicyItem[];
  decision: PolicyDecision;
  summary: PolicyDecision['summary'];
}

/**
 * Runs a runtime's policy over the requests: the same prompts, counter and
 * cache model as the schedules. With `through`, stops after that request
 * (0-based) and hands its items and decision to `seen`.
 */
function runPolicy(
  state: StreamState,
  choice: PolicyChoice,
  through?: { index: number; seen: (prompt: PolicyPromptSeen) => void },
): PolicyRun {
  const policy = getRuntimePolicy(choice.name);
  const raw: RawRequest[] = [];
  const decisions: PolicyDecision[] = [];
  if (!policy) return { raw, decisions };
  const view = getView(state, []);
  const names = getToolNames(state.elements);
  const itemOf = new WeakMap<PromptItem, PolicyItem>();
  const toItem = (promptItem: PromptItem): PolicyItem => {
    let item = itemOf.get(promptItem);
    if (!item) {
      const { element } = promptItem;
      const kind = getPolicyKind(element);
      const id = typeof element.id === 'string' ? element.id : null;
      const tool =
        kind === 'call' && typeof element.name === 'string'
          ? element.name
          : kind === 'result' && id !== null
            ? (names.get(id) ?? null)
            : null;
      item = { origin: promptItem.origin, kind, tool, tokens: promptItem.tokens, element };
      itemOf.set(promptItem, item);
    }
    return item;
  };
  let previous: PolicyDecision | null = null;
  let previousEntries: PolicyEntry[] = [];
  const last = through ? Math.min(through.index, state.scan.requests.length - 1) : Infinity;
  state.scan.requests.forEach((site, k) => {
    if (k > last) return;
    const prompt = getPrompt(state.context, view, [], site.cut);
    const items = prompt.items.slice(0, prompt.count).map(toItem);
    const decision = policy.step(
      choice.parameters,
      {
        index: k,
        items,
        gapSeconds: state.gaps[k] ?? null,
        contextWindow: state.settings.model.context_window_tokens,
        counter: state.settings.counter,
      },
      previous,
    );
    const entries = applyDecision(items, decision, previous, k);
    const common = k === 0 ? { count: 0, tokens: 0 } : getEntriesPrefix(previousEntries, entries);
    let promptTokens = 0;
    for (const entry of entries) promptTokens += entry.tokens;
    raw.push({
      promptTokens,
      commonTokens: common.tokens,
      commonCount: common.count,
      previousCount: previousEntries.length,
      created: decision.clearedHere,
    });
    if (k === last) {
      through?.seen({ items, decision, summary: getSummaryInForce(decision, previous, k) });
    }
    decisions.push(decision);
    previous = decision;
    previousEntries = entries;
  });
  return { raw, decisions };
}

/** Request `index`'s prompt under a runtime policy, with how many requests there are and when it was made. */
export interface PolicyPromptAt extends PolicyPromptSeen {
  /** 0-based, clamped to the last request. */
  index: number;
  requests: number;
  time: string | null;
}

/**
 * What the model saw at one request under a runtime policy: the prompt as
 * the client holds it (no clearing) and what the policy replaced in it,
 * run through the same steps as the replay's figures. Null when the stream
 * makes no request or the policy is JP's (its schedules, not a clearing).
 */
export function getPolicyPromptAt(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
  index: number,
): PolicyPromptAt | null {
  const policy = settings.policy;
  if (!policy || policy.name === 'jp') return null;
  const state = createStreamState(elements, settings);
  const requests = state.scan.requests.length;
  if (requests === 0) return null;
  const at = Math.max(0, Math.min(index, requests - 1));
  let seen: PolicyPromptSeen | null = null;
  runPolicy(state, policy, {
    index: at,
    seen: (prompt) => {
      seen = prompt;
    },
  });
  const prompt = seen as PolicyPromptSeen | null;
  if (!prompt) return null;
  return { ...prompt, index: at, requests, time: state.scan.requests[at]?.time ?? null };
}

/** The cost in dollars of one request from its own fields (issue 21's formula). */
export function getRequestCost(
  model: ModelPrices,
  figures: { cache_read: number; cache_write: number; output_tokens: number },
): number {
  return (
    (model.input * (model.read * figures.cache_read + model.write * figures.cache_write) +
      model.output * figures.output_tokens) /
    1_000_000
  );
}

/**
 * One schedule's requests priced, a column per figure (request k at index
 * k). Columns, not an object per request: a replay of thousands of requests
 * keeps them across young collections, and V8 then allocates such objects
 * in the old generation, where each costs more the larger the heap (after
 * an edit, 0.19 → 0.52 µs per request from 5,371 to 15,930 requests, flat
 * with pretenuring switched off; `tools/bench/replay.ts`).
 */
interface PricedRequests {
  length: number;
  prompt_tokens: Float64Array;
  cache_read: Float64Array;
  cache_write: Float64Array;
  output_tokens: Float64Array;
  cost: Float64Array;
  cold: Uint8Array;
  prefix_broken: Uint8Array;
}

/** Prices one schedule's requests: cache read, write and cost per request. */
function price(state: StreamState, raw: readonly RawRequest[], scale: number): PricedRequests {
  const { model } = state.settings;
  const scaled = (tokens: number) => (scale === 1 ? tokens : Math.round(tokens * scale));
  const length = raw.length;
  const priced: PricedRequests = {
    length,
    prompt_tokens: new Float64Array(length),
    cache_read: new Float64Array(length),
    cache_write: new Float64Array(length),
    output_tokens: new Float64Array(length),
    cost: new Float64Array(length),
    cold: new Uint8Array(length),
    prefix_broken: new Uint8Array(length),
  };
  for (let k = 0; k < length; k++) {
    const request = raw[k] as RawRequest;
    const site = state.scan.requests[k] as ReplayRequestSite;
    const gap = state.gaps[k] ?? null;
    // An unknown gap is taken as warm (said in the notes).
    const cold = k === 0 || (gap !== null && gap > model.ttl_seconds);
    const prompt = scaled(request.promptTokens);
    const common = scaled(request.commonTokens);
    const cacheRead = !cold && common >= model.min_prefix_tokens ? common : 0;
    const cacheWrite = prompt - cacheRead;
    const outputTokens = scaled(site.outputTokens);
    priced.prompt_tokens[k] = prompt;
    priced.cache_read[k] = cacheRead;
    priced.cache_write[k] = cacheWrite;
    priced.output_tokens[k] = outputTokens;
    priced.cost[k] = getRequestCost(model, {
      cache_read: cacheRead,
      cache_write: cacheWrite,
      output_tokens: outputTokens,
    });
    priced.cold[k] = cold ? 1 : 0;
    priced.prefix_broken[k] = k > 0 && request.commonCount < request.previousCount ? 1 : 0;
  }
  return priced;
}

/** Request k's figures of a priced schedule. */
function figuresAt(priced: PricedRequests, k: number): PromptFigures {
  return {
    prompt_tokens: priced.prompt_tokens[k] as number,
    cache_read: priced.cache_read[k] as number,
    cache_write: priced.cache_write[k] as number,
    cost: priced.cost[k] as number,
  };
}

/** A column's sum, in request order: floating-point sums depend on their order, and the CLI's figures are compared exactly. */
function sum(column: Float64Array): number {
  let total = 0;
  for (let k = 0; k < column.length; k++) total += column[k] as number;
  return total;
}

function getRecordedTotals(
  state: StreamState,
  stored: readonly RawRequest[],
): RecordedTotals | null {
  let usage: RecordedUsage | null = null;
  let requests = 0;
  let modelled = 0;
  state.scan.requests.forEach((site, k) => {
    if (site.recorded === null) return;
    usage = usage === null ? { ...site.recorded } : addRecordedUsage(usage, site.recorded);
    requests++;
    modelled += stored[k]?.promptTokens ?? 0;
  });
  if (usage === null) return null;
  const total = usage as RecordedUsage;
  return {
    ...total,
    requests,
    modelled_prompt_tokens: modelled,
    ratio: modelled === 0 ? null : total.prompt_tokens / modelled,
  };
}

function makeTotals(baseline: PricedRequests, chosen: PricedRequests): ReplayTotals {
  const base = { prompt_tokens: sum(baseline.prompt_tokens), cost: sum(baseline.cost) };
  const schedule = { prompt_tokens: sum(chosen.prompt_tokens), cost: sum(chosen.cost) };
  const savedCost = base.cost - schedule.cost;
  return {
    baseline: base,
    schedule,
    saved: {
      prompt_tokens: base.prompt_tokens - schedule.prompt_tokens,
      cost: savedCost,
      percent: base.cost === 0 ? 0 : (savedCost / base.cost) * 100,
    },
  };
}

function cheapestOf(costs: Record<HintChoice, number>): HintChoice {
  let best: HintChoice = HINT_CHOICES[0] as HintChoice;
  for (const choice of HINT_CHOICES) if (costs[choice] < costs[best]) best = choice;
  return best;
}

/** JP's own compactions, the policy when none is chosen. */
const JP_POLICY: PolicyChoice = { name: 'jp', parameters: {} };

/** The scale applied to modelled tokens: the recorded/modelled ratio when asked and found, else 1. */
function getScale(settings: ReplaySettings, recorded: RecordedTotals | null): number {
  return settings.scaleToRecorded && recorded?.ratio ? recorded.ratio : 1;
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
 * (`chosenCost` is its total with every hint as configured).
 */
function getToolWhatIfs(state: StreamState, scale: number, chosenCost: number): ToolWhatIf[] {
  const { elements, settings } = state;
  const toolInfo = buildToolInfo(
    elements,
    planCompactions(elements, settings.config, null, settings.readings).configInForce,
  );
  return toolInfo.map((info): ToolWhatIf => {
    const costs = {} as Record<HintChoice, number>;
    const inForce = info.hint ?? 'inherit';
    for (const choice of HINT_CHOICES) {
      // The hint in force is the schedule itself; a tool the stream never calls changes no prompt.
      const same = !createsCompactions(settings.schedule) || choice === inForce || info.calls === 0;
      costs[choice] = same
        ? chosenCost
        : sum(
            price(state, runSchedule(state, settings.schedule, { tool: info.name, choice }), scale)
              .cost,
          );
    }
    return {
      name: info.name,
      hint: info.hint ?? 'inherit',
      what_if_cost: costs,
      cheapest: cheapestOf(costs),
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
  const state = createStreamState(elements, settings);
  const recorded = settings.scaleToRecorded
    ? getRecordedTotals(state, runSchedule(state, 'stored'))
    : null;
  const scale = getScale(settings, recorded);
  const chosenCost = sum(price(state, runSchedule(state, settings.schedule), scale).cost);
  return getToolWhatIfs(state, scale, chosenCost);
}

/**
 * What a replay computes beyond the chosen schedule and its baseline: every
 * schedule's total side by side, and the per-tool what-if (six replays per
 * tool the stream calls, under a schedule that creates compactions).
 * Both by default; the figures alone are the chosen schedule, `none` and
 * `stored` (for the recorded ratio).
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
  const rawBySchedule = new Map<ScheduleId, readonly RawRequest[]>();
  for (const schedule of SCHEDULES) {
    const needed =
      scope.schedules !== false ||
      schedule === 'none' ||
      schedule === 'stored' ||
      schedule === settings.schedule;
    if (needed) rawBySchedule.set(schedule, runSchedule(state, schedule));
  }
  const recorded = getRecordedTotals(state, rawBySchedule.get('stored') ?? []);
  const scale = getScale(settings, recorded);
  const priced = new Map(
    [...rawBySchedule].map(([schedule, raw]) => [schedule, price(state, raw, scale)]),
  );
  // `none` and the chosen schedule are always run (above).
  const baseline = priced.get('none') as PricedRequests;
  const policy: PolicyChoice = settings.policy ?? JP_POLICY;
  const runtime = policy.name === 'jp' ? null : runPolicy(state, policy);
  const chosen = runtime
    ? price(state, runtime.raw, scale)
    : (priced.get(settings.schedule) as PricedRequests);
  const chosenRaw = runtime ? runtime.raw : (rawBySchedule.get(settings.schedule) ?? []);
  // Every request is priced, or none: a policy the replay does not know prices none.
  if (chosen.length !== state.scan.requests.length || baseline.length !== chosen.length) {
    throw new Error(`a replay priced ${chosen.length} of ${state.scan.requests.length} requests`);
  }
  const requests = state.scan.requests.map(
    (site, k): ReplayRequest => ({
      index: k + 1,
      time: site.time,
      gap_seconds: state.gaps[k] ?? null,
      turn: site.turn,
      prompt_tokens: chosen.prompt_tokens[k] as number,
      cache_read: chosen.cache_read[k] as number,
      cache_write: chosen.cache_write[k] as number,
      output_tokens: chosen.output_tokens[k] as number,
      cost: chosen.cost[k] as number,
      baseline: figuresAt(baseline, k),
      compactions_created: runtime ? 0 : (chosenRaw[k]?.created ?? 0),
      prefix_broken: chosen.prefix_broken[k] === 1,
      cold: chosen.cold[k] === 1,
      recorded: site.recorded,
      ...(runtime
        ? {
            cleared_tool_uses: chosenRaw[k]?.created ?? 0,
            summarised: k > 0 && runtime.decisions[k - 1]?.summary?.since === k - 1,
          }
        : {}),
    }),
  );
  const schedules: Partial<Record<ScheduleId, number>> = Object.fromEntries(
    [...priced].map(([schedule, figures]) => [schedule, sum(figures.cost)]),
  );
  const chosenCost = schedules[settings.schedule] ?? 0;

  const tools =
    scope.tools === false || !hasToolWhatIf(policy) ? [] : getToolWhatIfs(state, scale, chosenCost);

  return {
    model: settings.model,
    schedule: settings.schedule,
    policy,
    tokenizer: settings.counter.id,
    requests,
    totals: makeTotals(baseline, chosen),
    schedules,
    tools,
    recorded,
    scale,
    notes: getNotes(state, settings, scale),
    ...(scope.series
      ? {
          series: Object.fromEntries(
            [...priced].map(([schedule, figures]) => [schedule, getSeries(figures)]),
          ),
        }
      : {}),
  };
}

function getSeries(figures: PricedRequests): ScheduleSeries {
  return {
    prompt_tokens: Array.from(figures.prompt_tokens),
    cache_read: Array.from(figures.cache_read),
    cache_write: Array.from(figures.cache_write),
    cost: Array.from(figures.cost),
    totals: {
      prompt_tokens: sum(figures.prompt_tokens),
      cache_read: sum(figures.cache_read),
      cache_write: sum(figures.cache_write),
      output_tokens: sum(figures.output_tokens),
      cost: sum(figures.cost),
    },
  };
}

function getNotes(state: StreamState, settings: ReplaySettings, scale: number): string[] {
  const notes = [FIRST_ORDER_NOTE];
  const untimed = state.scan.requests.filter((site) => site.instant === undefined).length;
  if (untimed > 0) {
    notes.push(
      `${untimed} of ${state.scan.requests.length} requests have no readable timestamp: their gaps are unknown and the cache is assumed warm between requests.`,
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
  } else if (!createsCompactions(settings.schedule)) {
    notes.push(
      `Hints change nothing under ${settings.schedule}: they are frozen into the stored compaction events (D17's first open question).`,
    );
  }
  for (const invalid of state.scan.invalidRecorded.slice(0, 3)) {
    notes.push(`Element ${invalid.index + 1}: ${invalid.message}; its recorded usage is left out.`);
  }
  if (scale !== 1) {
    notes.push(
      `Modelled tokens are scaled by ${scale.toFixed(3)}, the recorded/modelled ratio of input tokens.`,
    );
  } else if (settings.scaleToRecorded) {
    notes.push('No recorded usage to scale by: the modelled tokens are shown as counted.');
  }
  return notes;
}

function addRecordedTotals(sum: RecordedTotals | null, more: RecordedTotals): RecordedTotals {
  if (sum === null) return { ...more };
  const usage = addRecordedUsage(sum, more);
  const modelled = sum.modelled_prompt_tokens + more.modelled_prompt_tokens;
  return {
    ...usage,
    requests: sum.requests + more.requests,
    modelled_prompt_tokens: modelled,
    ratio: modelled === 0 ? null : usage.prompt_tokens / modelled,
  };
}

/** Sums several conversations' replays (same model, schedule and tokenizer), a row each. */
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
    for (const { replay } of named) {
      const tool = replay.tools.find((t) => t.name === name);
      for (const choice of HINT_CHOICES) {
        costs[choice] += tool
          ? tool.what_if_cost[choice]
          : (replay.schedules[replay.schedule] ?? 0);
      }
    }
    return { name, hint, what_if_cost: costs, cheapest: cheapestOf(costs) };
  });
  const baselineTokens = named.reduce(
    (t, { replay }) => t + replay.totals.baseline.prompt_tokens,
    0,
  );
  const scheduleTokens = named.reduce(
    (t, { replay }) => t + replay.totals.schedule.prompt_tokens,
    0,
  );
  const baselineCost = named.reduce((t, { replay }) => t + replay.totals.baseline.cost, 0);
  const scheduleCost = named.reduce((t, { replay }) => t + replay.totals.schedule.cost, 0);
  return {
    model: template.model,
    schedule: template.schedule,
    policy: template.policy ?? { name: 'jp', parameters: {} },
    tokenizer: template.counter.id,
    requests,
    totals: {
      baseline: { prompt_tokens: baselineTokens, cost: baselineCost },
      schedule: { prompt_tokens: scheduleTokens, cost: scheduleCost },
      saved: {
        prompt_tokens: baselineTokens - scheduleTokens,
        cost: baselineCost - scheduleCost,
        percent: baselineCost === 0 ? 0 : ((baselineCost - scheduleCost) / baselineCost) * 100,
      },
    },
    schedules,
    tools: tools.sort((a, b) => compareCodePoints(a.name, b.name)),
    recorded,
    scale: 1,
    notes: [...notes],
    conversations: named.map(({ name, replay }) => ({
      name,
      requests: replay.requests.length,
      totals: replay.totals,
      schedules: replay.schedules,
      recorded: replay.recorded,
    })),
  };
}

/** The session's inputs and the replay's choices, for one call that reads everything itself. */
export interface ReplayInput extends PlaygroundInput, ReplayChoice {}

/** The replay, or why it could not be computed (with the position). */
export type ReplayResult =
  | { status: 'ok'; replay: Replay }
  | { status: 'invalid'; message: string; diagnostics: Diagnostic[] };

/** Reads the model or custom prices; an error names its column in the text. */
export function resolveModel(model: string | null, priceText: string | null) {
  if (priceText !== null) return parsePriceSpec(priceText);
  if (model !== null) return findModel(model);
  return { ok: true as const, value: DEFAULT_MODEL };
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
}

/** The settings a replay of `source` under `choice` is computed with, or why there are none. */
export type ResolvedSettings =
  | { status: 'ok'; settings: ReplaySettings }
  | Extract<ReplayResult, { status: 'invalid' }>;

/**
 * Reads the choices over a conversation already read: the model or prices,
 * the policy and its parameters, the config's auto table. One that does not
 * read is an error with its position, never a throw.
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
      schedule: choice.schedule,
      view: source.view,
      readings: source.readings,
      counter: source.counter,
      scaleToRecorded: choice.scaleToRecorded ?? false,
      untimed: source.untimed,
      ...(policy?.ok ? { policy: policy.value } : {}),
    },
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
  };
  return replayFrom(source, input);
}

/** Whether an import invented the timestamps (its source has none). */
export function hasInventedTimes(notes: readonly { code: string }[] | undefined): boolean {
  return notes?.some((note) => note.code === NO_TIMESTAMP_NOTE_CODE) ?? false;
}

/** Settings with the defaults filled in, for tests and tools. */
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
    scaleToRecorded: false,
    ...overrides,
  };
}
