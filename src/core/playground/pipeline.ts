/**
 * The steps of the pipeline, shared by the session (playground.ts), the
 * workspace, what-if and the design questions: plan the compactions, build
 * the views, count them. Kept apart from the session so that the modules the
 * session uses can use these steps without importing the session back.
 */

import {
  type CreatedCompactions,
  createCompactionEvents,
  getDefaultNow,
  previewStream,
} from '../compaction/creation.ts';
import {
  getToolInfo,
  type KnownToolInfo,
  nameProjectedResponses,
  nameToolResponses,
  type Projection,
  project,
  providerView,
  removeCompactions,
} from '../compaction/projection.ts';
import { DEFAULT_READINGS, type Readings } from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import {
  type ConfigInForce,
  getStreamConfigDeltaTools,
  resolveConfigInForce,
} from '../config/in-force.ts';
import type { JpBase } from '../config/jp-base.ts';
import { toolHintToPolicy } from '../config/tool-hints.ts';
import { createReport, type Report } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import { compareCodePoints, setOwn } from '../json/values.ts';
import { sanitize } from '../stream/sanitize.ts';
import { formatTimestamp, parseTimestamp } from '../stream/timestamp.ts';
import type { CompactionEvent, Diagnostic, StreamElement, ToolCallPolicy } from '../types.ts';
import type { HintChoice, ViewMode as ViewModeValue } from './types.ts';

/** What the compaction run over one stream decided: the config in force, now, and new events. */
export interface CompactionPlan {
  configInForce: ConfigInForce;
  now: string;
  nowIsDefault: boolean;
  nowError: string | null;
  created: CreatedCompactions;
}

/** Names of the tools the stream calls, in first-call order. */
export function getStreamToolNames(elements: readonly StreamElement[]): string[] {
  const names = new Set<string>();
  for (const element of elements) {
    if (element.type === 'tool_call_request' && typeof element.name === 'string') {
      names.add(element.name);
    }
  }
  return [...names];
}

// Streams are never mutated; what the config in force needs from one is computed once.
const streamToolFacts = new WeakMap<
  readonly StreamElement[],
  { deltaTools: ReturnType<typeof getStreamConfigDeltaTools>; names: string[] }
>();

/**
 * One tool's hint replaced in the `tool_overrides` new compactions get:
 * `inherit` removes the tool's override (the rule's `tool_calls` decides it),
 * whatever gave it (its own hint, `'*'` or a config_delta).
 */
export interface ToolChoice {
  tool: string;
  choice: HintChoice;
}

/** The overrides with `change.tool`'s replaced, kept sorted by name as resolution sorts them. */
function withToolChoice(
  overrides: Readonly<Record<string, ToolCallPolicy>>,
  change: ToolChoice,
): Record<string, ToolCallPolicy> {
  const entries = Object.entries(overrides).filter(([name]) => name !== change.tool);
  if (change.choice !== 'inherit') entries.push([change.tool, toolHintToPolicy(change.choice)]);
  entries.sort(([a], [b]) => compareCodePoints(a, b));
  const result: Record<string, ToolCallPolicy> = {};
  for (const [name, policy] of entries) setOwn(result, name, policy);
  return result;
}

/**
 * Resolves the config in force and creates the new compaction events for one
 * stream (spec 10, 11, 14.1, 14.2). `nowText` null means the default now.
 * `toolChoice` replaces one tool's hint, as the what-if grid asks.
 */
export function planCompactions(
  elements: readonly StreamElement[],
  config: ParsedConfig,
  nowText: string | null,
  readings: Readonly<Readings> = DEFAULT_READINGS,
  toolChoice?: ToolChoice,
): CompactionPlan {
  let facts = streamToolFacts.get(elements);
  if (!facts) {
    facts = {
      deltaTools: getStreamConfigDeltaTools(elements),
      names: getStreamToolNames(elements),
    };
    streamToolFacts.set(elements, facts);
  }
  const configInForce = resolveConfigInForce(
    config.config,
    facts.deltaTools,
    // Reading 14.1 "configured only": tools the stream calls are not added for '*' to reach.
    readings.star === 'configured-only' ? [] : facts.names,
  );
  const explicit = nowText === null || nowText.trim() === '' ? undefined : parseTimestamp(nowText);
  const nowError =
    nowText !== null && nowText.trim() !== '' && explicit === undefined
      ? `"${nowText}" is not a timestamp JP reads: write it as YYYY-MM-DD HH:MM:SS.f (UTC); the default is used instead.`
      : null;
  const now = explicit ?? getDefaultNow(elements);
  const created = createCompactionEvents({
    elements,
    rules: configInForce.rules,
    toolOverrides: toolChoice
      ? withToolChoice(configInForce.toolOverrides, toolChoice)
      : configInForce.toolOverrides,
    now,
    readings,
  });
  return {
    configInForce,
    now: formatTimestamp(now),
    nowIsDefault: explicit === undefined,
    nowError,
    created,
  };
}

/**
 * The "before" view of spec 14.4, provider(sanitize?(stream without
 * compactions)), with each response's tool name under `base`. It depends on
 * no config, so callers that run many configs over one stream build it once.
 */
