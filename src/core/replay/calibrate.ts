/**
 * The calibrated model of one conversation (issue 40): where its invisible
 * prefix, token factor and hidden output come from, and the cache the
 * runtime really uses. In this order: the usage the transcript recorded
 * (fitted, calibration.ts), what the transcript holds that the import keeps
 * out of the conversation (a `config_delta`'s system prompt, instructions
 * and tool definitions), the runtime's defaults (runtime-profiles.ts), the
 * user's figure. `none` is the file alone: the model before issue 40, on
 * which the replay's independent oracles were written.
 */

import { formatCount } from '../counting/format.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import type { RecordedBy } from '../import/recorded-usage.ts';
import { isJsonObject } from '../json/values.ts';
import type { StreamElement } from '../types.ts';
import {
  type CalibrationPoint,
  type FittedCalibration,
  fitCalibration,
  getPrefixAt,
  median,
  type PrefixStep,
} from './calibration.ts';
import type { ModelPrices } from './prices.ts';
import type { ReplayRequestSite } from './requests.ts';
import {
  type Breakpoints,
  getProfilePrefix,
  getRuntimeProfile,
  isVersionAtLeast,
  type RuntimeProfile,
} from './runtime-profiles.ts';
import type {
  CalibrationChoice,
  CalibrationReport,
  CalibrationSettings,
  CalibrationSource,
  RawRequest,
} from './types.ts';

/** The calibrated model, as pricing reads it. */
export interface Calibration {
  source: CalibrationSource;
  prefix: readonly PrefixStep[];
  tokenFactor: number;
  factorSource: CalibrationReport['factor_source'];
  /** Whether a request's recorded output is its output (the bill read). */
  usesRecordedOutput: boolean;
  /** Hidden output of request k's own response (billed tokens), estimated where not recorded. */
  hiddenOfRequest: Float64Array;
  ttlSeconds: number;
  cacheWrite: '5m' | '1h';
  breakpoints: Breakpoints;
  /**
   * What a cold request (the first, or one after the time to live) still
   * reads: the runtime's head, kept warm by its other sessions. From the
   * bill (the median read of its cold requests); 0 where it shows none.
   */
  coldReadTokens: number;
  runtime: string | null;
  runtimeVersion: string | null;
  fit: FittedCalibration | null;
  notes: string[];
}

/** What the stream says of the runtime that wrote it: the first response that says so. */
export interface RuntimeRead {
  runtime: string | null;
  version: string | null;
  /** The model most responses were recorded from; null when none says. */
  model: string | null;
  /** Every model recorded, most used first. */
  models: string[];
  /** The stream is a subagent's conversation (the import says so). */
  subagent: boolean;
  /** The provider most responses went to, when recorded apart from the model. */
  provider: string | null;
}

/** The runtime, its version and the models, from the responses' `recorded_by` (or the caller's runtime). */
export function readRuntime(
  recordedBy: ReadonlyMap<number, RecordedBy>,
  runtime: string | null | undefined,
): RuntimeRead {
  let found: RecordedBy | undefined;
  const counts = new Map<string, number>();
  const providers = new Map<string, number>();
  for (const by of recordedBy.values()) {
    found ??= by;
    if (by.version && !found.version) found = by;
    if (by.model) counts.set(by.model, (counts.get(by.model) ?? 0) + 1);
    if (by.provider) providers.set(by.provider, (providers.get(by.provider) ?? 0) + 1);
  }
  const models = [...counts].sort((a, b) => b[1] - a[1]).map(([model]) => model);
  const provider = [...providers].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    runtime: runtime ?? found?.runtime ?? null,
    version: found?.version ?? null,
    model: models[0] ?? null,
    models,
    subagent: found?.subagent === true,
    provider,
  };
}

/** Responses with recorded output it takes to estimate the others' hidden output from them. */
const MIN_HIDDEN_SAMPLES = 3;

/**
 * Each request's own hidden output: recorded output minus the output the
 * file shows, where the bill is read; elsewhere the mean of those, or the
 * runtime's default per response. Null when the replay models none.
 */
