/**
 * The what-if grid: every tool's figures under each of its six hint choices
 * side by side, the choice in force, what the hints save beyond the rule's
 * uniform `tool_calls`, and the recommender's suggestion.
 *
 * Under the spec's rulings a tool's figures depend only on its own hint
 * (workspace.ts explains why), so the grid is read from hint tables: six
 * pipeline passes per rule or stream change, then a hint change is a lookup.
 * A reading that breaks that (`areHintsSeparable`) gets each cell from its
 * own report pass instead: six per tool, on every change. Nothing here
 * recomputes a policy. Boundary: pure TypeScript, no DOM; plain data throughout.
 */

import { DEFAULT_READINGS } from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import { formatCount, formatSavedTokens } from '../counting/format.ts';
import { type Amount, addReports, type Report } from '../counting/report.ts';
import type { TokenizerId } from '../counting/tokens.ts';
import { getOwn } from '../json/values.ts';
import { buildBeforeView, reportStream } from '../playground/pipeline.ts';
import type { WhatIfCell, WhatIfGrid, WhatIfRow } from '../playground/types.ts';
import type { StreamElement, ToolHint } from '../types.ts';
import {
  areHintsSeparable,
  createHintTable,
  getHintChoices,
  getReportFromHintTable,
  HINT_CHOICES,
  type HintChoice,
  type HintTable,
  type HintTableOptions,
  type HintTableSettings,
} from './hint-table.ts';
import {
  type HintRecommendations,
  isRecommendation,
  type Recommendation,
  recommendHints,
} from './recommend.ts';

export type { WhatIfCell, WhatIfGrid, WhatIfRow };

/** The `report --what-if --json` shape (issue 12). */
export interface WhatIfJson {
  tokenizer: TokenizerId;
  tools: { name: string; inForce: ToolHint | null; choices: Record<HintChoice, WhatIfCell> }[];
}

const minus = (a: Amount, b: Amount): Amount => ({
  tokens: a.tokens - b.tokens,
  chars: a.chars - b.chars,
});

/** A report's rows by tool name, built once: a lookup per cell keeps the grid linear in tools. */
type RowsByTool = ReadonlyMap<string, Report['tools'][number]>;

function indexRows(report: Report): RowsByTool {
  const rows = new Map<string, Report['tools'][number]>();
  for (const row of report.tools) if (row.name !== null) rows.set(row.name, row);
  return rows;
}

function cellOf(rows: RowsByTool, tool: string): WhatIfCell {
  const row = rows.get(tool);
  if (!row) return { after: { tokens: 0, chars: 0 }, saved: { tokens: 0, chars: 0 } };
  return {
    after: {
      tokens: row.request.after.tokens + row.response.after.tokens,
      chars: row.request.after.chars + row.response.after.chars,
    },
    saved: { ...row.saved },
  };
}

/** One tool's row: its cells, the choice in force, the pick, and what that choice saves beyond the rule. */
function toRow(
  name: string,
  calls: number,
  choices: Record<HintChoice, WhatIfCell>,
  inForce: HintChoice = 'inherit',
  suggested: ToolHint | undefined = undefined,
): WhatIfRow {
  return {
    name,
    calls,
    inForce: inForce === 'inherit' ? null : inForce,
    suggested: suggested ?? null,
    choices,
    beyondRule: minus(choices.inherit.after, choices[inForce].after),
  };
}

/**
 * Whether the grid stars a pick: a change that moves the saving, or the hint
 * in force when it saves something. A pick that saves nothing (no call is in
 * a compacted turn yet) is no recommendation, so it gets no ★.
 */
export function isStarred(
  rec: Pick<Recommendation, 'hint' | 'currentHint' | 'expectedSaved' | 'currentSaved'>,
): boolean {
  return isRecommendation(rec) || (rec.hint === rec.currentHint && rec.expectedSaved.tokens !== 0);
}

/** What a grid needs that no hint changes: each choice's sums and the recommender's picks. */
export interface WhatIfBase {
  byChoice: Record<HintChoice, Report>;
  suggestions: ReadonlyMap<string, ToolHint>;
}

/**
 * The hint-independent part of a grid, computed once per set of tables: the
 * recommender chooses from the measured sizes alone, never from the hints in
 * force, so its picks hold until the tables change.
 */
