/** The readable `report` and `recommend` tables. */

import { type HintRecommendations, isRecommendation } from '../core/analyses/recommend.ts';
import { formatCount, formatPercent, formatSavedTokens } from '../core/counting/format.ts';
import {
  getToolRowLabel,
  PAYLOAD_GROUPS,
  type PayloadGroup,
  type Report,
  savedPercent,
} from '../core/counting/report.ts';
import { TOKENIZER_LABELS } from '../core/counting/tokens.ts';
import { escapeForTerminal, escapeLines } from './terminal.ts';

const GROUP_NAMES: Record<PayloadGroup, string> = {
  toolRequests: 'tool requests',
  toolResponses: 'tool responses',
  reasoning: 'reasoning',
  messages: 'messages',
};

const percent = (saved: number, before: number) => formatPercent(savedPercent(saved, before));

/**
 * Columns padded to their widest cell: text columns (the first, and
 * `textColumns`) to the left. Cells are escaped here, so a tool name or title
 * from the data cannot steer the terminal.
 */
function table(cells: string[][], textColumns: readonly number[] = []): string {
  const rows = cells.map((row) => row.map(escapeForTerminal));
  // A loop, not Math.max(...): spreading 100,000 rows into arguments overflows the stack.
  const widths = (rows[0] ?? []).map((_, column) => {
    let width = 0;
    for (const row of rows) width = Math.max(width, (row[column] ?? '').length);
    return width;
  });
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 || textColumns.includes(column)
            ? cell.padEnd(widths[column] ?? 0)
            : cell.padStart(widths[column] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The report as a terminal table, tokens with characters in the totals. */
export function formatReport(report: Report, fileCount: number): string {
  const rows = [
    ['tool', 'calls', 'request before→after', 'response before→after', 'saved', 'saved %'],
    ...report.tools.map((row) => [
      getToolRowLabel(row.name),
      formatCount(row.calls),
      `${formatCount(row.request.before.tokens)} → ${formatCount(row.request.after.tokens)}`,
      `${formatCount(row.response.before.tokens)} → ${formatCount(row.response.after.tokens)}`,
      formatCount(row.saved.tokens),
      percent(row.saved.tokens, row.request.before.tokens + row.response.before.tokens),
    ]),
  ];
  const totals = [
    ['totals', 'before', 'after', 'saved', 'saved %'],
    ...PAYLOAD_GROUPS.map((group) => {
      const { before, after } = report.groups[group];
      return [
        GROUP_NAMES[group],
        formatCount(before.tokens),
        formatCount(after.tokens),
        formatCount(before.tokens - after.tokens),
        percent(before.tokens - after.tokens, before.tokens),
      ];
    }),
    [
      'all (tokens)',
      formatCount(report.totals.before.tokens),
      formatCount(report.totals.after.tokens),
      formatCount(report.totals.saved.tokens),
      percent(report.totals.saved.tokens, report.totals.before.tokens),
    ],
    [
      'all (characters)',
      formatCount(report.totals.before.chars),
      formatCount(report.totals.after.chars),
      formatCount(report.totals.saved.chars),
      percent(report.totals.saved.chars, report.totals.before.chars),
    ],
  ];
  const files = fileCount === 1 ? '1 conversation' : `${fileCount} conversations`;
  return `${table(rows)}\n\n${table(totals)}\n\nTokens: ${TOKENIZER_LABELS[report.tokenizer]}, over ${files}. Counted: message and reasoning text, tool arguments and response content; not ids, names, metadata or provider framing. Figures for Claude models are approximate.\n`;
}

/** A conversation of `report --by-conversation`: its report, or why it could not be read. */
export type ConversationLine = { name: string; report: Report } | { name: string; error: string };

/**
 * One line per conversation: its name, tool calls, and all tokens before,
 * after and saved. A file that could not be read is a line too, with its
 * error in a last column, so a folder's bad file shows where it is.
 */
export function formatConversations(conversations: readonly ConversationLine[]): string {
  const failed = conversations.some((entry) => 'error' in entry);
  const header = ['conversation', 'tool calls', 'before', 'after', 'saved', 'saved %'];
  const rows = [
    failed ? [...header, 'not read'] : header,
    ...conversations.map((entry) => {
      if ('error' in entry) return [entry.name, '–', '–', '–', '–', '–', entry.error];
      const { report } = entry;
      return [
        entry.name,
        formatCount(report.tools.reduce((sum, row) => sum + row.calls, 0)),
        formatCount(report.totals.before.tokens),
        formatCount(report.totals.after.tokens),
        formatCount(report.totals.saved.tokens),
        percent(report.totals.saved.tokens, report.totals.before.tokens),
      ];
    }),
  ];
  return table(rows, [6]);
}

/** Recommendations as a table, the reasons, the total, the config with them applied, and the note. */
export function formatRecommendations(
  result: HintRecommendations,
  options: { configPath: string; configText: string; fileCount: number },
): string {
  const rows = [
    ['tool', 'calls', 'request', 'response', 'hint now', 'suggested', 'saved now → with it'],
    ...result.recommendations.map((rec) => [
      getToolRowLabel(rec.tool),
      formatCount(rec.calls),
      formatCount(rec.requestTokens),
      formatCount(rec.responseTokens),
      rec.currentHint ?? '(rule)',
      rec.hint === rec.currentHint
        ? `${rec.hint} (as now)`
        : isRecommendation(rec)
          ? rec.hint
          : `${rec.hint} (saves nothing more)`,
      `${formatCount(rec.currentSaved.tokens)} → ${formatCount(rec.expectedSaved.tokens)}`,
    ]),
  ];
  const reasons = result.recommendations
    .map(
      (rec) =>
        `  ${escapeForTerminal(getToolRowLabel(rec.tool))}: ${escapeForTerminal(rec.reason)}`,
    )
    .join('\n');
  const { before, after, saved } = result.total;
  const files = options.fileCount === 1 ? '1 conversation' : `${options.fileCount} conversations`;
  const thresholds = (result.thresholds ?? []).map(
    (t) =>
      `  ${escapeForTerminal(getToolRowLabel(t.tool))}: ${escapeForTerminal(t.toolCalls)} on the rule. ${escapeForTerminal(t.reason)}`,
  );
  return [
    table(rows, [4, 5]),
    `Why:\n${reasons}`,
    ...(thresholds.length > 0 ? [`Size thresholds (JP main):\n${thresholds.join('\n')}`] : []),
    `With every suggestion applied: ${formatCount(before.tokens)} → ${formatCount(after.tokens)} tokens, ${formatSavedTokens(saved.tokens, 'past')} (${percent(Math.abs(saved.tokens), before.tokens)}${saved.tokens < 0 ? ' more' : ''}); ${formatCount(before.chars)} → ${formatCount(after.chars)} characters. Tokens: ${TOKENIZER_LABELS[result.tokenizer]}, over ${files}.`,
    `${escapeForTerminal(options.configPath)} with the suggestions applied:\n\n${escapeLines(options.configText.trimEnd())}`,
    `${result.note}\n`,
  ].join('\n\n');
}
