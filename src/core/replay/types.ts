/**
 * The replay's vocabulary: what a replay is computed with (`ReplaySettings`)
 * and the `replay --json` shape it answers with. Types only; the rules are
 * in the modules that compute them (docs/house.md lists them).
 */

import type { Readings } from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import type { DrawnOnLater } from '../counting/drawn-on.ts';
import type { TokenCounter, TokenizerId } from '../counting/tokens.ts';
import type { RecordedUsage } from '../import/recorded-usage.ts';
import type { HintChoice, ViewMode } from '../playground/types.ts';
import type { AutoCompaction } from './auto-config.ts';
import type { PolicyChoice } from './policies/policies.ts';
import type { CalibrationChoice, CalibrationSource, ScheduleId } from './schedules.ts';

export type { CalibrationChoice, CalibrationSource } from './schedules.ts';

/** How the replay is calibrated: the source asked for, and the user's prefix for `user`. */
export interface CalibrationSettings {
  choice: CalibrationChoice;
  /** The user's invisible prefix in tokens (`--prefix`), for `user` (and `auto`, where it wins). */
  prefixTokens?: number;
}

/** A step in price above a prompt size: the whole request's rates multiplied. */
export interface PriceTier {
  /** Applies to a request whose prompt (cache reads and writes included) is over this. */
  above_tokens: number;
  /** Multiplier of every input rate (uncached, cache read and write). */
  input: number;
  /** Multiplier of the output rate. */
  output: number;
}

/** A model's prices and cache, as the replay uses them. */
export interface ModelPrices {
  /** The model's name in the table, or `custom`. */
  name: string;
  /** Who bills it: the cache's behaviour follows the provider. */
  provider: 'anthropic' | 'openai' | 'google' | 'moonshot' | 'opencode' | 'other';
  /** Dollars per million input tokens. */
  input: number;
  /** Dollars per million output tokens. */
  output: number;
  /** Cache-write multiplier of the input price (the default time to live; 1 where writes carry no surcharge). */
  write: number;
  /** The multiplier of a 1-hour cache write (equal to `write` where the provider has none). */
  write_1h: number;
  /** The multiplier of a 12-hour cache write, where the provider sells one; else null. */
  write_12h: number | null;
  /** Cache-read multiplier of the input price. */
  read: number;
  /** How long a cached prefix lives without a hit, in seconds. */
  ttl_seconds: number;
  /** The shortest prefix, in tokens, that is cached at all. */
  min_prefix_tokens: number;
  /** The context window in tokens (the `auto` schedule's trigger is a share of it). */
  context_window_tokens: number;
  /** Whole-request price steps above a prompt size, lowest first. */
  tiers: PriceTier[];
  /** When the prices were last checked (YYYY-MM-DD or YYYY-MM), or `custom`. */
  as_of: string;
  /** Where the figures come from. */
  source: string;
}

/** What a replay is computed with, besides the stream. */
export interface ReplaySettings {
  config: ParsedConfig;
  auto: AutoCompaction;
  /**
   * The model and prices; null prices the model the transcript recorded
   * (or the table's default when it recorded none, or one the table lacks).
   */
  model: ModelPrices | null;
  /** Custom prices over the model (`--price`): the keys it gives replace the model's. */
  price?: string | null;
  schedule: ScheduleId;
  view: ViewMode;
  readings: Readonly<Readings>;
  counter: TokenCounter;
  calibration: CalibrationSettings;
  /**
   * The runtime that wrote the stream (an import format's name) when the
   * caller knows it; the responses' own `recorded_by` says it otherwise.
   */
  runtime?: string | null;
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
  /** The billed input the model predicts: the invisible prefix included. */
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
  /** The part of `prompt_tokens` that is the runtime's invisible prefix. */
  prefix_tokens: number;
  output_tokens: number;
  baseline: PromptFigures;
  compactions_created: number;
  /** Some element of the previous request's prompt is not at the head of this one. */
  prefix_broken: boolean;
  /** The cache had expired: the first request, or the gap passed the time to live. */
  cold: boolean;
  recorded: RecordedUsage | null;
  /** The recorded usage priced with the model (dollars), null without recorded usage. */
  recorded_cost: number | null;
  /**
   * The bill wrote far more to the cache than `stored` models, with no gap,
   * compaction or prefix change to explain it (issue 40: shown, never fitted).
   */
  unexplained_miss?: boolean;
  /**
   * Warm (not `cold`), yet nothing read from the cache: what the request
   * shares with the one before is under the model's minimum prefix.
   */
  under_minimum?: boolean;
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
  /** The recorded usage priced with the model (5-minute and 1-hour writes as recorded), dollars. */
  cost: number;
  /** `stored`'s modelled prompt tokens over the same requests. */
  modelled_prompt_tokens: number;
  /** `stored`'s modelled cost over the same requests. */
  modelled_cost: number;
  /** recorded prompt tokens / modelled prompt tokens; null when nothing was modelled. */
  ratio: number | null;
  /** The median of |modelled − recorded| / recorded prompt tokens per request; null for none. */
  median_prompt_error: number | null;
  /** Requests marked `unexplained_miss`. */
  unexplained_misses: number;
}