export interface BeforeView {
  elements: StreamElement[];
  /** The base its responses were named under. */
  base: JpBase;
  /** Each tool response (by object) with its tool name from step 3 (15.3), `null` when it has none. */
  responseNames: ReadonlyMap<StreamElement, string | null>;
  /**
   * The stream with its stored compactions, repaired as the view asks, and
   * its step 3: every run's projection input is this with the new
   * compactions appended. Sanitize moves and creates conversation events
   * only, so `sanitize(stream ++ compactions)` is `sanitize(stream) ++
   * compactions` (properties.test.ts), and step 3 of the prefix is unchanged
   * (`KnownToolInfo`). A hint edit then neither sanitizes nor pairs again;
   * sanitize's created responses are the same objects in both views.
   */
  repaired: readonly StreamElement[];
  repairedTools: KnownToolInfo;
  /** What it was built from: a run projects `repaired`, so only a run of these takes it. */
  source: readonly StreamElement[];
  view: ViewModeValue;
}

/** The "before" and "after" provider views of spec 14.4, with what produced them. */
export interface Views {
  /** provider(sanitize?(stream without compactions)) */
  before: StreamElement[];
  /** `before` with its names, to hand to the next {@link buildViews} of the same stream. */
  beforeView: BeforeView;
  /** The stream plus new compactions, sanitized when asked: what was projected. */
  projectedInput: StreamElement[];
  projection: Projection;
  /** provider(project(projectedInput)) */
  after: StreamElement[];
  /**
   * Each tool response of `before` and `after` (by object) with its tool
   * name, as the projection paired it: by position within a turn under
   * `2026-09`, through the id map under `2026-08`. The report's rows and the
   * transcripts name responses by it, so they agree with the placeholders.
   */
  responseNames: ReadonlyMap<StreamElement, string | null>;
}

function repairFor(
  view: ViewModeValue,
): (list: readonly StreamElement[]) => readonly StreamElement[] {
  return view === 'sanitized' ? sanitize : (list) => list;
}

/** Builds the "before" view of a stream and names its responses under `base`. */
export function buildBeforeView(
  elements: readonly StreamElement[],
  view: ViewModeValue,
  base: JpBase = DEFAULT_READINGS.base,
): BeforeView {
  const repair = repairFor(view);
  const repaired = repair(elements);
  const repairedTools: KnownToolInfo = { base, tools: getToolInfo(repaired, base) };
  const withoutCompactions = removeCompactions(elements);
  // Without stored compactions the two streams are the same elements: repaired and paired once.
  const same = withoutCompactions.length === elements.length;
  const stream = same ? repaired : repair(withoutCompactions);
  return {
    elements: providerView(stream),
    base,
    // Named before the provider filter drops turn_start: positional pairing needs the turns.
    responseNames: nameToolResponses(stream, base, same ? repairedTools.tools : undefined),
    repaired,
    repairedTools,
    source: elements,
    view,
  };
}

/** Builds the before/after views of spec 14.4 for a stream and its new compactions. */
export function buildViews(
  elements: readonly StreamElement[],
  newEvents: readonly CompactionEvent[],
  view: ViewModeValue,
  cachedBefore?: BeforeView,
  readings: Readonly<Readings> = DEFAULT_READINGS,
): Views {
  const beforeView =
    cachedBefore?.base === readings.base &&
    cachedBefore.view === view &&
    cachedBefore.source === elements
      ? cachedBefore
      : buildBeforeView(elements, view, readings.base);
  const projectedInput = previewStream(beforeView.repaired, newEvents);
  const projection = project(projectedInput, readings, beforeView.repairedTools);
  const responseNames = new Map(beforeView.responseNames);
  for (const [element, name] of nameProjectedResponses(projection))
    responseNames.set(element, name);
  return {
    before: beforeView.elements,
    beforeView,
    projectedInput,
    projection,
    after: providerView(projection.elements),
    responseNames,
  };
}

/** The per-tool report of one stream (spec 14.4), as the CLI's `report` prints it. */
export function reportStream(
  elements: readonly StreamElement[],
  config: ParsedConfig,
  options: {
    now: string | null;
    view: ViewModeValue;
    counter: TokenCounter;
    readings?: Readonly<Readings>;
    /** One tool's hint replaced (the what-if grid's cells). */
    toolChoice?: ToolChoice;
    /** The "before" view of `elements` when the caller has it (it depends on no config). */
    before?: BeforeView;
  },
): { report: Report; plan: CompactionPlan } {
  const readings = options.readings ?? DEFAULT_READINGS;
  const plan = planCompactions(elements, config, options.now, readings, options.toolChoice);
  const views = buildViews(elements, plan.created.events, options.view, options.before, readings);
  const report = createReport(views.before, views.after, views.responseNames, options.counter);
  return { report, plan };
}

/**
 * The first error of the inputs, with where it is, for a message that says
 * why nothing was computed. `streamName` names the stream (a workspace
 * names each file, e.g. `broken.jsonl`).
 */
export function describeFirstProblem(
  streamDiagnostics: readonly Diagnostic[],
  configDiagnostics: readonly Diagnostic[],
  streamName = 'Event stream',
): string {
  for (const [where, diagnostics] of [
    [streamName, streamDiagnostics],
    ['Config', configDiagnostics],
  ] as const) {
    const problem = diagnostics.find((d) => d.severity === 'error');
    if (problem)
      return `${where} line ${problem.line}, column ${problem.column}: ${problem.message}`;
  }
  return 'The input has errors.';
}
