/**
 * The playground pipeline: one call turns the user's config and stream into
 * everything the page shows (PlaygroundResult). A session caches the parsed
 * stream, the parsed config and token counts, so that a hint edit re-parses
 * only the TOML and recounts only the few new stripped texts.
 *
 * Boundary: pure TypeScript, no DOM. Runs in the Web Worker, the CLI and tests.
 */

import { previewStream, resetCompactions } from '../compaction/creation.ts';
import { explainEvent, type Slots } from '../compaction/explain.ts';
import { getJpDryRun } from '../compaction/jp-timeline.ts';
import {
  buildToolNameMap,
  isProviderVisible,
  providerView,
  removeCompactions,
} from '../compaction/projection.ts';
import { withReadings } from '../compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../config/config.ts';
import { getConfigGuidance } from '../config/guidance.ts';
import type { ConfigInForce } from '../config/in-force.ts';
import { createReport, getPayload, type Report } from '../counting/report.ts';
import { loadTokenCounter, type TokenCounter, type TokenizerId } from '../counting/tokens.ts';
import { hasErrors } from '../diagnostics.ts';
import { summarizeImport } from '../import/import.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { PLAYGROUND_STREAM_LIMITS, type StreamLimits } from '../json/limits.ts';
import type { ParsedEvents } from '../stream/codec.ts';
import { countTurns } from '../stream/turns.ts';
import { writeEventsText } from '../stream/write.ts';
import type { CompactionEvent, StreamElement } from '../types.ts';
import { measureReadingEffects } from './design-questions.ts';
import { buildViews, describeFirstProblem, planCompactions, type Views } from './pipeline.ts';
import { compareToolInfo, getToolHintInfo } from './tool-info.ts';
import type {
  ImportedStream,
  PlaygroundInput,
  PlaygroundResult,
  RemovedBySanitize,
  TimelineEntry,
  ToolHintInfo,
  TranscriptEntry,
  ViewMode as ViewModeValue,
} from './types.ts';
import { createWhatIfCache } from './what-if.ts';

export {
  buildViews,
  type CompactionPlan,
  describeFirstProblem,
  getStreamToolNames,
  planCompactions,
  reportStream,
  type Views,
} from './pipeline.ts';

export type * from './types.ts';

/** The result of an action that rewrites the stream text (Compact, Reset). */
export type StreamEdit = { ok: true; streamText: string } | { ok: false; message: string };

/** A long-lived pipeline with caches, one per worker or CLI run. */
export interface PlaygroundSession {
  /** Computes everything the page shows. Never throws on user input. */
  run(input: PlaygroundInput): Promise<PlaygroundResult>;
  /** The stream with the previewed compactions appended for real (spec 14.5). */
  compact(input: PlaygroundInput): Promise<StreamEdit>;
  /** The stream without its compactions, or without the K-th (1-based). */
  reset(input: PlaygroundInput, position: number | null): Promise<StreamEdit>;
}

/** An empty report, for a page that has computed nothing yet. */
export function createEmptyReport(tokenizer: TokenizerId = 'o200k'): Report {
  const amount = () => ({ tokens: 0, chars: 0 });
  const pair = () => ({ before: amount(), after: amount() });
  return {
    tokenizer,
    tools: [],
    totals: { ...pair(), saved: amount() },
    groups: { toolRequests: pair(), toolResponses: pair(), reasoning: pair(), messages: pair() },
  };
}

/** The result shown before the first run finishes. */
export function createEmptyResult(): PlaygroundResult {
  return {
    status: 'ok',
    configDiagnostics: [],
    streamDiagnostics: [],
    encoding: 'plain',
    now: '2026-01-01 00:00:00.0',
    nowIsDefault: true,
    nowError: null,
    turnCount: 0,
    rules: [],
    usesBuiltinRule: true,
    plans: [],
    toolOverrides: {},
    tools: [],
    timeline: [],
    report: createEmptyReport(),
    before: [],
    after: [],
    removedBySanitize: [],
    whatIf: null,
    jpDryRun: [],
    readingEffects: [],
    configText: '',
    guidance: [],
  };
}

