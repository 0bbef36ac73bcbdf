/**
 * Hint recommendations: from the measured size of each tool's requests and
 * responses over one or many conversations, a D17 hint per tool with the
 * reason, and the saving measured by running the pipeline with the hint
 * applied (never estimated).
 *
 * The rules look at sizes only (tokens per call, averaged over every call of
 * the tool) and at how repetitive a tool's answers are; they never guess from
 * a tool's name. Boundary: pure TypeScript, no DOM.
 */

import type { ParsedConfig } from '../config/config.ts';
import { formatTomlKey } from '../config/toml-locator.ts';
import { mergeToolLayers, TOOL_HINT_KEY } from '../config/tool-hints.ts';
import { removesResults } from '../counting/drawn-on.ts';
import { formatCount } from '../counting/format.ts';
import { type Amount, addReports, type Report, type ToolRow } from '../counting/report.ts';
import type { TokenizerId } from '../counting/tokens.ts';
import { compareCodePoints, getOwn, setOwn } from '../json/values.ts';
import { reportStream } from '../playground/pipeline.ts';
import type { JsonObject, StreamElement, ToolHint } from '../types.ts';
import {
  assembleReport,
  createHintTable,
  type DrawnOnCount,
  getHintChoices,
  getReportFromHintTable,
  HINT_CHOICES,
  type HintChoice,
  type HintTable,
  type HintTableOptions,
  type HintTableSettings,
  mergeRepeats,
  type RepeatedResponse,
} from './hint-table.ts';
import { suggestThresholds, type ThresholdSuggestion } from './threshold-suggestion.ts';

/**
 * A side (requests or responses) averaging at least this many tokens per
 * call is "large" and worth stripping. Below it a side is about a sentence:
 * a path, a pattern, a status. Stripping saves little per call (a stripped
 * response still costs the ~10-token line `[compacted] <name>: success`),
 * while such short text is what later turns tend to refer back to.
 */
export const LARGE_SIDE_TOKENS_PER_CALL = 50;

/**
 * `omit` is suggested only for tools called at least this often: a pattern
 * of tiny, repetitive calls is established, and the saving adds up. A tool
 * called a few times is left alone; omitting it saves next to nothing.
 */
export const OMIT_MIN_CALLS = 10;

/** `omit` needs calls this small, request and response together (tokens per call on average). */
export const OMIT_MAX_TOKENS_PER_CALL = 24;

/**
 * `omit` needs at least this share of the calls to have answered the very
 * same text: such answers tell the model nothing beyond "it ran".
 */
export const OMIT_MIN_REPEAT_SHARE = 0.8;

/** Shown with every set of recommendations, in the UI and the CLI. */
export const RECOMMENDATION_NOTE =
  'A saving in tokens is not a judgment of what the model still needs: these hints follow the sizes measured in these conversations, so check that later turns do not rely on what a hint strips or omits before you apply it.';

/** One tool's suggested hint. */
export interface Recommendation {
  tool: string;
  hint: ToolHint;
  /** Why, with the figures behind it. */
  reason: string;
  /** Requests of the tool over all conversations. */
  calls: number;
  /** Tokens of its requests and responses without any compaction. */
  requestTokens: number;
  responseTokens: number;
  /** The tool's saving (before − after) with this hint applied, as the report will show it. */
  expectedSaved: Amount;
  /** The hint in force now (own, `'*'` or a config_delta's), or null when it inherits the rule's. */
  currentHint: ToolHint | null;
  /** The tool's saving under the config as it is. */
  currentSaved: Amount;
  /**
   * Its results over all conversations, and those the model drew on later
   * (quoted or named afterwards: a heuristic, counting/drawn-on.ts); the
   * reason warns when the hint takes out such results.
   */
  drawnOnLater: DrawnOnCount;
}

/** Recommendations for one or more conversations. */
export interface HintRecommendations {
  tokenizer: TokenizerId;
  /** One per tool the conversations call, sorted by tool name. */
  recommendations: Recommendation[];
  /** Every provider-visible payload with all recommendations applied together. */
  total: { before: Amount; after: Amount; saved: Amount };
  /** `RECOMMENDATION_NOTE`. */
  note: string;
  /**
   * Rule thresholds (`over`, JP main only) for tools whose responses split
   * into a few large and many small ones, each with its measured saving;
   * absent where the conversations are not in memory (the workspace's tables).
   */
  thresholds?: ThresholdSuggestion[];
}

