/**
 * Many conversations at once: the pieces a pool of workers (Node
 * `worker_threads` in the benchmark, Web Workers in the browser) needs to
 * split a workspace, analyse each conversation once, and answer hint edits
 * without touching the streams again.
 *
 * The hint table is what makes a hint edit cheap at any size. A tool's rows
 * depend only on that tool's own policy (projection decides each tool event
 * from its name's policy alone, spec 11), so one pass per hint choice, with
 * every tool given that choice, yields every tool's figures under every
 * choice. A later config that changes only hints is then a lookup per tool;
 * the streams and token caches can be dropped, so memory stays bounded by
 * the largest conversation. A change of rules, "now", view or tokenizer
 * makes the table stale (`getReportFromHintTable` says so by returning
 * undefined) and needs a new pass.
 *
 * Boundary: pure TypeScript, no DOM. Every value here is plain data, so it
 * crosses `postMessage` unchanged.
 */

import { createCompactionEvents } from '../compaction/creation.ts';
import { DEFAULT_READINGS, getChangedReadings, type Readings } from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import {
  type ConfigInForce,
  getStreamConfigDeltaTools,
  resolveConfigInForce,
} from '../config/in-force.ts';
import { HINT_CHOICES, TOOL_HINT_KEY, toolHintToPolicy } from '../config/tool-hints.ts';
import { measureDrawnOnLater } from '../counting/drawn-on.ts';
import {
  type Amount,
  type BeforeAfter,
  createReport,
  PAYLOAD_GROUPS,
  type PayloadGroup,
  type Report,
  type ToolRow,
} from '../counting/report.ts';
import type { TokenCounter, TokenizerId } from '../counting/tokens.ts';
import { hasErrors } from '../diagnostics.ts';
import { createTitle } from '../import/builder.ts';
import { readAnyStream } from '../import/read-stream.ts';
import type { InlineSubagent } from '../import/types.ts';
import {
  compareCodePoints,
  getNonBlankString,
  getOwn,
  isJsonObject,
  parseJson,
  setOwn,
} from '../json/values.ts';
import {
  type BeforeView,
  buildBeforeView,
  buildViews,
  getStreamToolNames,
  planCompactions,
  reportStream,
} from '../playground/pipeline.ts';
import type { HintChoice, ViewMode } from '../playground/types.ts';
import { parseTimestamp } from '../stream/timestamp.ts';
import type {
  CompactionRule,
  Diagnostic,
  EncodingSetting,
  JsonObject,
  StreamElement,
  ToolCallPolicy,
} from '../types.ts';

export type { HintChoice } from '../playground/types.ts';
export { partitionBySize } from './partition-by-size.ts';
// Both live apart from the hint tables so the page's entry can use them
// without the pipeline (the workspace pool, the what-if and cost panes).
export { HINT_CHOICES };

/** Responses longer than this are never counted as repeats: only tiny answers can repeat usefully. */
export const REPEAT_TRACKED_CHARS = 200;

/** What a table was computed for, besides hints. */
export interface HintTableSettings {
  /** An explicit "now", or null for the default (spec 14.2). */
  now: string | null;
  view: ViewMode;
  tokenizer: TokenizerId;
  /** D17's readings (readings.ts); the rulings when absent. */
  readings?: Readonly<Readings>;
}

/** A tool's most common short response in one or more conversations. */
export interface RepeatedResponse {
  text: string;
  count: number;
}

/**
 * One conversation's figures under every hint choice of every tool it calls.
 * Plain data: it is what a pool worker sends back.
 */
export interface HintTable {
  /** The rules, now, view and tokenizer it holds figures for (opaque; compared as a whole). */
  key: string;
  /** The stream's `config_delta` tool layers, reduced to hints: enough to resolve a config's hints. */
  deltaTools: Record<string, JsonObject>[];
  /** Tools the stream calls, in first-call order. */
  toolNames: string[];
  /** The report with every tool the stream calls given that choice. */
  reports: Record<HintChoice, Report>;
  /** Per tool: its most common response of at most `REPEAT_TRACKED_CHARS` characters. */
  repeats: Record<string, RepeatedResponse>;
  /** Per tool: its results, and how many of them the model drew on later (counting/drawn-on.ts). */
  drawnOn: Map<string, DrawnOnCount>;
}

