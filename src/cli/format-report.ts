/** The readable `report` table. */
import { PAYLOAD_GROUPS, type PayloadGroup, type Report, savedPercent } from '../core/report.ts';
import { TOKENIZER_LABELS } from '../core/tokens.ts';

const GROUP_NAMES: Record<PayloadGroup, string> = {
  toolRequests: 'tool requests',
  toolResponses: 'tool responses',
  reasoning: 'reasoning',
  messages: 'messages',
};

const number = (n: number) => n.toLocaleString('en-US');
const percent = (saved: number, before: number) => `${savedPercent(saved, before).toFixed(1)}%`;

function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
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
      row.name,
      number(row.calls),
      `${number(row.request.before.tokens)} → ${number(row.request.after.tokens)}`,
      `${number(row.response.before.tokens)} → ${number(row.response.after.tokens)}`,
      number(row.saved.tokens),
      percent(row.saved.tokens, row.request.before.tokens + row.response.before.tokens),
    ]),
  ];
  const totals = [
    ['totals', 'before', 'after', 'saved', 'saved %'],
    ...PAYLOAD_GROUPS.map((group) => {
      const { before, after } = report.groups[group];
      return [
        GROUP_NAMES[group],
        number(before.tokens),
        number(after.tokens),
        number(before.tokens - after.tokens),
        percent(before.tokens - after.tokens, before.tokens),
      ];
    }),
    [
      'all (tokens)',
      number(report.totals.before.tokens),
      number(report.totals.after.tokens),
      number(report.totals.saved.tokens),
      percent(report.totals.saved.tokens, report.totals.before.tokens),
    ],
    [
      'all (characters)',
      number(report.totals.before.chars),
      number(report.totals.after.chars),
      number(report.totals.saved.chars),
      percent(report.totals.saved.chars, report.totals.before.chars),
    ],
  ];
  const files = fileCount === 1 ? '1 conversation' : `${fileCount} conversations`;
  return `${table(rows)}\n\n${table(totals)}\n\nTokens: ${TOKENIZER_LABELS[report.tokenizer]}, over ${files}. Counted: message and reasoning text, tool arguments and response content; not ids, names, metadata or provider framing. Figures for Claude models are approximate.\n`;
}