export function getHiddenOutput(
  sites: readonly ReplayRequestSite[],
  settings: CalibrationSettings,
  profile: RuntimeProfile | undefined,
): { perRequest: Float64Array; fromRecorded: boolean } | null {
  if (settings.choice === 'none') return null;
  const perRequest = new Float64Array(sites.length);
  const readsBill = settings.choice === 'recorded' || settings.choice === 'auto';
  const known: number[] = [];
  if (readsBill) {
    for (const site of sites) {
      if (site.recorded) known.push(Math.max(0, site.recorded.output_tokens - site.outputTokens));
    }
  }
  // The median of three or more (a first response's long thinking is no typical one); fewer
  // tell less than the runtime's own figure.
  const estimate =
    known.length >= MIN_HIDDEN_SAMPLES
      ? median(known)
      : (profile?.hiddenOutputPerResponse ??
        (known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 0));
  sites.forEach((site, k) => {
    perRequest[k] =
      readsBill && site.recorded
        ? Math.max(0, site.recorded.output_tokens - site.outputTokens)
        : estimate;
  });
  return { perRequest, fromRecorded: known.length > 0 };
}

/** The hidden output by stream index of each response's first event, as the prompts carry it. */
export function getHiddenByIndex(
  sites: readonly ReplayRequestSite[],
  perRequest: Float64Array,
  length: number,
): Float64Array {
  const byIndex = new Float64Array(length);
  sites.forEach((site, k) => {
    byIndex[site.cut] = perRequest[k] as number;
  });
  return byIndex;
}

/** Config paths whose strings a runtime sends with every request (JP's config, or what an import kept there). */
const SENT_CONFIG_PATHS = [
  ['assistant', 'system_prompt'],
  ['assistant', 'system_prompt_sections'],
  ['assistant', 'instructions'],
  ['conversation', 'tools'],
] as const;

/**
 * The tokens of what the stream's config sends with every request: the
 * system prompt, its sections, the instructions and the tool definitions,
 * as the last `config_delta` setting each leaves them. An approximation of
 * JP's merge (later deltas replace a key whole), said in docs/replay.md.
 */
export function countConfigPrefix(
  elements: readonly StreamElement[],
  counter: TokenCounter,
): number {
  const latest = new Map<string, unknown>();
  for (const element of elements) {
    if (element.type !== 'config_delta' || !isJsonObject(element.delta)) continue;
    for (const [top, key] of SENT_CONFIG_PATHS) {
      const section = element.delta[top];
      if (!isJsonObject(section) || section[key] === undefined) continue;
      latest.set(`${top}.${key}`, section[key]);
    }
  }
  const texts: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) for (const item of value) collect(item);
    else if (value !== null && typeof value === 'object')
      for (const item of Object.values(value)) collect(item);
  };
  for (const value of latest.values()) collect(value);
  return texts.length === 0 ? 0 : counter.tokens(texts.join('\n'));
}

/** What a calibration is built from. */
export interface CalibrationInput {
  settings: CalibrationSettings;
  runtime: RuntimeRead;
  sites: readonly ReplayRequestSite[];
  /** `stored`'s requests: what happened, the points of the fit. */
  stored: readonly RawRequest[];
  /** The hidden output each request carries (`getHiddenOutput`), or null under `none`. */
  hidden: { perRequest: Float64Array; fromRecorded: boolean } | null;
  /** Tokens the stream's config sends with every request (`countConfigPrefix`). */
  configPrefix: number;
  /** Seconds since the previous request, per request (null: first or unknown). */
  gaps: readonly (number | null)[];
  model: ModelPrices;
}

/** A factor where neither the bill nor the runtime tells one. */
const GENERIC_TOKEN_FACTOR = 1.2;
const FACTOR_BOUNDS = { min: 0.8, max: 3 };

