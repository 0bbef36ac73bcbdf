/** The readable `report --what-if` grid. */

import { HINT_CHOICES } from '../core/analyses/hint-table.ts';
import { getWhatIfHeadline, type WhatIfGrid } from '../core/analyses/what-if.ts';
import { formatCount } from '../core/counting/format.ts';
import { getToolRowLabel } from '../core/counting/report.ts';
import { TOKENIZER_LABELS } from '../core/counting/tokens.ts';
import { escapeForTerminal } from './terminal.ts';

/** One line per tool: tokens after (saved) under each choice, `*` on the choice in force. */
export function formatWhatIf(
  grid: WhatIfGrid,
  fileCount: number,
  /** Under the reading jp=today: why the written hints (marked *) are not in force. */
  hintsIgnored?: string,
): string {
  const header = ['tool', 'calls', ...HINT_CHOICES, 'beyond rule', 'suggested'];
  const rows = grid.tools.map((row) => {
    const inForce = row.inForce ?? 'inherit';
    return [
      escapeForTerminal(getToolRowLabel(row.name)),
      formatCount(row.calls),
      ...HINT_CHOICES.map((choice) => {
        const cell = row.choices[choice];
        const mark = choice === inForce ? '*' : ' ';
        return `${formatCount(cell.after.tokens)} (${formatCount(cell.saved.tokens)})${mark}`;
      }),
      formatCount(row.beyondRule.tokens),
      row.suggested ?? '',
    ];
  });
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((r) => (r[column] ?? '').length)));
  const lines = all.map((r) =>
    r
      .map((cell, column) =>
        column === 0 || column === header.length - 1
          ? cell.padEnd(widths[column] ?? 0)
          : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
  const files = fileCount === 1 ? '1 conversation' : `${formatCount(fileCount)} conversations`;
  return [
    `What if: ${files}, ${TOKENIZER_LABELS[grid.tokenizer]}. Each cell: the tool's request and response tokens after compaction (saved versus none); * marks the choice in force.`,
    ...(hintsIgnored === undefined
      ? []
      : [`Under jp=today, * marks the hint written: it is ${hintsIgnored}.`]),
    '',
    ...lines,
    '',
    getWhatIfHeadline(grid),
    '',
  ].join('\n');
}
