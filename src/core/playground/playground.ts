/**
 * The playground folder owns what the page and the CLI ask of the core as a
 * whole: this pipeline and its steps (pipeline.ts), the transcripts and
 * timeline shown (transcripts.ts), workspaces of many conversations and
 * their hint tables (workspace.ts), hint recommendations (recommend.ts), the
 * what-if grid (what-if.ts), D17's design questions (design-questions.ts),
 * the extras the panes ask for (extras.ts), the hint in force per tool
 * (tool-info.ts) and the input options (input-options.ts).
 *
 * The playground session: one call turns the user's config and stream into
 * the figures the page shows at once (`PlaygroundFigures`), and keeps what it
 * computed on the way (`RunContext`) so that an extra asked for the same
 * input (`extras.ts`) starts from there. It caches the parsed stream, the
 * parsed config and token counts, so that a hint edit re-parses only the TOML
 * and recounts only the few new stripped texts. The session knows nothing of
 * the analyses: they stand on it.
 *
 * Boundary: pure TypeScript, no DOM. Runs in the Web Worker, the CLI and tests.
 */

import { previewStream, resetCompactions } from '../compaction/creation.ts';
import { type Readings, withReadings } from '../compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../config/config.ts';
import { getConfigGuidance } from '../config/guidance.ts';
import type { ConfigInForce } from '../config/in-force.ts';
import type { JpBase } from '../config/jp-base.ts';
import { createReport, type Report } from '../counting/report.ts';
import { loadTokenCounter, type TokenCounter, type TokenizerId } from '../counting/tokens.ts';
import { hasErrors } from '../diagnostics.ts';
import { summarizeImport } from '../import/import.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { PLAYGROUND_STREAM_LIMITS, type StreamLimits } from '../json/limits.ts';
import type { ParsedEvents } from '../stream/codec.ts';
import { countTurns } from '../stream/turns.ts';
import { writeEventsText } from '../stream/write.ts';
import type { StreamElement } from '../types.ts';
import {
  type BeforeView,
  buildBeforeView,
  buildViews,
  type CompactionPlan,
  describeFirstProblem,
  planCompactions,
  type Views,
} from './pipeline.ts';
import { isSameInput } from './same-input.ts';
import { compareToolInfo, getToolHintInfo } from './tool-info.ts';
import { buildTimeline } from './transcripts.ts';
import type {
  ImportedStream,
  PlaygroundFigures,
  PlaygroundInput,
  TimelineEntry,
  ToolHintInfo,
  ViewMode as ViewModeValue,
} from './types.ts';

export {
  buildBeforeView,
  buildViews,
  type CompactionPlan,
  describeFirstProblem,
  getStreamToolNames,
  planCompactions,
  reportStream,
  type Views,
} from './pipeline.ts';

export type * from './types.ts';
export { isSameInput };

/** The result of an action that rewrites the stream text (Compact, Reset). */
export type StreamEdit = { ok: true; streamText: string } | { ok: false; message: string };

/**
 * What a run computed on its way to the figures, for the extras to start
 * from: the parsed inputs, the plan, the views and the report. Valid input only.
 */
export interface RunContext {
  input: PlaygroundInput;
  elements: readonly StreamElement[];
  config: ParsedConfig;
  readings: Readonly<Readings>;
  counter: TokenCounter;
  plan: CompactionPlan;
  views: Views;
  report: Report;
  timeline: TimelineEntry[];
  figures: PlaygroundFigures;
}

/** A run's context, or the figures of an input that has errors (nothing to start from). */
export type RunOutcome =
  | { ok: true; context: RunContext }
  | { ok: false; figures: PlaygroundFigures };