/** What the rules read about one tool. */
export interface ToolUsage {
  tool: string;
  calls: number;
  requestTokens: number;
  responseTokens: number;
  /** The tool's measured saving under each hint choice. */
  saved: Record<HintChoice, Amount>;
  /** Its most common short response, if any. */
  repeat?: RepeatedResponse;
}

const number = (n: number) => formatCount(Math.round(n));
const tokens = (n: number) => `${number(n)} token${Math.round(n) === 1 ? '' : 's'}`;

/** A short quote of a response for a reason. */
function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 57)}...` : line);
}

/** Suggests a hint for one tool, with the reason. Deterministic; thresholds are the constants above. */
export function chooseHint(usage: ToolUsage): { hint: ToolHint; reason: string } {
  const calls = Math.max(usage.calls, 1);
  const perRequest = usage.requestTokens / calls;
  const perResponse = usage.responseTokens / calls;
  const gain = (choice: HintChoice) => usage.saved[choice].tokens - usage.saved.keep.tokens;
  // Omit drops every call in a compacted turn; when even that changes nothing, no call is in one.
  const noneCompacted = gain('omit') === 0;
  const saves = (choice: HintChoice) =>
    noneCompacted
      ? 'would save tokens once its calls fall in compacted turns; under these rules none does yet, so it saves nothing now'
      : `saves ${tokens(gain(choice))} in compacted turns`;
  // A large side is stripped only where stripping it measurably pays.
  const large = (side: 'strip-requests' | 'strip-responses', perCall: number) =>
    perCall >= LARGE_SIDE_TOKENS_PER_CALL && (noneCompacted || gain(side) > 0);
  const largeRequests = large('strip-requests', perRequest);
  const largeResponses = large('strip-responses', perResponse);
  const sizes = `requests ${tokens(perRequest)} a call, responses ${tokens(perResponse)}`;

  if (largeRequests && largeResponses) {
    return {
      hint: 'strip',
      reason: `Both sides are large (${sizes}): stripping both ${saves('strip')}.`,
    };
  }
  if (largeResponses) {
    return {
      hint: 'strip-responses',
      reason: `Responses are large and requests small (${sizes}): stripping responses ${saves('strip-responses')}, and the model still sees what each call asked for.`,
    };
  }
  if (largeRequests) {
    return {
      hint: 'strip-requests',
      reason: `Requests are large and responses small (${sizes}): stripping requests ${saves('strip-requests')}, and the short results stay, so the model still sees what each call did.`,
    };
  }
  const repeat = usage.repeat;
  if (
    usage.calls >= OMIT_MIN_CALLS &&
    perRequest + perResponse <= OMIT_MAX_TOKENS_PER_CALL &&
    repeat !== undefined &&
    repeat.count >= OMIT_MIN_REPEAT_SHARE * usage.calls &&
    gain('omit') > 0
  ) {
    return {
      hint: 'omit',
      reason: `Its ${number(usage.calls)} calls are tiny (${tokens(perRequest + perResponse)} a call) and ${number(repeat.count)} of them answered the same ${quote(repeat.text)}, which tells the model little beyond that the tool ran: omitting them ${saves('omit')}. Choose keep instead if later turns need to know these calls happened.`,
    };
  }
  const stripGain = gain('strip');
  const stripping = noneCompacted
    ? 'none of its calls is in a compacted turn under these rules, so no hint changes anything yet'
    : stripGain < 0
      ? `stripping both would cost ${tokens(-stripGain)}, because the line "[compacted] ${usage.tool}: success" is longer than its responses`
      : `stripping both would save only ${tokens(stripGain)}`;
  return {
    hint: 'keep',
    reason: `Both sides are small (${sizes}): ${stripping}. Keeping them costs little and keeps what they said.`,
  };
}

const zero = (): Amount => ({ tokens: 0, chars: 0 });

/**
 * Recommendations from conversations' hint tables (the pool's path): the
 * savings are the figures of the pipeline passes in the tables. Every table
 * must hold figures for `config`'s rules and `settings`.
 */
export function recommendHints(
  tables: readonly HintTable[],
  config: ParsedConfig,
  settings: HintTableSettings,
): HintRecommendations {
  const current = tables.map((table) => {
    const report = getReportFromHintTable(table, config, settings);
    if (!report) throw new Error('a hint table was computed for other rules or settings');
    return report;
  });
  const byChoice = Object.fromEntries(
    HINT_CHOICES.map((choice) => [
      choice,
      addReports(
        tables.map((table) => table.reports[choice]),
        settings.tokenizer,
      ),
    ]),
  ) as Record<HintChoice, Report>;
  const currentTotal = addReports(current, settings.tokenizer);
  const repeats = mergeRepeats(tables);

  const currentHints = new Map<string, HintChoice>();
  for (const table of tables) {
    for (const [tool, choice] of Object.entries(getHintChoices(table, config, settings.readings))) {
      if (!currentHints.has(tool)) currentHints.set(tool, choice);
    }
  }

  // One index per report: a search of the rows per tool would be quadratic in the tool count.
  const indexes = new Map<Report, Map<string | null, ToolRow>>();
  const rowOf = (report: Report, tool: string) => {
    let index = indexes.get(report);
    if (!index) {
      index = new Map(report.tools.map((row) => [row.name, row]));
      indexes.set(report, index);
    }
    return index.get(tool);
  };
  const recommendations: Recommendation[] = [];
  for (const row of byChoice.inherit.tools) {
    const tool = row.name;
    // The orphan row has no tool to give a hint to.
    if (tool === null) continue;
    const saved = {} as Record<HintChoice, Amount>;
    for (const choice of HINT_CHOICES) {
      saved[choice] = { ...(rowOf(byChoice[choice], tool)?.saved ?? zero()) };
    }
    const usage: ToolUsage = {
      tool,
      calls: row.calls,
      requestTokens: row.request.before.tokens,
      responseTokens: row.response.before.tokens,
      saved,
    };
    const repeat = getOwn(repeats, tool);
    if (repeat) usage.repeat = repeat;
    const chosen = chooseHint(usage);
    const currentHint = currentHints.get(tool) ?? 'inherit';
    const currentSaved = { ...(rowOf(currentTotal, tool)?.saved ?? zero()) };
    const { hint, reason } = keepExplicitHint(chosen, currentHint, saved, currentSaved);
    const drawnOnLater = sumDrawnOn(tables, tool);
    recommendations.push({
      tool,
      hint,
      reason: `${reason}${describeDrawnOnRisk(hint, drawnOnLater)}`,
      calls: row.calls,
      requestTokens: usage.requestTokens,
      responseTokens: usage.responseTokens,
      expectedSaved: { ...saved[hint] },
      currentHint: currentHint === 'inherit' ? null : currentHint,
      currentSaved,
      drawnOnLater,
    });
  }
  recommendations.sort((a, b) => compareCodePoints(a.tool, b.tool));

  const hints = new Map(recommendations.map((rec) => [rec.tool, rec.hint]));
  const applied = addReports(
    tables.map((table) => {
      const choices = getHintChoices(table, config, settings.readings);
      return assembleReport(table, (tool) => hints.get(tool) ?? getOwn(choices, tool) ?? 'inherit');
    }),
    settings.tokenizer,
  );
  return {
    tokenizer: settings.tokenizer,
    recommendations,
    total: {
      before: { ...applied.totals.before },
      after: { ...applied.totals.after },
      saved: { ...applied.totals.saved },
    },
    note: RECOMMENDATION_NOTE,
  };
}

/** A tool's results and those drawn on later, over every conversation's table. */
function sumDrawnOn(tables: readonly HintTable[], tool: string): DrawnOnCount {
  const sum = { results: 0, drawn: 0 };
  for (const table of tables) {
    const count = table.drawnOn.get(tool);
    if (!count) continue;
    sum.results += count.results;
    sum.drawn += count.drawn;
  }
  return sum;
}

/**
 * The warning a recommendation carries when its hint takes out results the
 * model drew on later (issue 41: no suggestion removes them unsaid).
 */
function describeDrawnOnRisk(hint: ToolHint, drawn: DrawnOnCount): string {
  if (drawn.drawn === 0 || removesResults(hint) === false) return '';
  return ` Warning: the model drew on ${formatCount(drawn.drawn)} of its ${formatCount(drawn.results)} results later (quoted or named what they held: a heuristic), which ${hint} takes out.`;
}

/**
 * A hint the user chose (own, `'*'` or a config_delta's) is not overruled
 * by one that the measurement does not favour: the sizes alone suggest
 * `keep` for a tool the config omits on purpose, and that alone is no reason.
 * The explicit hint stays, and the reason says what the other would do.
 */
function keepExplicitHint(
  chosen: { hint: ToolHint; reason: string },
  current: HintChoice,
  saved: Record<HintChoice, Amount>,
  currentSaved: Amount,
): { hint: ToolHint; reason: string } {
  if (current === 'inherit' || chosen.hint === current) return chosen;
  const more = saved[chosen.hint].tokens - currentSaved.tokens;
  if (more > 0) return chosen;
  const than = more === 0 ? 'no more than it' : `${tokens(-more)} fewer than it`;
  return {
    hint: current,
    reason: `Your hint ${current} stays: ${chosen.hint}, which the sizes alone suggest, would save ${than} here. (${chosen.reason})`,
  };
}

/**
 * Whether a suggestion is a recommendation at all: it changes the hint in
 * force, and the change moves the saving. One that saves exactly what the
 * hint in force saves (nothing is compacted yet, or both choices remove the
 * same) gets no ★, no tick and no line in the config.
 */
export function isRecommendation(
  rec: Pick<Recommendation, 'hint' | 'currentHint' | 'expectedSaved' | 'currentSaved'>,
): boolean {
  return rec.hint !== rec.currentHint && rec.expectedSaved.tokens !== rec.currentSaved.tokens;
}

/**
 * Whether a suggestion starts ticked: only when it saves at least as much as
 * the hint in force, so that applying the defaults never lowers the saving
 * the user is looking at. One that saves less is still shown, for what it
 * keeps, and left for the user to tick.
 */
export function isPreTicked(rec: Pick<Recommendation, 'expectedSaved' | 'currentSaved'>): boolean {
  return rec.expectedSaved.tokens >= rec.currentSaved.tokens;
}

/** The total saving in tokens now, and after applying some of the suggestions. */
export interface ApplyEffect {
  now: number;
  after: number;
}

/**
 * What applying `chosen` (tool names) would do to the total saving. A hint
 * changes only its own tool's calls, so each tool adds its own difference;
 * `total` is measured with every suggestion applied, and "now" is that less
 * every tool's difference.
 */
export function getApplyEffect(
  result: Pick<HintRecommendations, 'recommendations' | 'total'>,
  chosen: ReadonlySet<string>,
): ApplyEffect {
  let now = result.total.saved.tokens;
  let gained = 0;
  for (const rec of result.recommendations) {
    const difference = rec.expectedSaved.tokens - rec.currentSaved.tokens;
    now -= difference;
    if (chosen.has(rec.tool)) gained += difference;
  }
  return { now, after: now + gained };
}

/** The user's config with the recommended hints on top (per tool, as a TOML layer would). */
export function applyRecommendations(
  config: ParsedConfig,
  recommendations: readonly Pick<Recommendation, 'tool' | 'hint'>[],
): ParsedConfig {
  const layer: Record<string, JsonObject> = {};
  for (const rec of recommendations) setOwn(layer, rec.tool, { [TOOL_HINT_KEY]: rec.hint });
  return {
    config: { ...config.config, tools: mergeToolLayers([config.config.tools, layer]) },
    diagnostics: config.diagnostics,
  };
}

/**
 * Recommendations for conversations in memory (the single-stream path of
 * the UI and the CLI). The hints are chosen from hint tables; the savings
 * and the total are then measured by `reportStream` with a config that has
 * the user's rules and hints plus the recommended ones.
 */
export function recommendForStreams(
  streams: readonly (readonly StreamElement[])[],
  config: ParsedConfig,
  options: HintTableOptions,
): HintRecommendations {
  const settings: HintTableSettings = {
    now: options.now,
    view: options.view,
    tokenizer: options.counter.id,
  };
  if (options.readings !== undefined) settings.readings = options.readings;
  const tables = streams.map((elements) => createHintTable(elements, config, options));
  const chosen = recommendHints(tables, config, settings);
  const applied = applyRecommendations(config, chosen.recommendations);
  const measured = addReports(
    streams.map((elements) => reportStream(elements, applied, options).report),
    settings.tokenizer,
  );
  const savedOf = new Map(measured.tools.map((row) => [row.name, row.saved]));
  return {
    ...chosen,
    recommendations: chosen.recommendations.map((rec) => ({
      ...rec,
      expectedSaved: { ...(savedOf.get(rec.tool) ?? zero()) },
    })),
    total: {
      before: { ...measured.totals.before },
      after: { ...measured.totals.after },
      saved: { ...measured.totals.saved },
    },
    thresholds: suggestThresholds(streams, config, options),
  };
}

// --- TOML -------------------------------------------------------------------

/** The one writer of hints into TOML text (hint-toml.ts), re-exported for the callers that name it from here. */
export { type HintEdit, type HintEditOptions, renderHintsToml } from './hint-toml.ts';
/** A tool name as a TOML key (re-exported: the CLI and the what-if grid name it from here). */
export { formatTomlKey };