export function prepareWhatIf(
  tables: readonly HintTable[],
  config: ParsedConfig,
  settings: HintTableSettings,
  /** `recommendHints` of the same tables, when the caller has computed it already. */
  recommended?: HintRecommendations,
): WhatIfBase {
  const byChoice = {} as Record<HintChoice, Report>;
  for (const choice of HINT_CHOICES) {
    byChoice[choice] = addReports(
      tables.map((table) => table.reports[choice]),
      settings.tokenizer,
    );
  }
  const picks = recommended ?? recommendHints(tables, config, settings);
  return {
    byChoice,
    suggestions: new Map(
      picks.recommendations.filter(isStarred).map((rec) => [rec.tool, rec.hint]),
    ),
  };
}

/**
 * The grid over one or more conversations' tables (a workspace sums each
 * choice's figures over every conversation). Every table must hold figures
 * for `config`'s rules and `settings`; a stale table is an invariant
 * failure, as in `recommendHints`.
 */
export function getWhatIfGrid(
  tables: readonly HintTable[],
  config: ParsedConfig,
  settings: HintTableSettings,
  base: WhatIfBase = prepareWhatIf(tables, config, settings),
): WhatIfGrid {
  if (!areHintsSeparable(settings.readings)) {
    throw new Error('hint tables cannot answer under this reading: use getWhatIfGridOfStreams');
  }
  const { byChoice, suggestions } = base;
  const inForce = new Map<string, HintChoice>();
  const current = tables.map((table) => {
    for (const [tool, choice] of Object.entries(getHintChoices(table, config, settings.readings))) {
      if (!inForce.has(tool)) inForce.set(tool, choice);
    }
    const report = getReportFromHintTable(table, config, settings);
    if (!report) throw new Error('a hint table was computed for other rules or settings');
    return report;
  });
  const applied = addReports(current, settings.tokenizer);

  const tools: WhatIfRow[] = [];
  const rowsByChoice = {} as Record<HintChoice, RowsByTool>;
  for (const choice of HINT_CHOICES) rowsByChoice[choice] = indexRows(byChoice[choice]);
  for (const row of byChoice.inherit.tools) {
    // The orphan row (responses with no request) has no hint to choose.
    if (row.name === null) continue;
    const name = row.name;
    const choices = {} as Record<HintChoice, WhatIfCell>;
    for (const choice of HINT_CHOICES) choices[choice] = cellOf(rowsByChoice[choice], name);
    tools.push(toRow(name, row.calls, choices, inForce.get(name), suggestions.get(name)));
  }
  const ruleSaves = { ...byChoice.inherit.totals.saved };
  return {
    tokenizer: settings.tokenizer,
    tools,
    ruleSaves,
    hintsSaveMore: minus(applied.totals.saved, ruleSaves),
  };
}

/**
 * The grid of one or more streams, each cell from `reportStream` with that
 * one tool's hint replaced (the cell's definition in issue 12). Used when a
 * reading makes a tool's figures depend on other tools' hints, so that no
 * table lookup can give them. `inherit` here removes the tool's override
 * whatever set it, as the table's `inherit` pass does: the rule alone for
 * that tool, the other tools' hints kept.
 */