/** A tool's results and those the model drew on later, without the ids (a table crosses workers). */
export interface DrawnOnCount {
  results: number;
  drawn: number;
}

/** The result of analysing one conversation's text. */
export type ConversationAnalysis =
  | {
      ok: true;
      report: Report;
      table: HintTable;
      /** The first user message, shortened (JP keeps the real title in metadata.json). */
      title?: string;
      /** Subagents written into the session file, each a conversation of its own (`ImportResult.subagents`). */
      subagents?: InlineSubagent[];
    }
  | { ok: false; diagnostics: Diagnostic[] };

/** Settings plus the counter to count with. */
export interface HintTableOptions {
  now: string | null;
  view: ViewMode;
  counter: TokenCounter;
  readings?: Readonly<Readings>;
}

/**
 * True when every tool's figures depend on its own hint alone, the premise
 * of the hint tables. Reading 13.1 "apply" breaks it: a compaction that
 * carries any `tool_overrides` then enters the turn's tool-call contest, so
 * a hint on one tool can change which compaction decides another tool.
 * JP today reads no hints, so every choice is the rule's.
 */
export function areHintsSeparable(readings: Readonly<Readings> = DEFAULT_READINGS): boolean {
  return readings.noToolCalls !== 'apply' || readings.jp === 'today';
}

function getTableKey(rules: readonly CompactionRule[], settings: HintTableSettings): string {
  const readings = getChangedReadings(settings.readings ?? DEFAULT_READINGS);
  // TOML integers inside a summary table are bigints, which JSON cannot hold.
  return JSON.stringify(
    [rules, settings.now, settings.view, settings.tokenizer, readings],
    (_key, value) => (typeof value === 'bigint' ? `${value}n` : value),
  );
}

/** The config in force for a table's stream; reading 14.1 decides whether called tools count as configured. */
function resolveTableConfig(
  table: HintTable,
  config: ParsedConfig,
  readings: Readonly<Readings> | undefined,
): ConfigInForce {
  const names = readings?.star === 'configured-only' ? [] : table.toolNames;
  return resolveConfigInForce(config.config, table.deltaTools, names);
}

/** The config_delta tool layers with only what hint resolution reads. */
function reduceDeltaTools(elements: readonly StreamElement[]): Record<string, JsonObject>[] {
  return getStreamConfigDeltaTools(elements).map((layer) => {
    const reduced: Record<string, JsonObject> = {};
    for (const [name, fields] of Object.entries(layer)) {
      const hint = getOwn(fields, TOOL_HINT_KEY);
      setOwn(reduced, name, hint === undefined ? {} : { [TOOL_HINT_KEY]: hint });
    }
    return reduced;
  });
}

/** Adds one to `text`'s count under `name`. */
function countText(counts: Map<string, Map<string, number>>, name: string, text: string, by = 1) {
  let texts = counts.get(name);
  if (!texts) {
    texts = new Map();
    counts.set(name, texts);
  }
  texts.set(text, (texts.get(text) ?? 0) + by);
}

/** Per name, its most common text (ties: the smaller text, so the choice is deterministic). */
function pickMostCommon(
  counts: ReadonlyMap<string, ReadonlyMap<string, number>>,
): Record<string, RepeatedResponse> {
  const repeats: Record<string, RepeatedResponse> = {};
  for (const [name, texts] of counts) {
    let best: RepeatedResponse | undefined;
    for (const [text, count] of texts) {
      if (!best || count > best.count || (count === best.count && text < best.text)) {
        best = { text, count };
      }
    }
    if (best) setOwn(repeats, name, best);
  }
  return repeats;
}

/** Per tool, its most common short response in the "before" view. */
function findRepeats(before: BeforeView): Record<string, RepeatedResponse> {
  const counts = new Map<string, Map<string, number>>();
  for (const element of before.elements) {
    if (element.type !== 'tool_call_response' || typeof element.content !== 'string') continue;
    if (element.content.length > REPEAT_TRACKED_CHARS) continue;
    const name = before.responseNames.get(element);
    if (name !== undefined && name !== null) countText(counts, name, element.content);
  }
  return pickMostCommon(counts);
}