/** Options of a playground session. */
export interface PlaygroundSessionOptions {
  /** The largest stream the session reads; the browser's limits by default (limits.ts). */
  limits?: StreamLimits;
}

/** Creates a session with caches for repeated runs on the same stream. */
export function createPlaygroundSession(options: PlaygroundSessionOptions = {}): PlaygroundSession {
  const limits = options.limits ?? PLAYGROUND_STREAM_LIMITS;
  const counters = new Map<TokenizerId, Promise<TokenCounter>>();
  let streamCache:
    | { text: string; encoding: string; parsed: ParsedEvents; imported?: ImportedStream }
    | undefined;
  let configCache: { text: string; parsed: ParsedConfig } | undefined;
  const whatIfCache = createWhatIfCache();
  let beforeCache:
    | { elements: StreamElement[]; view: ViewModeValue; before: StreamElement[] }
    | undefined;

  const getCounter = (id: TokenizerId) => {
    let counter = counters.get(id);
    if (!counter) {
      counter = loadTokenCounter(id);
      counters.set(id, counter);
    }
    return counter;
  };

  const readStream = (input: PlaygroundInput) => {
    if (streamCache?.text !== input.streamText || streamCache.encoding !== input.encoding) {
      // Any transcript format: JP's own goes to the codec unchanged (read-stream.ts).
      const read = readAnyStream(input.streamText, { encoding: input.encoding, limits });
      const elements = read.parsed.elements;
      streamCache = {
        text: input.streamText,
        encoding: input.encoding,
        parsed: read.parsed,
      };
      if (read.imported) {
        streamCache.imported = {
          summary: summarizeImport(read.imported),
          // What the stream editor shows instead: JP's events, in the storage form JP saves.
          eventsText: elements ? writeEventsText(elements, 'storage') : null,
        };
      }
    }
    return streamCache;
  };
  const parseStream = (input: PlaygroundInput): ParsedEvents => readStream(input).parsed;

  const parseConfig = (text: string): ParsedConfig => {
    if (configCache?.text !== text) configCache = { text, parsed: parseConfigToml(text) };
    return configCache.parsed;
  };

  const getBefore = (elements: StreamElement[], view: ViewModeValue) => {
    if (beforeCache?.elements !== elements || beforeCache.view !== view) {
      const before = buildViews(elements, [], view).before;
      beforeCache = { elements, view, before };
    }
    return beforeCache.before;
  };

  /** The parsed inputs, or the reason they cannot be used. */
  const prepare = (input: PlaygroundInput) => {
    const stream = parseStream(input);
    const config = parseConfig(input.configText);
    const usable =
      stream.elements !== undefined &&
      !hasErrors(stream.diagnostics) &&
      !hasErrors(config.diagnostics);
    return { stream, config, elements: usable ? stream.elements : undefined };
  };

  const firstProblem = (input: PlaygroundInput) => {
    const { stream, config } = prepare(input);
    return describeFirstProblem(stream.diagnostics, config.diagnostics);
  };

  return {
    async run(input) {
      const counter = await getCounter(input.tokenizer);
      const { stream, config, elements } = prepare(input);
      const { imported } = readStream(input);
      const base = {
        ...createEmptyResult(),
        configText: input.configText,
        configDiagnostics: config.diagnostics,
        streamDiagnostics: stream.diagnostics,
        encoding: stream.encoding,
        report: createEmptyReport(input.tokenizer),
        ...(imported ? { imported } : {}),
      };
      if (!elements) return { ...base, status: 'invalid' };

      const readings = withReadings(input.readings);
      const plan = planCompactions(elements, config, input.now, readings);
      const views = buildViews(
        elements,
        plan.created.events,
        input.view,
        getBefore(elements, input.view),
        readings,
      );
      const toolNames = buildToolNameMap(views.projectedInput);
      const report = createReport(views.before, views.after, toolNames, counter);
      const timeline = buildTimeline(elements, plan.created.events);
      const transcripts = buildTranscripts(elements, views, timeline, toolNames, counter);
      const settings = { now: input.now, view: input.view, counter, readings };
      const whatIf = whatIfCache.getGrid(elements, config, settings);
      const readingEffects = input.compareReadings
        ? measureReadingEffects({
            elements,
            config,
            ...settings,
            current: views,
            currentAfterTokens: report.totals.after.tokens,
          })
        : [];

      const result: PlaygroundResult = {
        ...base,
        status: 'ok',
        now: plan.now,
        nowIsDefault: plan.nowIsDefault,
        nowError: plan.nowError,
        turnCount: countTurns(elements),
        rules: plan.configInForce.rules,
        usesBuiltinRule: plan.configInForce.usesBuiltinRule,
        plans: plan.created.plans,
        toolOverrides: plan.configInForce.toolOverrides,
        tools: buildToolInfo(elements, plan.configInForce),
        timeline,
        report,
        ...transcripts,
        whatIf,
        jpDryRun: getJpDryRun(plan.created.events),
        readingEffects,
      };
      // Guidance rides along with the result so the page shows it only for the text it was computed on.
      result.guidance = getConfigGuidance(input.configText, result, config);
      return result;
    },

    async compact(input) {
      const { stream, config, elements } = prepare(input);
      if (!elements) return { ok: false, message: firstProblem(input) };
      const plan = planCompactions(elements, config, input.now);
      if (plan.created.events.length === 0) {
        return {
          ok: false,
          message: 'Nothing to compact: every rule has an empty range on this stream.',
        };
      }
      const compacted = previewStream(elements, plan.created.events);
      return { ok: true, streamText: writeEventsText(compacted, stream.encoding) };
    },

    async reset(input, position) {
      const { stream, elements } = prepare(input);
      if (!elements) return { ok: false, message: firstProblem(input) };
      const result = resetCompactions(elements, position ?? undefined);
      if (!result.ok) return result;
      return { ok: true, streamText: writeEventsText(result.value, stream.encoding) };
    },
  };
}