function getWhatIfGridByPasses(
  streams: readonly (readonly StreamElement[])[],
  config: ParsedConfig,
  options: HintTableOptions,
  tables: readonly HintTable[],
  settings: HintTableSettings,
): WhatIfGrid {
  const cells = new Map<string, Record<HintChoice, Report[]>>();
  const inForce = new Map<string, HintChoice>();
  const applied: Report[] = [];
  for (const elements of streams) {
    const before = buildBeforeView(elements, options.view, options.readings?.base);
    const pass = { ...options, before };
    const current = reportStream(elements, config, pass);
    applied.push(current.report);
    const sources = current.plan.configInForce.hintSources;
    for (const row of current.report.tools) {
      if (row.name === null) continue;
      const tool = row.name;
      if (!inForce.has(tool)) inForce.set(tool, getOwn(sources, tool)?.hint ?? 'inherit');
      let perChoice = cells.get(tool);
      if (!perChoice) {
        perChoice = {} as Record<HintChoice, Report[]>;
        for (const choice of HINT_CHOICES) perChoice[choice] = [];
        cells.set(tool, perChoice);
      }
      for (const choice of HINT_CHOICES) {
        perChoice[choice].push(
          reportStream(elements, config, { ...pass, toolChoice: { tool, choice } }).report,
        );
      }
    }
  }
  const { suggestions } = prepareWhatIf(tables, config, settings);
  const total = addReports(applied, settings.tokenizer);
  const ruleSaves = addReports(
    tables.map((table) => table.reports.inherit),
    settings.tokenizer,
  ).totals.saved;
  const tools: WhatIfRow[] = [];
  for (const row of total.tools) {
    if (row.name === null) continue;
    const name = row.name;
    const perChoice = cells.get(name);
    if (!perChoice) continue;
    const choices = {} as Record<HintChoice, WhatIfCell>;
    for (const choice of HINT_CHOICES) {
      choices[choice] = cellOf(indexRows(addReports(perChoice[choice], settings.tokenizer)), name);
    }
    tools.push(toRow(name, row.calls, choices, inForce.get(name), suggestions.get(name)));
  }
  return {
    tokenizer: settings.tokenizer,
    tools,
    ruleSaves: { ...ruleSaves },
    hintsSaveMore: minus(total.totals.saved, ruleSaves),
  };
}

/**
 * The grid of one or more streams under `config`: from hint tables when the
 * readings keep each tool's figures its own, else from a report pass per cell.
 */
export function getWhatIfGridOfStreams(
  streams: readonly (readonly StreamElement[])[],
  config: ParsedConfig,
  options: HintTableOptions,
): WhatIfGrid {
  const settings = toSettings(options);
  const tables = streams.map((elements) => createHintTable(elements, config, options));
  if (areHintsSeparable(settings.readings)) return getWhatIfGrid(tables, config, settings);
  return getWhatIfGridByPasses(streams, config, options, tables, settings);
}

function toSettings(options: HintTableOptions): HintTableSettings {
  const settings: HintTableSettings = {
    now: options.now,
    view: options.view,
    tokenizer: options.counter.id,
  };
  if (options.readings !== undefined) settings.readings = options.readings;
  return settings;
}

/** The grid in the CLI's JSON shape. */
export function whatIfToJson(grid: WhatIfGrid): WhatIfJson {
  return {
    tokenizer: grid.tokenizer,
    tools: grid.tools.map((row) => ({
      name: row.name,
      inForce: row.inForce,
      choices: row.choices,
    })),
  };
}

/**
 * A cache of one stream's hint table for a long-lived session: the table is
 * rebuilt only when the stream, the rules or the settings change, so a hint
 * edit costs a lookup (the warm budget of issue 12). Under a reading that
 * breaks the lookup, every run recomputes the grid pass by pass.
 */
export function createWhatIfCache() {
  let cached:
    | { elements: readonly StreamElement[]; table: HintTable; base: WhatIfBase }
    | undefined;
  return {
    /** The grid of `elements` under `config`, rebuilding the table only when it is stale. */
    getGrid(
      elements: readonly StreamElement[],
      config: ParsedConfig,
      options: HintTableOptions,
    ): WhatIfGrid {
      const settings = toSettings(options);
      if (!areHintsSeparable(settings.readings ?? DEFAULT_READINGS)) {
        return getWhatIfGridOfStreams([elements], config, options);
      }
      const fresh =
        cached !== undefined &&
        cached.elements === elements &&
        getReportFromHintTable(cached.table, config, settings) !== undefined;
      if (!fresh || cached === undefined) {
        const table = createHintTable(elements, config, options);
        cached = { elements, table, base: prepareWhatIf([table], config, settings) };
      }
      return getWhatIfGrid([cached.table], config, settings, cached.base);
    },
  };
}

/** The headline: "the rule alone saves X; your hints save Y more" (or give some back). */
export function getWhatIfHeadline(grid: Pick<WhatIfGrid, 'ruleSaves' | 'hintsSaveMore'>): string {
  const rule = `The rule alone ${formatSavedTokens(grid.ruleSaves.tokens, 'present')}`;
  const more = grid.hintsSaveMore.tokens;
  if (more === 0) return `${rule}; your hints save nothing more.`;
  if (more > 0) return `${rule}; your hints save ${formatCount(more)} more.`;
  return `${rule}; your hints give ${formatCount(-more)} of them back.`;
}