/**
 * Runs the pipeline once per hint choice (spec 10, 11, 14.4) and keeps every
 * tool's figures. Counting happens in the first pass; the others recount
 * only the few stripped texts, through the counter's cache.
 */
export function createHintTable(
  elements: readonly StreamElement[],
  config: ParsedConfig,
  options: HintTableOptions,
): HintTable {
  const readings = options.readings ?? DEFAULT_READINGS;
  const plan = planCompactions(elements, config, options.now, readings);
  const now = parseTimestamp(plan.now);
  if (now === undefined) throw new Error(`planCompactions gave an unreadable now: ${plan.now}`);
  const toolNames = getStreamToolNames(elements);
  const sortedNames = [...toolNames].sort(compareCodePoints);
  const before = buildBeforeView(elements, options.view, readings.base);
  const reports = {} as Record<HintChoice, Report>;
  for (const choice of HINT_CHOICES) {
    const toolOverrides: Record<string, ToolCallPolicy> = {};
    if (choice !== 'inherit') {
      const policy = toolHintToPolicy(choice);
      for (const name of sortedNames) {
        setOwn(toolOverrides, name, policy);
      }
    }
    const { events } = createCompactionEvents({
      elements,
      rules: plan.configInForce.rules,
      toolOverrides,
      now,
      readings,
    });
    const views = buildViews(elements, events, options.view, before, readings);
    reports[choice] = createReport(views.before, views.after, views.responseNames, options.counter);
  }
  return {
    key: getTableKey(plan.configInForce.rules, {
      ...options,
      tokenizer: options.counter.id,
      readings,
    }),
    deltaTools: reduceDeltaTools(elements),
    toolNames,
    reports,
    repeats: findRepeats(before),
    drawnOn: new Map(
      [...measureDrawnOnLater(elements)].map(([tool, { results, drawn }]) => [
        tool,
        { results, drawn },
      ]),
    ),
  };
}

/** The hint choice in force for each tool of a table's stream under `config`. */
export function getHintChoices(
  table: HintTable,
  config: ParsedConfig,
  readings?: Readonly<Readings>,
): Record<string, HintChoice> {
  return choicesInForce(table, resolveTableConfig(table, config, readings));
}

function choicesInForce(table: HintTable, inForce: ConfigInForce): Record<string, HintChoice> {
  const choices: Record<string, HintChoice> = {};
  for (const name of table.toolNames) {
    setOwn<HintChoice>(choices, name, getOwn(inForce.hintSources, name)?.hint ?? 'inherit');
  }
  return choices;
}

const zero = (): Amount => ({ tokens: 0, chars: 0 });
const copyPair = (pair: BeforeAfter): BeforeAfter => ({
  before: { ...pair.before },
  after: { ...pair.after },
});
const addInto = (into: Amount, amount: Amount) => {
  into.tokens += amount.tokens;
  into.chars += amount.chars;
};

/**
 * A conversation's report from its table: each tool's row as in the pass
 * of its hint choice under `config`. Undefined when the config's rules (or
 * the settings) differ from the table's: then the table is stale.
 */
export function getReportFromHintTable(
  table: HintTable,
  config: ParsedConfig,
  settings: HintTableSettings,
): Report | undefined {
  const inForce = resolveTableConfig(table, config, settings.readings);
  if (getTableKey(inForce.rules, settings) !== table.key) return undefined;
  const choices = choicesInForce(table, inForce);
  return assembleReport(table, (name) => getOwn(choices, name) ?? 'inherit');
}