/** Where a replay's invisible prefix, token factor and hidden output come from, and the cache it assumes. */
export interface CalibrationReport {
  source: CalibrationSource;
  /** The invisible prefix at the first request, in billed tokens. */
  prefix_tokens: number;
  /** Where the bill shows the prefix moved: from that request (1-based) on, that many tokens. */
  prefix_steps: { from_request: number; tokens: number }[];
  /** Provider tokens per counted token. */
  token_factor: number;
  /** `fitted` on recorded usage, the `runtime`'s default, or `none` (1). */
  factor_source: 'fitted' | 'runtime' | 'none';
  /** Output not shown in the transcript (recorded output − visible), over every response. */
  hidden_output_tokens: number;
  /** The runtime the defaults are of (an import format's name), null when unknown. */
  runtime: string | null;
  runtime_version: string | null;
  /** Requests the fit used. */
  points: number;
  /** The fit's median relative error on its own points; null without points. */
  median_error: number | null;
  /** The cache's time to live, and which write it is billed as. */
  ttl_seconds: number;
  cache_write: '5m' | '1h';
  /** Where the runtime puts its cache breakpoints. */
  breakpoints: 'every-request' | 'head-and-last-turns';
  /** What a change far back in the prompt still reads from the cache. */
  head_tokens: number;
  /** What a cold request still reads (the runtime's head, warm from its other sessions), from the bill. */
  cold_read_tokens: number;
  /** One sentence per figure: where it comes from. */
  notes: string[];
}

/** A tool's cost under each of the six hint choices, the others as configured. */
export interface ToolWhatIf {
  name: string;
  /** The hint in force (`inherit` when the tool follows the rule's `tool_calls`). */
  hint: HintChoice;
  what_if_cost: Record<HintChoice, number>;
  /** The cheapest choice (the first in the order of the six on a tie). */
  cheapest: HintChoice;
  /**
   * The tool's results and those the model quoted or named afterwards (a
   * heuristic, drawn-on.ts): what a hint that removes results may cost in
   * answers, which the dollars do not show.
   */
  drawn_on_later: DrawnOnLater;
}

/** The totals of a replay. */
export interface ReplayTotals {
  baseline: { prompt_tokens: number; cost: number };
  schedule: { prompt_tokens: number; cost: number };
  saved: { prompt_tokens: number; cost: number; percent: number };
}

/** A model's prices as `--json` prints them: the row, with the write multiplier the cache is billed at. */
export type ReplayModel = ModelPrices;

/** One conversation's replay, or a folder's sum. */
export interface Replay {
  model: ReplayModel;
  schedule: ScheduleId;
  /** The policy the chosen figures are under: `jp` (the schedule) or a runtime's, with its parameters. */
  policy: PolicyChoice;
  tokenizer: TokenizerId;
  calibration: CalibrationReport;
  requests: ReplayRequest[];
  totals: ReplayTotals;
  /** Each schedule's total cost (only the computed ones when the scope leaves some out). */
  schedules: Partial<Record<ScheduleId, number>>;
  /** Empty when the scope leaves the what-if out. */
  tools: ToolWhatIf[];
  recorded: RecordedTotals | null;
  /** Always 1: kept for readers of the shape before issue 40 (`--scale-to-recorded` is gone; the calibration replaced it). */
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
  prefix_tokens: number[];
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
  calibration: CalibrationReport;
}

/** What a schedule or a policy decided per request, before pricing, in counted tokens. */
export interface RawRequest {
  /** The prompt the file shows (counted tokens). */
  visibleTokens: number;
  /** Hidden output sent back in the prompt (billed tokens). */
  hiddenTokens: number;
  /** The part of the prompt equal to the previous request's head: counted and hidden tokens. */
  commonVisible: number;
  commonHidden: number;
  commonCount: number;
  previousCount: number;
  /** Compactions created (schedules) or tool uses cleared (policies) at this request. */
  created: number;
}
