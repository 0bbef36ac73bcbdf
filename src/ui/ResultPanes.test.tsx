import { describe, expect, it } from 'vitest';
import { flushAnalysis, initActions } from '../state/actions.ts';
import { store } from '../state/store.ts';
import { createFakeEngine } from '../test/fake-engine.ts';
import { lastDiffEditor } from '../test/monaco-stub.tsx';
import { act, fireEvent, render, screen, within } from '../test/render.tsx';
import { FIXTURE_AFTER, FIXTURE_RESULT } from './panes/test-fixture.ts';
import { ResultsPanel } from './ResultsPanel.tsx';

/** The results region with one finished run of the fixture result. */
async function renderWithResult() {
  const engine = createFakeEngine();
  initActions({ engine, debounceMs: 0 });
  render(<ResultsPanel id="results" />);
  const run = act(() => flushAnalysis());
  engine.runs[0]?.resolve(FIXTURE_RESULT);
  await run;
  return engine;
}

describe('the result panes', () => {
  it('say so before anything is computed', () => {
    initActions({ engine: createFakeEngine() });
    render(<ResultsPanel id="results" />);
    // Savings, what-if, diff, explain and compactions each say so; Recommend
    // shows its (disabled) button instead.
    const empty = [...document.querySelectorAll('.pane .empty')];
    expect(empty).toHaveLength(5);
    for (const note of empty) expect(note).toHaveTextContent('Nothing computed yet.');
  });

  it('show the result in every pane, the diff and the rest once React gets to them', async () => {
    await renderWithResult();
    const table = screen.getByRole('table', { name: 'Savings per tool' });
    expect(within(table).getByRole('rowheader', { name: 'fs_read_file' })).toBeInTheDocument();
    expect(screen.getByTestId('diff-modified')).toHaveTextContent('fs_read_file');
    for (const pane of document.querySelectorAll('.deferred-pane')) {
      expect(pane).toHaveAttribute('data-current', 'true');
    }
    expect(screen.getByRole('listbox', { name: 'Events' })).toBeInTheDocument();
    expect(screen.getByText('Compaction events')).toBeInTheDocument();
  });

  it('select a tool from the table, which filters the diff', async () => {
    await renderWithResult();
    const row = screen.getByRole('rowheader', { name: 'fs_modify_file' }).closest('tr');
    fireEvent.click(row as HTMLElement);
    expect(store.getState().selectedTool).toBe('fs_modify_file');
    expect(screen.getByLabelText('Filter by tool')).toHaveValue('fs_modify_file');
    expect(screen.getByTestId('diff-modified')).not.toHaveTextContent('chat_request');
  });

  it('select an event from the list, explain it, and highlight it in the diff', async () => {
    await renderWithResult();
    const list = screen.getByRole('listbox', { name: 'Events' });
    const option = within(list).getAllByRole('option')[1] as HTMLElement;
    fireEvent.click(option);
    expect(store.getState().selectedEventKey).toBe(FIXTURE_AFTER[1]?.key);
    expect(screen.getByRole('article')).toBeInTheDocument();
    // The diff highlights the same event.
    expect(lastDiffEditor().modified.revealed.length).toBeGreaterThan(0);
  });

  it('reset one stored compaction through the engine', async () => {
    const engine = await renderWithResult();
    fireEvent.click(screen.getByRole('button', { name: 'Reset compaction #1' }));
    expect(engine.resets).toHaveLength(1);
    expect(engine.resets[0]?.position).toBe(1);
  });
});