/** A report with each tool's row taken from the pass of its choice. */
export function assembleReport(table: HintTable, choiceOf: (tool: string) => HintChoice): Report {
  const base = table.reports.inherit;
  const rowsByChoice = new Map<HintChoice, Map<string | null, ToolRow>>();
  const rowOf = (choice: HintChoice, name: string | null): ToolRow | undefined => {
    let rows = rowsByChoice.get(choice);
    if (!rows) {
      rows = new Map(table.reports[choice].tools.map((row) => [row.name, row]));
      rowsByChoice.set(choice, rows);
    }
    return rows.get(name);
  };
  const groups = {} as Record<PayloadGroup, BeforeAfter>;
  for (const group of PAYLOAD_GROUPS) groups[group] = copyPair(base.groups[group]);
  groups.toolRequests = { before: zero(), after: zero() };
  groups.toolResponses = { before: zero(), after: zero() };
  const tools = base.tools.map((baseRow) => {
    // The orphan row has no name to hint, so it is the same in every pass.
    const choice = baseRow.name === null ? 'inherit' : choiceOf(baseRow.name);
    const row = rowOf(choice, baseRow.name) ?? baseRow;
    const copy: ToolRow = {
      name: row.name,
      calls: row.calls,
      request: copyPair(row.request),
      response: copyPair(row.response),
      saved: { ...row.saved },
    };
    addInto(groups.toolRequests.before, copy.request.before);
    addInto(groups.toolRequests.after, copy.request.after);
    addInto(groups.toolResponses.before, copy.response.before);
    addInto(groups.toolResponses.after, copy.response.after);
    return copy;
  });
  const totals = { before: zero(), after: zero(), saved: zero() };
  for (const group of PAYLOAD_GROUPS) {
    addInto(totals.before, groups[group].before);
    addInto(totals.after, groups[group].after);
  }
  totals.saved = {
    tokens: totals.before.tokens - totals.after.tokens,
    chars: totals.before.chars - totals.after.chars,
  };
  return { tokenizer: base.tokenizer, tools, totals, groups };
}

/**
 * Reads and analyses one conversation's text (a JP `events.json` or any
 * transcript the importers read): the report under `config` and the hint
 * table, and an imported session's title. A stream with errors gives its
 * diagnostics instead (nothing downstream sees a malformed element).
 */
export function analyzeConversation(
  text: string,
  config: ParsedConfig,
  options: HintTableOptions & { encoding?: EncodingSetting; agent?: string },
): ConversationAnalysis {
  const base = (options.readings ?? DEFAULT_READINGS).base;
  const { parsed, imported } = readAnyStream(text, {
    encoding: options.encoding ?? 'auto',
    base,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  });
  if (!parsed.elements || hasErrors(parsed.diagnostics)) {
    return { ok: false, diagnostics: parsed.diagnostics };
  }
  // Files picked one by one carry no folder name and rarely a metadata.json,
  // so a JP stream is named like an imported session: by its first user message.
  const title = imported ? imported.title : firstUserTitle(parsed.elements);
  const table = createHintTable(parsed.elements, config, options);
  // Under a reading where hints interact, the table's rows cannot be
  // assembled into the real report: it takes a pass with the actual config.
  const report = areHintsSeparable(options.readings)
    ? (getReportFromHintTable(table, config, {
        now: options.now,
        view: options.view,
        tokenizer: options.counter.id,
        readings: options.readings,
      }) as Report)
    : reportStream(parsed.elements, config, options).report;
  return {
    ok: true,
    report,
    table,
    ...(title !== undefined ? { title } : {}),
    ...(imported?.subagents !== undefined ? { subagents: imported.subagents } : {}),
  };
}

/**
 * Merges the most common short responses of several conversations: counts
 * of the same text add up; the most common merged text wins. (A text that
 * was not the most common in some conversation is not counted there, so
 * the count is a lower bound.)
 */
export function mergeRepeats(
  tables: readonly Pick<HintTable, 'repeats'>[],
): Record<string, RepeatedResponse> {
  const sums = new Map<string, Map<string, number>>();
  for (const table of tables) {
    for (const [name, repeat] of Object.entries(table.repeats)) {
      countText(sums, name, repeat.text, repeat.count);
    }
  }
  return pickMostCommon(sums);
}

function firstUserTitle(elements: readonly StreamElement[]): string | undefined {
  for (const element of elements) {
    if (element.type === 'chat_request' && typeof element.content === 'string') {
      const title = createTitle(element.content);
      if (title !== undefined) return title;
    }
  }
  return undefined;
}

/**
 * The title in a conversation's `metadata.json` (spec 1.1), or undefined
 * when the text is not JSON, has no title, or its title is blank.
 */
export function readConversationTitle(metadataText: string): string | undefined {
  const metadata = parseJson(metadataText);
  return isJsonObject(metadata) ? getNonBlankString(metadata.title) : undefined;
}