function buildTimeline(
  elements: readonly StreamElement[],
  newEvents: readonly CompactionEvent[],
): TimelineEntry[] {
  const timeline: TimelineEntry[] = [];
  elements.forEach((element, index) => {
    if (element.type === 'compaction') {
      timeline.push({
        position: timeline.length + 1,
        elementIndex: index,
        event: element as CompactionEvent,
        isNew: false,
      });
    }
  });
  for (const event of newEvents) {
    timeline.push({ position: null, elementIndex: null, event, isNew: true });
  }
  return timeline;
}

/** Every tool the stream calls or the config names, with the hint in force for it, sorted by name. */
export function buildToolInfo(
  elements: readonly StreamElement[],
  config: ConfigInForce,
): ToolHintInfo[] {
  const calls = new Map<string, number>();
  for (const element of elements) {
    if (element.type === 'tool_call_request' && typeof element.name === 'string') {
      calls.set(element.name, (calls.get(element.name) ?? 0) + 1);
    }
  }
  const names = new Set([...calls.keys(), ...Object.keys(config.tools)]);
  names.delete('*');
  return [...names]
    .map((name) => getToolHintInfo(name, calls.get(name) ?? 0, config))
    .sort(compareToolInfo);
}

/**
 * Gives every event a key that is the same in both views: raw elements by
 * their index, events sanitize created by type, id and occurrence (both
 * sanitize passes create them in the same order), injected summaries by run.
 */