/** A long-lived pipeline with caches, one per worker or CLI run. */
export interface PlaygroundSession {
  /** Computes the figures of an input. Never throws on user input. */
  run(input: PlaygroundInput): Promise<PlaygroundFigures>;
  /**
   * The run of `input` with what it computed on the way; the last one is
   * kept, so an extra asked for the input just run costs no second run.
   */
  prepareRun(input: PlaygroundInput): Promise<RunOutcome>;
  /** The stream with the previewed compactions appended for real (spec 14.5). */
  compact(input: PlaygroundInput): Promise<StreamEdit>;
  /**
   * Starts loading a tokenizer before any run needs it (its tables are
   * megabytes of script): the first run then finds it loading or loaded.
   */
  preload(tokenizer: TokenizerId): void;
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

/** The figures shown before the first run finishes. */
export function createEmptyFigures(): PlaygroundFigures {
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
    | {
        text: string;
        encoding: string;
        base: JpBase;
        parsed: ParsedEvents;
        imported?: ImportedStream;
      }
    | undefined;
  let configCache: { text: string; base: JpBase; parsed: ParsedConfig } | undefined;
  let lastRun: { input: PlaygroundInput; outcome: RunOutcome } | undefined;
  let beforeCache:
    | { elements: StreamElement[]; view: ViewModeValue; before: BeforeView }
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
    // Changing the base re-reads the stream: its reading rules depend on it (15.0).
    const base = withReadings(input.readings).base;
    if (
      streamCache?.text !== input.streamText ||
      streamCache.encoding !== input.encoding ||
      streamCache.base !== base
    ) {
      // Any transcript format: JP's own goes to the codec unchanged (read-stream.ts).
      const read = readAnyStream(input.streamText, { encoding: input.encoding, limits, base });
      const elements = read.parsed.elements;
      streamCache = {
        text: input.streamText,
        encoding: input.encoding,
        base,
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

  const parseConfig = (text: string, base: JpBase): ParsedConfig => {
    if (configCache?.text !== text || configCache.base !== base) {
      configCache = { text, base, parsed: parseConfigToml(text, base) };
    }
    return configCache.parsed;
  };

  const getBefore = (elements: StreamElement[], view: ViewModeValue, base: JpBase) => {
    if (
      beforeCache?.elements !== elements ||
      beforeCache.view !== view ||
      beforeCache.before.base !== base
    ) {
      beforeCache = { elements, view, before: buildBeforeView(elements, view, base) };
    }
    return beforeCache.before;
  };

  /** The parsed inputs, or the reason they cannot be used. */
  const prepare = (input: PlaygroundInput) => {
    const stream = parseStream(input);
    const config = parseConfig(input.configText, withReadings(input.readings).base);
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

  const computeRun = async (input: PlaygroundInput): Promise<RunOutcome> => {
    const counter = await getCounter(input.tokenizer);
    const { stream, config, elements } = prepare(input);
    const { imported } = readStream(input);
    const base: PlaygroundFigures = {
      ...createEmptyFigures(),
      configText: input.configText,
      configDiagnostics: config.diagnostics,
      streamDiagnostics: stream.diagnostics,
      encoding: stream.encoding,
      report: createEmptyReport(input.tokenizer),
      ...(imported ? { imported } : {}),
    };
    if (!elements) return { ok: false, figures: { ...base, status: 'invalid' } };

    const readings = withReadings(input.readings);
    const plan = planCompactions(elements, config, input.now, readings);
    const views = buildViews(
      elements,
      plan.created.events,
      input.view,
      getBefore(elements, input.view, readings.base),
      readings,
    );
    const report = createReport(views.before, views.after, views.responseNames, counter);
    const timeline = buildTimeline(elements, plan.created.events);

    const figures: PlaygroundFigures = {
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
      tools: buildToolInfo(elements, plan.configInForce, readings),
      timeline,
      report,
    };
    // Guidance rides along with the figures so the page shows it only for the text it was computed on.
    figures.guidance = getConfigGuidance(
      input.configText,
      figures,
      config,
      elements,
      imported?.summary.format ?? input.importedFrom ?? null,
    );
    const context: RunContext = {
      input,
      elements,
      config,
      readings,
      counter,
      plan,
      views,
      report,
      timeline,
      figures,
    };
    return { ok: true, context };
  };

  const prepareRun = async (input: PlaygroundInput): Promise<RunOutcome> => {
    if (lastRun && isSameInput(lastRun.input, input)) return lastRun.outcome;
    const outcome = await computeRun(input);
    lastRun = { input, outcome };
    return outcome;
  };

  return {
    async run(input) {
      const outcome = await prepareRun(input);
      return outcome.ok ? outcome.context.figures : outcome.figures;
    },

    prepareRun,

    preload(tokenizer) {
      // A failed load is reported by the run that needs it, which tries again.
      getCounter(tokenizer).catch(() => counters.delete(tokenizer));
    },

    async compact(input) {
      const { stream, config, elements } = prepare(input);
      if (!elements) return { ok: false, message: firstProblem(input) };
      // Compact writes what the preview shows, so it reads D17 the same way (jp=today bakes no hints).
      const plan = planCompactions(elements, config, input.now, withReadings(input.readings));
      // JP main refuses the whole invocation (15.5): nothing is written.
      if (plan.created.refusal !== undefined) {
        return { ok: false, message: `Refused: ${plan.created.refusal.message}` };
      }
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

/** Every tool the stream calls or the config names, with the hint in force for it, sorted by name. */
export function buildToolInfo(
  elements: readonly StreamElement[],
  config: ConfigInForce,
  readings?: Readings,
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
    .map((name) => getToolHintInfo(name, calls.get(name) ?? 0, config, readings))
    .sort(compareToolInfo);
}
