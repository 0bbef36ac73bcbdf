/**
 * A table's buttons as one tab stop: only one is in the tab order, the
 * arrow keys move between them (down a row of `columns`), Home and End go
 * to the ends, and Tab then comes back to the last one focused.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useRovingFocus } from './roving-focus.ts';

function Grid({ rows, columns }: { rows: number; columns: number }) {
  const roving = useRovingFocus(rows * columns, columns);
  const grid = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => `cell ${row}.${column}`),
  );
  return (
    <table>
      <tbody {...roving.container}>
        {grid.map((cells, row) => (
          <tr key={cells[0]}>
            {cells.map((name, column) => (
              <td key={name}>
                <button type="button" {...roving.button(row * columns + column)}>
                  {name}
                </button>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const cell = (name: string) => screen.getByRole('button', { name });
const tabStops = () =>
  screen.getAllByRole('button').filter((button) => button.getAttribute('tabindex') === '0');

describe('useRovingFocus', () => {
  it('is one tab stop, moved by the arrow keys, a row down by the columns', () => {
    render(<Grid rows={3} columns={2} />);
    expect(tabStops().map((b) => b.textContent)).toEqual(['cell 0.0']);
    cell('cell 0.0').focus();
    fireEvent.keyDown(cell('cell 0.0'), { key: 'ArrowDown' });
    expect(cell('cell 1.0')).toHaveFocus();
    fireEvent.keyDown(cell('cell 1.0'), { key: 'ArrowRight' });
    expect(cell('cell 1.1')).toHaveFocus();
    // The tab stop follows the focus, so Tab comes back here.
    expect(tabStops().map((b) => b.textContent)).toEqual(['cell 1.1']);
    fireEvent.keyDown(cell('cell 1.1'), { key: 'End' });
    expect(cell('cell 2.1')).toHaveFocus();
    fireEvent.keyDown(cell('cell 2.1'), { key: 'ArrowDown' });
    expect(cell('cell 2.1')).toHaveFocus();
    fireEvent.keyDown(cell('cell 2.1'), { key: 'Home' });
    expect(cell('cell 0.0')).toHaveFocus();
  });

  it('in one column, left and right are not its keys', () => {
    render(<Grid rows={2} columns={1} />);
    cell('cell 0.0').focus();
    fireEvent.keyDown(cell('cell 0.0'), { key: 'ArrowRight' });
    expect(cell('cell 0.0')).toHaveFocus();
    fireEvent.keyDown(cell('cell 0.0'), { key: 'ArrowDown' });
    expect(cell('cell 1.0')).toHaveFocus();
  });
});