/** Builds the calibration the choice asks for, from the best source the stream has. */
export function calibrate(input: CalibrationInput): Calibration {
  const { settings, runtime, sites, stored, model } = input;
  const profile = getRuntimeProfile(runtime.runtime);
  const hasUsage = sites.some((site) => site.recorded !== null);
  // Nothing tells the invisible prefix: auto counts the file alone, and says how to give a figure.
  const unknown =
    settings.choice === 'auto' &&
    !hasUsage &&
    !profile &&
    input.configPrefix === 0 &&
    settings.prefixTokens === undefined;
  const none = settings.choice === 'none' || unknown;
  const cache = getCache(sites, runtime, profile, model, none);
  const base = {
    hiddenOfRequest: input.hidden?.perRequest ?? new Float64Array(sites.length),
    runtime: runtime.runtime,
    runtimeVersion: runtime.version,
    coldReadTokens: 0,
    ...cache,
  };
  if (none) {
    return {
      ...base,
      source: 'none',
      prefix: [{ from: 0, tokens: 0 }],
      tokenFactor: 1,
      factorSource: 'none',
      usesRecordedOutput: false,
      fit: null,
      notes: [
        unknown
          ? "Nothing in the file tells the runtime's invisible prefix (its system prompt and tool definitions, sent with every request): the figures count the file alone. Give your figure as the invisible prefix (--prefix) to price them."
          : 'Calibration none: the prompt is what the file shows, counted with the bundled tokenizer; no invisible prefix, no hidden output.',
      ],
    };
  }
  const defaultFactor = profile?.tokenFactor ?? GENERIC_TOKEN_FACTOR;
  const source = chooseSource(settings.choice, settings, hasUsage);
  if (source === 'recorded') {
    const points: CalibrationPoint[] = [];
    sites.forEach((site, k) => {
      const raw = stored[k];
      if (!site.recorded || !raw) return;
      points.push({
        request: k,
        visible: raw.visibleTokens,
        hidden: raw.hiddenTokens,
        recorded: site.recorded.prompt_tokens,
      });
    });
    const fit = fitCalibration(points, { fallback: defaultFactor, ...FACTOR_BOUNDS });
    const steps = fit.prefix.length - 1;
    const coldReads = sites
      .filter((site, k) => {
        const gap = input.gaps[k] ?? null;
        return site.recorded !== null && (k === 0 || (gap !== null && gap > cache.ttlSeconds));
      })
      .map((site) => site.recorded?.cache_read_tokens ?? 0);
    const coldReadTokens = coldReads.length === 0 ? 0 : median(coldReads);
    return {
      ...base,
      coldReadTokens,
      source,
      prefix: fit.prefix,
      tokenFactor: fit.tokenFactor,
      factorSource: fit.factorSource === 'fitted' ? 'fitted' : 'runtime',
      usesRecordedOutput: true,
      fit,
      notes: [
        ...(coldReadTokens > 0
          ? [
              `The bill shows ${formatTokens(coldReadTokens)} tokens read from the cache even when this session's cache was cold (the runtime's head, kept warm by its other sessions): a cold request reads them too.`,
            ]
          : []),
        `Calibrated on the usage the transcript recorded (${points.length} of ${sites.length} requests): an invisible prefix of ${formatTokens(fit.prefix[0]?.tokens ?? 0)} tokens${steps > 0 ? ` that moves ${steps === 1 ? 'once' : `${steps} times`}` : ''} and ${fit.tokenFactor.toFixed(2)} billed tokens per counted token${fit.factorSource === 'fitted' ? '' : ` (${profile ? `${profile.title}'s default` : 'a generic default'}: too few requests to fit)`}; the fit is ${formatShare(fit.medianError ?? 0)} off on them (median).`,
      ],
    };
  }
  if (source === 'user') {
    const tokens = settings.prefixTokens ?? 0;
    return {
      ...base,
      source,
      prefix: [{ from: 0, tokens }],
      tokenFactor: defaultFactor,
      factorSource: 'runtime',
      usesRecordedOutput: false,
      fit: null,
      notes: [
        `The invisible prefix is your figure: ${formatTokens(tokens)} tokens; ${defaultFactor.toFixed(2)} billed tokens per counted token (${profile ? `${profile.title}'s default` : 'a generic default'}).`,
      ],
    };
  }
  // The runtime's defaults, with what the stream's config sends counted on top.
  const counted = Math.round(defaultFactor * input.configPrefix);
  const profilePrefix = profile ? getProfilePrefix(profile, runtime.version, runtime.subagent) : 0;
  const tokens = profilePrefix + counted;
  const parts = [
    profile
      ? `${profile.title}${runtime.version ? ` ${runtime.version}` : ''}${runtime.subagent ? ' (a subagent)' : ''}'s default ${formatTokens(profilePrefix)} tokens (${profile.source})`
      : '',
    counted > 0
      ? `${formatTokens(counted)} tokens the stream's config sends (system prompt, instructions, tool definitions)`
      : '',
  ].filter((part) => part !== '');
  return {
    ...base,
    source: 'runtime',
    prefix: [{ from: 0, tokens }],
    tokenFactor: defaultFactor,
    factorSource: 'runtime',
    usesRecordedOutput: false,
    fit: null,
    notes: [
      `Modelled from defaults${settings.choice === 'recorded' ? ' (the transcript recorded no usage to fit)' : ''}: an invisible prefix of ${parts.join(' plus ')}, and ${defaultFactor.toFixed(2)} billed tokens per counted token.`,
    ],
  };
}

