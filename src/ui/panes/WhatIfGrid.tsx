/**
 * The what-if grid: per tool, tokens after (and saved) under each of its
 * six hint choices, the choice in force and the recommender's pick marked.
 * Each cell is a button: choosing it sets that hint in the config.
 */

import { HINT_CHOICES, type HintChoice } from '../../core/analyses/hint-table.ts';
import { getWhatIfHeadline, type WhatIfGrid } from '../../core/analyses/what-if.ts';
import { formatCount } from '../../core/counting/format.ts';
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

/** The grid as a table of buttons, one row per tool. */
export function WhatIfGridView({ grid, onChoose }: WhatIfGridProps) {
  if (grid.tools.length === 0) return <p className="empty">No tool calls in this stream.</p>;
  return (
    <div className="what-if">
      <p className="what-if-headline">{getWhatIfHeadline(grid)}</p>
      <table className="what-if-grid" aria-label="What if: every tool under each hint choice">
        <thead>
          <tr>
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
          {grid.tools.map((row) => {
            const inForce = row.inForce ?? 'inherit';
            return (
              <tr key={row.name} data-tool={row.name}>
                <th scope="row">{row.name}</th>
                {HINT_CHOICES.map((choice) => {
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
                        aria-pressed={current}
                        aria-label={`${row.name}: ${choice}, ${formatCount(cell.after.tokens)} tokens after, ${formatCount(cell.saved.tokens)} saved${marks ? ` (${marks})` : ''}`}
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
        </tbody>
      </table>
      <p className="note">
        Tokens after compaction (saved versus none); ● in force, ★ the recommender’s pick. Choosing
        a cell sets that hint in the config (Ctrl+Z undoes it there).
      </p>
    </div>
  );
}