function createKeyer(elements: readonly StreamElement[]) {
  const rawKeys = new Map<StreamElement, string>();
  elements.forEach((element, index) => {
    rawKeys.set(element, `e${index}`);
  });
  return {
    rawKeys,
    /** A keying function for one pass over a view. */
    pass() {
      const occurrences = new Map<string, number>();
      return (element: StreamElement | undefined, fallback: string): string => {
        const raw = element && rawKeys.get(element);
        if (raw) return raw;
        const base = element
          ? `added:${String(element.type)}:${typeof element.id === 'string' ? element.id : ''}`
          : fallback;
        const n = occurrences.get(base) ?? 0;
        occurrences.set(base, n + 1);
        return `${base}#${n}`;
      };
    },
  };
}

function buildTranscripts(
  elements: readonly StreamElement[],
  views: Views,
  timeline: readonly TimelineEntry[],
  toolNames: ReadonlyMap<string, string>,
  counter: TokenCounter,
): Pick<PlaygroundResult, 'before' | 'after' | 'removedBySanitize'> {
  const keyer = createKeyer(elements);
  const { projection, projectedInput } = views;
  const slots: Slots = { timeline, turns: projection.turns };

  const entry = (element: StreamElement, key: string): TranscriptEntry => {
    const text = getPayload(element)?.text ?? '';
    const result: TranscriptEntry = {
      key,
      type: String(element.type),
      text,
      tokens: counter.tokens(text),
    };
    const id = typeof element.id === 'string' ? element.id : undefined;
    if (id !== undefined) result.id = id;
    const toolName =
      typeof element.name === 'string' ? element.name : id !== undefined ? toolNames.get(id) : '';
    if (toolName) result.toolName = toolName;
    if (!keyer.rawKeys.has(element)) result.sanitize = 'added';
    return result;
  };

  // Explanations by key, from what projection did to each projected input element.
  const explanations = new Map<string, ReturnType<typeof explainEvent>>();
  const inputKey = keyer.pass();
  projectedInput.forEach((element, index) => {
    const key = inputKey(element, '');
    const trace = projection.sources[index];
    if (trace && element.type !== 'compaction') {
      explanations.set(key, explainEvent(element, trace, slots));
    }
  });

  const beforeKey = keyer.pass();
  const before = views.before.map((element) => {
    const result = entry(element, beforeKey(element, ''));
    const explanation = explanations.get(result.key);
    if (explanation) result.explanation = explanation;
    return result;
  });

  const afterKey = keyer.pass();
  const after: TranscriptEntry[] = [];
  projection.elements.forEach((element, index) => {
    if (!isProviderVisible(element)) return;
    const trace = projection.projected[index];
    const sourceIndex = trace?.sourceIndex;
    const source =
      sourceIndex !== null && sourceIndex !== undefined ? projectedInput[sourceIndex] : undefined;
    if (!source) {
      const run = trace ? projection.turns[trace.rawTurn]?.summary?.run : undefined;
      const key = afterKey(undefined, `summary:${run?.from ?? 0}-${run?.to ?? 0}:${element.type}`);
      const result = entry(element, key);
      delete result.sanitize;
      result.explanation = explainEvent(element, undefined, slots, trace?.rawTurn ?? 0);
      after.push(result);
      return;
    }
    const result = entry(element, afterKey(source, ''));
    if (keyer.rawKeys.has(source)) delete result.sanitize;
    else result.sanitize = 'added';
    const explanation = explanations.get(result.key);
    if (explanation) result.explanation = explanation;
    after.push(result);
  });

  const kept = new Set(views.before);
  const removedBySanitize: RemovedBySanitize[] = [];
  const visibleRaw = providerView(removeCompactions(elements));
  if (visibleRaw.length !== views.before.length || visibleRaw.some((e) => !kept.has(e))) {
    for (const element of visibleRaw) {
      if (kept.has(element)) continue;
      const { key, type, toolName, id, text } = entry(element, keyer.rawKeys.get(element) ?? '');
      const removed: RemovedBySanitize = { key, type, text };
      if (toolName) removed.toolName = toolName;
      if (id) removed.id = id;
      removedBySanitize.push(removed);
    }
  }
  return { before, after, removedBySanitize };
}