/** The source a choice other than `none` takes (auto: the user's figure, else the bill, else the defaults). */
function chooseSource(
  choice: CalibrationChoice,
  settings: CalibrationSettings,
  hasUsage: boolean,
): Exclude<CalibrationSource, 'none'> {
  if (choice === 'recorded') return hasUsage ? 'recorded' : 'runtime';
  if (choice === 'runtime') return 'runtime';
  if (choice === 'user') return 'user';
  if (settings.prefixTokens !== undefined) return 'user';
  return hasUsage ? 'recorded' : 'runtime';
}

/**
 * The cache as the runtime uses it: 1-hour writes where the bill records
 * them (or the runtime's version writes only those), the model's own time
 * to live otherwise; the runtime's breakpoints.
 */
function getCache(
  sites: readonly ReplayRequestSite[],
  runtime: RuntimeRead,
  profile: RuntimeProfile | undefined,
  model: ModelPrices,
  none: boolean,
): { ttlSeconds: number; cacheWrite: '5m' | '1h'; breakpoints: Breakpoints } {
  if (none)
    return { ttlSeconds: model.ttl_seconds, cacheWrite: '5m', breakpoints: 'every-request' };
  let oneHour = 0;
  let fiveMinute = 0;
  for (const site of sites) {
    if (!site.recorded) continue;
    const hour = site.recorded.cache_write_1h_tokens ?? 0;
    oneHour += hour;
    fiveMinute += site.recorded.cache_write_tokens - hour;
  }
  const byVersion =
    profile?.oneHourCacheFrom !== undefined &&
    runtime.version !== null &&
    isVersionAtLeast(runtime.version, profile.oneHourCacheFrom);
  const writesOneHour =
    model.write_1h !== model.write && (oneHour + fiveMinute > 0 ? oneHour > fiveMinute : byVersion);
  return {
    ttlSeconds: writesOneHour ? Math.max(3600, model.ttl_seconds) : model.ttl_seconds,
    cacheWrite: writesOneHour ? '1h' : '5m',
    breakpoints: profile?.breakpoints ?? 'every-request',
  };
}

/** The prefix in force at request k (0-based). */
export function getPrefixTokens(calibration: Calibration, k: number): number {
  return getPrefixAt(calibration.prefix, k);
}

/** The calibration as `--json` prints it. */
export function reportCalibration(calibration: Calibration): CalibrationReport {
  const first = calibration.prefix[0]?.tokens ?? 0;
  let hidden = 0;
  for (const tokens of calibration.hiddenOfRequest) hidden += tokens;
  return {
    source: calibration.source,
    prefix_tokens: Math.round(first),
    prefix_steps: calibration.prefix
      .slice(1)
      .map((step) => ({ from_request: step.from + 1, tokens: Math.round(step.tokens) })),
    token_factor: round3(calibration.tokenFactor),
    factor_source: calibration.factorSource,
    hidden_output_tokens: Math.round(hidden),
    runtime: calibration.runtime,
    runtime_version: calibration.runtimeVersion,
    cold_read_tokens: Math.round(calibration.coldReadTokens),
    points: calibration.fit?.points ?? 0,
    median_error: calibration.fit?.medianError ?? null,
    ttl_seconds: calibration.ttlSeconds,
    cache_write: calibration.cacheWrite,
    breakpoints: calibration.breakpoints,
    head_tokens: Math.round(first),
    notes: calibration.notes,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function formatTokens(tokens: number): string {
  return formatCount(Math.round(tokens));
}

function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

export { median };
