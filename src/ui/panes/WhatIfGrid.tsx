/**
 * The what-if grid: per tool, tokens after (and saved) under each of its
 * six hint choices, the choice in force and the recommender's pick marked.
 * Each cell is a button: choosing it sets that hint in the config.
 *
 * Keyboard: the grid is one tab stop (the WAI-ARIA grid pattern with a
 * roving tabindex). Arrow keys move between cells, Home and End to the first
 * and last choice of a row, Ctrl+Home and Ctrl+End to the first and last
 * tool, Page Up and Page Down ten tools at a time; Enter or Space chooses.
 * With thousands of tools only the rows in view are drawn
 * (`ui/virtual-rows.tsx`).
 */

import { type KeyboardEvent, useRef, useState } from 'react';
import type { HintChoice } from '../../core/analyses/hint-table.ts';
import { getWhatIfHeadline, type WhatIfGrid } from '../../core/analyses/what-if.ts';
import { HINT_CHOICES } from '../../core/config/tool-hints.ts';
import { formatCount } from '../../core/counting/format.ts';
import { getRowCount, getRowIndex, getScrollBoxProps, useVirtualRows } from '../virtual-rows.tsx';
import './panes.css';

/** Props of {@link WhatIfGridView}. */
export interface WhatIfGridProps {
  grid: WhatIfGrid;
  /** Called when a cell is chosen. */
  onChoose: (
    tool: string,
    choice: HintChoice,
    inForce: WhatIfGrid['tools'][number]['inForce'],
  ) => void;
}

/** The cell that holds the grid's one tab stop: a tool's row and a choice's column. */
interface ActiveCell {
  row: number;
  column: number;
}

/** Rows that Page Up and Page Down move by. */
const PAGE_ROWS = 10;

/** The columns: the tool, six choices, beyond the rule. */
const COLUMN_COUNT = HINT_CHOICES.length + 2;

function moveCell(
  cell: ActiveCell,
  event: KeyboardEvent,
  rowCount: number,
): ActiveCell | undefined {
  const lastRow = rowCount - 1;
  const lastColumn = HINT_CHOICES.length - 1;
  const clampRow = (row: number) => Math.min(lastRow, Math.max(0, row));
  switch (event.key) {
    case 'ArrowLeft':
      return { ...cell, column: Math.max(0, cell.column - 1) };
    case 'ArrowRight':
      return { ...cell, column: Math.min(lastColumn, cell.column + 1) };
    case 'ArrowUp':
      return { ...cell, row: clampRow(cell.row - 1) };
    case 'ArrowDown':
      return { ...cell, row: clampRow(cell.row + 1) };
    case 'PageUp':
      return { ...cell, row: clampRow(cell.row - PAGE_ROWS) };
    case 'PageDown':
      return { ...cell, row: clampRow(cell.row + PAGE_ROWS) };
    case 'Home':
      return event.ctrlKey ? { row: 0, column: 0 } : { ...cell, column: 0 };
    case 'End':
      return event.ctrlKey ? { row: lastRow, column: lastColumn } : { ...cell, column: lastColumn };
    default:
      return undefined;
  }
}

/** The grid as a table of buttons, one row per tool. */
export function WhatIfGridView({ grid, onChoose }: WhatIfGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<ActiveCell>({ row: 0, column: 0 });
  const body = useVirtualRows({
    count: grid.tools.length,
    columns: COLUMN_COUNT,
    scrollRef,
    estimateHeight: 30,
  });
  if (grid.tools.length === 0) return <p className="empty">No tool calls in this stream.</p>;

  // A new grid may have fewer tools; a row scrolled out of view is not drawn.
  // Either way the tab stop falls to a drawn cell, so Tab always reaches the grid.
  const drawn = body.rows.map((row) => row.index);
  const tabRow = drawn.includes(active.row) ? active.row : (drawn[0] ?? 0);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const next = moveCell({ row: tabRow, column: active.column }, event, grid.tools.length);
    if (!next) return;
    event.preventDefault();
    setActive(next);
    body.focusRowWhenDrawn(next.row, `td[data-choice="${HINT_CHOICES[next.column]}"] button`);
  };

  return (
    <div className="what-if">
      <p className="what-if-headline">{getWhatIfHeadline(grid)}</p>
      <div ref={scrollRef} {...getScrollBoxProps('what-if-scroll', body.virtual)}>
        <table
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA data grid pattern is a table with role grid (its cells stay cells, its rows rows).
          role="grid"
          className="what-if-grid"
          aria-label="What if: every tool under each hint choice"
          aria-rowcount={getRowCount(grid.tools.length)}
          aria-colcount={COLUMN_COUNT}
          onKeyDown={onKeyDown}
        >
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">Tool</th>
              {HINT_CHOICES.map((choice) => (
                <th key={choice} scope="col">
                  {choice}
                </th>
              ))}
              <th scope="col">Beyond the rule</th>
            </tr>
          </thead>
          <tbody>
            {body.before}
            {body.rows.map(({ index, measure }) => {
              const row = grid.tools[index] as WhatIfGrid['tools'][number];
              const inForce = row.inForce ?? 'inherit';
              return (
                <tr
                  key={row.name}
                  ref={measure}
                  data-tool={row.name}
                  data-row-index={index}
                  aria-rowindex={getRowIndex(index)}
                >
                  <th scope="row">
                    <span className="cp-truncate" title={row.name}>
                      {row.name}
                    </span>
                  </th>
                  {HINT_CHOICES.map((choice, column) => {
                    const cell = row.choices[choice];
                    const current = choice === inForce;
                    const suggested = choice === row.suggested;
                    const marks = [current ? 'in force' : '', suggested ? 'suggested' : '']
                      .filter(Boolean)
                      .join(', ');
                    return (
                      <td
                        key={choice}
                        data-choice={choice}
                        data-in-force={current ? 'true' : undefined}
                      >
                        <button
                          type="button"
                          tabIndex={index === tabRow && column === active.column ? 0 : -1}
                          aria-pressed={current}
                          aria-label={`${row.name}: ${choice}, ${formatCount(cell.after.tokens)} tokens after, ${formatCount(cell.saved.tokens)} saved${marks ? ` (${marks})` : ''}`}
                          onFocus={() => setActive({ row: index, column })}
                          onClick={() => onChoose(row.name, choice, row.inForce)}
                        >
                          {formatCount(cell.after.tokens)}
                          <small> ({formatCount(cell.saved.tokens)})</small>
                          {current ? <span className="what-if-mark"> ●</span> : null}
                          {suggested ? <span className="what-if-mark"> ★</span> : null}
                        </button>
                      </td>
                    );
                  })}
                  <td data-beyond-rule>{formatCount(row.beyondRule.tokens)}</td>
                </tr>
              );
            })}
            {body.after}
          </tbody>
        </table>
      </div>
      <p className="note">
        Tokens after compaction (saved versus none); ● in force, ★ the recommender’s pick. Choosing
        a cell sets that hint in the config (Ctrl+Z undoes it there). The grid is one Tab stop:
        arrow keys move between cells.
      </p>
    </div>
  );
}
