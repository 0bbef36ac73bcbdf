/**
 * What a workspace worker computes, as a handlers object over the core: the
 * pool role (`analyze`: one conversation's report and hint table, counted
 * with a fresh token cache and forgotten afterwards) and the session role
 * (the hint tables held, hint edits and recommendations answered from them).
 * `workspace-worker.ts` serves it; tests run it in-thread. Its type,
 * `WorkspaceApi`, is what the page's pool may call.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */

import {
  analyzeConversation,
  areHintsSeparable,
  getReportFromHintTable,
  type HintTable,
  type HintTableSettings,
  readConversationTitle,
} from '../../core/analyses/hint-table.ts';
import {
  type Recommendation,
  recommendHints,
  renderHintsToml,
} from '../../core/analyses/recommend.ts';
import { getWhatIfGrid, prepareWhatIf } from '../../core/analyses/what-if.ts';
import { withReadings } from '../../core/compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../../core/config/config.ts';
import { resolveConfigInForce } from '../../core/config/in-force.ts';
import type { JpBase } from '../../core/config/jp-base.ts';
import { addReports, getToolRowKey, type Report } from '../../core/counting/report.ts';
import { loadTokenCounter } from '../../core/counting/tokens.ts';
import { capTitle } from '../../core/import/builder.ts';
import { readSubagentDescription } from '../../core/import/sessions.ts';
import { setOwn } from '../../core/json/values.ts';
import { describeFirstProblem } from '../../core/playground/pipeline.ts';
import { compareToolInfo, getToolHintInfo } from '../../core/playground/tool-info.ts';
import type { ToolHintInfo } from '../../core/playground/types.ts';
import {
  type ConversationMoney,
  type FolderMoney,
  sumFolderMoney,
} from '../../core/replay/folder-money.ts';
import type { ReplayPricing } from '../../core/replay/pane-replay.ts';
import type {
  AnalyzedConversation,
  ConversationFigures,
  ConversationFiles,
  PricedWorkspaceConversation,
  WorkspaceEvaluation,
  WorkspaceSettings,
} from '../shared/workspace-protocol.ts';

/** The config's first error as a sentence, or undefined when it has none. */
function configError(config: ParsedConfig): string | undefined {
  return config.diagnostics.some((d) => d.severity === 'error')
    ? describeFirstProblem([], config.diagnostics)
    : undefined;
}

/** The settings a hint table is keyed by: a change of reading makes every table stale. */
function hintSettings(settings: WorkspaceSettings): HintTableSettings {
  return {
    now: settings.now,
    view: settings.view,
    tokenizer: settings.tokenizer,
    readings: withReadings(settings.readings),
  };
}

/** What a conversation's real report is keyed by: the exact config text and settings. */
function reportKeyOf(settings: WorkspaceSettings): string {
  return JSON.stringify(settings);
}

function figuresOf(report: Report): ConversationFigures {
  const tools: ConversationFigures['tools'] = {};
  for (const row of report.tools) {
    setOwn(tools, getToolRowKey(row.name), { calls: row.calls, saved: row.saved.tokens });
  }
  return { before: report.totals.before.tokens, after: report.totals.after.tokens, tools };
}

/**
 * The hint in force for each tool, from the first table (in workspace order)
 * that calls it: config_deltas differ between conversations, as the
 * recommendations' "current hint" does.
 */
function toolInfoOf(tables: readonly HintTable[], config: ParsedConfig, report: Report) {
  const calls = new Map(report.tools.map((row) => [row.name, row.calls]));
  const seen = new Map<string, ToolHintInfo>();
  for (const table of tables) {
    const inForce = resolveConfigInForce(config.config, table.deltaTools, table.toolNames);
    for (const name of table.toolNames) {
      if (seen.has(name)) continue;
      seen.set(name, getToolHintInfo(name, calls.get(name) ?? 0, inForce));
    }
  }
  return [...seen.values()].sort(compareToolInfo);
}

/**
 * A worker's state and its answers: the parsed config (cached by text), the
 * tables held, and the editor's conversation while its text is the same.
 */
