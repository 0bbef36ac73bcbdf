import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ORPHAN_ROW_KEY } from '../../core/counting/report.ts';
import { SavingsTable } from './SavingsTable.tsx';
import { FIXTURE_REPORT, FIXTURE_RESULT } from './test-fixture.ts';

function renderTable(selectedTool: string | null = null) {
  const onSelectTool = vi.fn();
  const view = render(
    <SavingsTable
      report={FIXTURE_REPORT}
      tools={FIXTURE_RESULT.tools}
      selectedTool={selectedTool}
      onSelectTool={onSelectTool}
    />,
  );
  return { ...view, onSelectTool };
}

function savingsTable() {
  return screen.getByRole('table', { name: 'Savings per tool' });
}

function bodyRows() {
  const [, body] = within(savingsTable()).getAllByRole('rowgroup');
  return within(body as HTMLElement).getAllByRole('row') as HTMLTableRowElement[];
}

function firstCells() {
  return bodyRows().map((row) => row.cells[0]?.textContent);
}

function rowOf(name: string): HTMLTableRowElement {
  const row = bodyRows().find((candidate) => candidate.cells[0]?.textContent === name);
  if (!row) throw new Error(`no row ${name}`);
  return row;
}

describe('SavingsTable', () => {
  it('has one row per tool whose first cell is exactly the tool name', () => {
    renderTable();
    expect(firstCells()).toEqual([
      'build_watch',
      'fs_modify_file',
      'fs_read_file',
      '(unknown) [no call]',
    ]);
  });

  it('shows calls, before → after for requests and responses, and characters', () => {
    renderTable();
    const cells = [...rowOf('fs_read_file').cells].map((cell) => cell.textContent);
    expect(cells[1]).toBe('3');
    expect(cells[2]).toBe('15 → 1560 → 60 chars');
    expect(cells[3]).toBe('900 → 243,600 → 96 chars');
    expect(cells[4]).toBe('8763,504 chars');
    expect(cells[5]).toBe('95.7%');
  });

  it('draws a request/response share bar for before and after', () => {
    renderTable();
    const bar = within(rowOf('fs_modify_file')).getByRole('img');
    expect(bar).toHaveAccessibleName(
      'Before: requests 300 tokens, responses 10. After: requests 1, responses 10.',
    );
  });

  it('shows negative savings as they are', () => {
    renderTable();
    const row = rowOf('build_watch');
    expect(row.cells[4]?.textContent).toBe('-6-24 chars');
    expect(row.cells[5]?.textContent).toBe('-100.0%');
    expect(within(row.cells[4] as HTMLElement).getByText('-6')).toHaveClass('cp-negative');
  });

  it('says which hint is in force and where it comes from', () => {
    renderTable();
    expect(rowOf('fs_read_file').cells[6]?.textContent).toBe('strip-responses own hint');
    expect(rowOf('fs_modify_file').cells[6]?.textContent).toBe("strip-requests from '*'");
    expect(rowOf('build_watch').cells[6]?.textContent).toBe("rule's tool_calls");
    expect(rowOf('(unknown) [no call]').cells[6]?.textContent).toBe("rule's tool_calls");
  });

  it('under jp=today, strikes the hint and says what applies instead (issue 24)', () => {
    const tools = FIXTURE_RESULT.tools.map((tool) =>
      tool.hint === null
        ? tool
        : { ...tool, ignored: "ignored by today's JP; the rule's tool_calls (strip) applies" },
    );
    render(
      <SavingsTable
        report={FIXTURE_REPORT}
        tools={tools}
        selectedTool={null}
        onSelectTool={vi.fn()}
      />,
    );
    const cell = rowOf('fs_read_file').cells[6] as HTMLElement;
    expect(cell.textContent).toBe(
      "strip-responses ignored by today's JP; the rule's tool_calls (strip) applies",
    );
    expect(cell.textContent).not.toContain('own hint');
    expect(cell.querySelector('del')?.textContent).toBe('strip-responses');
  });

  it('sorts by a column header, toggling direction, with aria-sort', () => {
    renderTable();
    const header = within(savingsTable()).getByRole('columnheader', { name: /Saved tokens/ });
    expect(within(savingsTable()).getByRole('columnheader', { name: /^Tool/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    fireEvent.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(within(savingsTable()).getByRole('columnheader', { name: /^Tool/ })).not.toHaveAttribute(
      'aria-sort',
    );
    expect(firstCells()).toEqual([
      'fs_read_file',
      'fs_modify_file',
      '(unknown) [no call]',
      'build_watch',
    ]);

    fireEvent.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(firstCells()).toEqual([
      'build_watch',
      '(unknown) [no call]',
      'fs_modify_file',
      'fs_read_file',
    ]);
  });

  it('keeps (unknown) last when sorting by name either way', () => {
    renderTable();
    const header = within(savingsTable()).getByRole('columnheader', { name: /^Tool/ });
    fireEvent.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(firstCells()).toEqual([
      'fs_read_file',
      'fs_modify_file',
      'build_watch',
      '(unknown) [no call]',
    ]);
  });

  it('sorts by calls and by hint', () => {
    renderTable();
    fireEvent.click(screen.getByRole('button', { name: /^Calls/ }));
    expect(firstCells()[0]).toBe('fs_read_file');
    fireEvent.click(screen.getByRole('button', { name: /^Hint/ }));
    expect(firstCells().slice(2)).toEqual(['fs_modify_file', 'fs_read_file']);
  });

  it('selects a row by click, Enter or Space, and deselects the selected one', () => {
    const { onSelectTool, rerender } = renderTable();
    fireEvent.click(rowOf('fs_read_file'));
    expect(onSelectTool).toHaveBeenLastCalledWith('fs_read_file');
    fireEvent.keyDown(rowOf('fs_modify_file'), { key: 'Enter' });
    expect(onSelectTool).toHaveBeenLastCalledWith('fs_modify_file');
    fireEvent.keyDown(rowOf('(unknown) [no call]'), { key: ' ' });
    expect(onSelectTool).toHaveBeenLastCalledWith(ORPHAN_ROW_KEY);

    rerender(
      <SavingsTable
        report={FIXTURE_REPORT}
        tools={FIXTURE_RESULT.tools}
        selectedTool="fs_read_file"
        onSelectTool={onSelectTool}
      />,
    );
    expect(rowOf('fs_read_file')).toHaveAttribute('aria-selected', 'true');
    expect(rowOf('build_watch')).toHaveAttribute('aria-selected', 'false');
    fireEvent.click(rowOf('fs_read_file'));
    expect(onSelectTool).toHaveBeenLastCalledWith(null);
  });

  it('rows are focusable and arrow keys move between them', () => {
    renderTable();
    const first = rowOf('build_watch');
    expect(first).toHaveAttribute('tabindex', '0');
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rowOf('fs_modify_file'));
  });

  it('splits the totals into tool requests, tool responses, reasoning and messages', () => {
    renderTable();
    const totals = screen.getByRole('table', { name: 'Totals by content type' });
    const rows = within(totals).getAllByRole('row').slice(1);
    const byLabel = rows.map((row) => [
      (row as HTMLTableRowElement).cells[0]?.firstChild?.textContent,
      (row as HTMLTableRowElement).cells[1]?.firstChild?.textContent,
      (row as HTMLTableRowElement).cells[2]?.firstChild?.textContent,
    ]);
    expect(byLabel).toEqual([
      ['Tool requests', '319 → 18', '301'],
      ['Tool responses', '917 → 49', '868'],
      ['Reasoning', '64 → 52', '12'],
      ['Messages', '100 → 100', '0'],
      ['All counted text', '1,400 → 219', '1,181'],
    ]);
  });

  it('says what is counted, with which tokenizer, and that Claude figures are approximate', () => {
    renderTable();
    expect(screen.getByText(/payload text only/)).toHaveTextContent(
      /tool arguments, tool response content, message and reasoning text\); not ids, tool names, timestamps, metadata or provider framing/,
    );
    expect(screen.getByText(/payload text only/)).toHaveTextContent(/chars\/4 \(an estimate\)/);
    expect(screen.getByText(/Claude models are approximate/)).toBeInTheDocument();
  });

  it('shows an empty state with no tools', () => {
    render(
      <SavingsTable
        report={{ ...FIXTURE_REPORT, tools: [] }}
        tools={[]}
        selectedTool={null}
        onSelectTool={() => {}}
      />,
    );
    expect(screen.getByText('No tool calls in this conversation.')).toBeInTheDocument();
  });

  it('marks apart rows that read the same: NFC and NFD café, a tool named (unknown) and the orphan row', () => {
    const [template] = FIXTURE_REPORT.tools;
    if (!template) throw new Error('fixture has no rows');
    const names = ['caf\u00e9', 'cafe\u0301', '(unknown)', null];
    render(
      <SavingsTable
        report={{ ...FIXTURE_REPORT, tools: names.map((name) => ({ ...template, name })) }}
        tools={FIXTURE_RESULT.tools}
        selectedTool={null}
        onSelectTool={vi.fn()}
      />,
    );
    const headers = bodyRows().map((row) => row.cells[0] as HTMLElement);
    // The row headers' text is their accessible name: four rows, four names.
    expect(new Set(headers.map((cell) => cell.textContent))).toEqual(
      new Set(['(unknown)', 'caf\u00e9', 'cafe\u0301 [NFD]', '(unknown) [no call]']),
    );
    expect(screen.getByText('[NFD]', { exact: false }).title).toBe(
      'Decomposed (NFD): U+0063 U+0061 U+0066 U+0065 U+0301',
    );
  });
});
