/**
 * What the replay computes once per stream and per way of reading it, and
 * shares between every schedule, policy and what-if of that stream: the
 * requests, the prompt context (with the hidden output each response sends
 * back, when the calibration models it), the gaps, the runtime the stream
 * was recorded by, and the runs of the schedules no config changes. Never
 * mutated once made, but for those memoised runs.
 */
import type { ParsedConfig } from '../config/config.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import type { StreamElement } from '../types.ts';
import {
  countConfigPrefix,
  getHiddenByIndex,
  getHiddenOutput,
  type RuntimeRead,
  readRuntime,
} from './calibrate.ts';
import { type ElementFacts, readElementFacts } from './element-facts.ts';
import {
  buildEpochView,
  createPromptContext,
  type EpochView,
  type PromptContext,
} from './prompts.ts';
import { findRequests, type RequestScan } from './requests.ts';
import { getRuntimeProfile, withholdsReasoning } from './runtime-profiles.ts';
import type { ScheduleId } from './schedules.ts';
import type { RawRequest, ReplaySettings } from './types.ts';

/** What depends on the stream and how it is read, but on no choice of schedule, policy or price. */
export interface StreamPrep {
  scan: RequestScan;
  context: PromptContext;
  stored: { index: number; element: StreamElement }[];
  /** Seconds between requests; null for the first, an unknown time, or one before the previous. */
  gaps: (number | null)[];
  /** Requests timed before the request before them (their gap is taken as unknown). */
  backwardsGaps: number;
  runtime: RuntimeRead;
  /** Each request's own hidden output, or null when the calibration models none. */
  hidden: { perRequest: Float64Array; fromRecorded: boolean } | null;
  /** Tokens the stream's config sends with every request. */
  configPrefix: number;
  /** `none` and `stored`, filled the first time a replay runs them. */
  fixedSchedules: Map<ScheduleId, readonly RawRequest[]>;
  /**
   * The schedules that create compactions, by the config they ran under
   * (the run's parsed config, one object per input version) and a key of
   * the other settings, filled the first time a replay runs them.
   */
  createdSchedules: WeakMap<ParsedConfig, Map<string, readonly RawRequest[]>>;
}

/** Everything computed once per stream, shared by every schedule and what-if. */
export interface StreamState extends StreamPrep {
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

/** Which hidden output the calibration models: none, the bill's, or the defaults'. */
function getHiddenMode(settings: ReplaySettings): 'none' | 'bill' | 'defaults' {
  const { choice } = settings.calibration;
  if (choice === 'none') return 'none';
  return choice === 'recorded' || choice === 'auto' ? 'bill' : 'defaults';
}

function prepareStream(elements: readonly StreamElement[], settings: ReplaySettings): StreamPrep {
  const hiddenMode = getHiddenMode(settings);
  const key = JSON.stringify([
    settings.view,
    settings.readings,
    settings.counter.id,
    settings.untimed === true,
    hiddenMode,
    settings.runtime ?? null,
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
  const runtime = readRuntime(facts.recordedBy, settings.runtime);
  const hidden = getHiddenOutput(
    scan.requests,
    settings.calibration,
    getRuntimeProfile(runtime.runtime),
  );
  const context = createPromptContext(
    elements,
    facts,
    settings.view,
    settings.readings,
    settings.counter,
    hidden === null ? null : getHiddenByIndex(scan.requests, hidden.perRequest, elements.length),
    hiddenMode !== 'none' && withholdsReasoning(runtime.provider),
  );
  const stored: StreamPrep['stored'] = context.compactionIndexes.map((index) => ({
    index,
    element: elements[index] as StreamElement,
  }));
  let backwardsGaps = 0;
  const gaps = scan.requests.map((site, k) => {
    const previous = scan.requests[k - 1];
    if (!previous || previous.instant === undefined || site.instant === undefined) return null;
    const seconds = Number(site.instant - previous.instant) / 1e9;
    if (seconds < 0) {
      backwardsGaps++;
      return null;
    }
    return seconds;
  });
  const prep: StreamPrep = {
    scan,
    context,
    stored,
    gaps,
    backwardsGaps,
    runtime,
    hidden,
    configPrefix: hiddenMode === 'none' ? 0 : countConfigPrefix(elements, settings.counter),
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

/** The stream's shared state under `settings`. */
export function createStreamState(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
): StreamState {
  return { ...prepareStream(elements, settings), elements, settings, views: new Map() };
}

/** A number per compaction object, for the views' keys (its JSON would cost as much as the view). */
const compactionNumbers = new WeakMap<StreamElement, number>();
let nextCompactionNumber = 0;

function numberOf(compaction: StreamElement): number {
  let number = compactionNumbers.get(compaction);
  if (number === undefined) {
    number = nextCompactionNumber++;
    compactionNumbers.set(compaction, number);
  }
  return number;
}

/**
 * Views kept per stream state: the schedules share `none`'s and the stored
 * epochs', and a schedule's run builds each of its own epochs once and
 * never goes back to one. Keeping every epoch's view of a session compacted
 * at each of its thousand turns held gigabytes.
 */
const KEPT_VIEWS = 16;

/** The view of the whole stream under a set of compactions (the same objects: the same view). */
export function getView(state: StreamState, compactions: readonly StreamElement[]): EpochView {
  const key = compactions.map(numberOf).join(',');
  let view = state.views.get(key);
  if (view) {
    // Most recently used last.
    state.views.delete(key);
  } else {
    view = buildEpochView(state.context, compactions);
  }
  state.views.set(key, view);
  if (state.views.size > KEPT_VIEWS) {
    const oldest = state.views.keys().next().value;
    if (oldest !== undefined) state.views.delete(oldest);
  }
  return view;
}