export function createWorkspaceHandlers() {
  let configCache: { text: string; base: JpBase; parsed: ParsedConfig } | undefined;

  /** The config as the chosen base reads it (15.4: the table form and `-N` depend on it). */
  function parseConfig(settings: WorkspaceSettings): ParsedConfig {
    const text = settings.configText;
    const base = withReadings(settings.readings).base;
    if (configCache?.text !== text || configCache.base !== base) {
      configCache = { text, base, parsed: parseConfigToml(text, base) };
    }
    return configCache.parsed;
  }

  // ---------------------------------------------------------------- pool role

  async function analyze(
    files: ConversationFiles,
    settings: WorkspaceSettings,
  ): Promise<AnalyzedConversation> {
    const kind = files.kind ?? 'jp-events';
    const metadataText = files.metadata ? await files.metadata.text() : undefined;
    // JP keeps the title in metadata.json; a subagent's .meta.json describes its task.
    let title: string | null = null;
    if (metadataText !== undefined) {
      const read =
        kind === 'subagent'
          ? readSubagentDescription(metadataText)
          : readConversationTitle(metadataText);
      title = read === undefined ? null : capTitle(read);
    }
    const config = parseConfig(settings);
    const invalid = configError(config);
    if (invalid) return { index: files.index, ok: false, title, message: invalid };
    // A fresh counter per conversation: its cache holds every counted string,
    // and nothing is gained by keeping one conversation's strings for the next.
    const counter = await loadTokenCounter(settings.tokenizer);
    const analysis = analyzeConversation(await files.events.text(), config, {
      now: settings.now,
      view: settings.view,
      counter,
      encoding: settings.encoding,
      readings: withReadings(settings.readings),
      ...(files.agent !== undefined ? { agent: files.agent } : {}),
    });
    if (!analysis.ok) {
      return {
        index: files.index,
        ok: false,
        title,
        message: describeFirstProblem(analysis.diagnostics, [], files.name ?? 'events.json'),
      };
    }
    return {
      index: files.index,
      ok: true,
      // A subagent's file is named from its .meta.json; a session without metadata, or an
      // inline subagent, by its first user message.
      title:
        kind === 'subagent' && files.agent === undefined
          ? title
          : (title ?? analysis.title ?? null),
      report: analysis.report,
      figures: figuresOf(analysis.report),
      tools: toolInfoOf([analysis.table], config, analysis.report),
      table: analysis.table,
      // Only a session's own import lists its subagents (a subagent's lists the others).
      ...(files.agent === undefined && analysis.subagents !== undefined
        ? { subagents: analysis.subagents }
        : {}),
      reportFor: reportKeyOf(settings),
    };
  }

  /**
   * One conversation in money (the Cost section, asked once the figures are
   * in): read again, replayed, forgotten. `name` is the page's title for it.
   */
  async function price(
    files: ConversationFiles,
    name: string,
    settings: WorkspaceSettings,
    pricing: ReplayPricing,
  ): Promise<PricedWorkspaceConversation> {
    const config = parseConfig(settings);
    const invalid = configError(config);
    if (invalid) return { index: files.index, ok: false, message: invalid };
    // The replay is a chunk of its own: a worker that only counts never loads it.
    const { priceFiles } = await import('./workspace-price.ts');
    return priceFiles(files, name, settings, config, pricing);
  }

  // ---------------------------------------------------------------- session role

  /** Each conversation's hint table, and its real report for the settings it was counted under. */
  const held = new Map<number, { table: HintTable; report: Report; reportFor: string }>();

  /**
   * A conversation's report under `settings`: from its table when each
   * tool's figures are its own; else (reading 13.1 "apply") only the real
   * report counted for exactly these settings, and undefined for any other
   * (a hint edit then counts the folder again; the recount holds reports
   * keyed by the new settings, so the next evaluation answers).
   */
  function reportOf(
    entry: { table: HintTable; report: Report; reportFor: string },
    config: ParsedConfig,
    settings: WorkspaceSettings,
  ): Report | undefined {
    const hints = hintSettings(settings);
    if (areHintsSeparable(hints.readings))
      return getReportFromHintTable(entry.table, config, hints);
    return entry.reportFor === reportKeyOf(settings) ? entry.report : undefined;
  }

  function evaluate(settings: WorkspaceSettings): WorkspaceEvaluation {
    const config = parseConfig(settings);
    const invalid = configError(config);
    if (invalid) return { status: 'invalid', message: invalid };
    const hints = hintSettings(settings);
    const entries = [...held.entries()].sort(([a], [b]) => a - b);
    const reports: Report[] = [];
    const conversations: { index: number; figures: ConversationFigures }[] = [];
    for (const [index, entry] of entries) {
      const report = reportOf(entry, config, settings);
      if (!report) return { status: 'stale' };
      reports.push(report);
      conversations.push({ index, figures: figuresOf(report) });
    }
    const report = addReports(reports, settings.tokenizer);
    const ordered = entries.map(([, entry]) => entry.table);
    const recommendations = ordered.length > 0 ? recommendHints(ordered, config, hints) : null;
    return {
      status: 'ok',
      report,
      tools: toolInfoOf(ordered, config, report),
      conversations,
      recommendations,
      // The grid's cells need a pass per tool and choice over the streams,
      // which the session does not hold, when hints interact.
      whatIf:
        recommendations && areHintsSeparable(hints.readings)
          ? getWhatIfGrid(
              ordered,
              config,
              hints,
              prepareWhatIf(ordered, config, hints, recommendations),
            )
          : null,
    };
  }

  // ---------------------------------------------------------------- handlers

  return {
    analyze,
    price,
    /** The folder's days and total from its conversations' rows (`replay --by-conversation`'s sum). */
    sumMoney(rows: ConversationMoney[]): FolderMoney {
      return sumFolderMoney(rows);
    },
    /** Holds a conversation's hint table (and real report) for the hint edits to come. */
    hold(index: number, analyzed: { table: HintTable; report: Report; reportFor: string }): null {
      held.set(index, {
        table: analyzed.table,
        report: analyzed.report,
        reportFor: analyzed.reportFor,
      });
      return null;
    },
    /** Forgets every table held. */
    clear(): null {
      held.clear();
      return null;
    },
    evaluate,
    /** The config text with these hints set, as TOML. */
    renderHints(recommendations: Recommendation[], configText: string): string {
      return renderHintsToml(recommendations, configText);
    },
  };
}

/** What the page may ask a workspace worker: its handlers, method by method. */
export type WorkspaceApi = ReturnType<typeof createWorkspaceHandlers>;
