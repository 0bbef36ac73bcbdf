import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ExplainPanel, OUTCOME_LABELS, OUTCOME_SENTENCES } from './ExplainPanel.tsx';
import { FIXTURE_AFTER, FIXTURE_REMOVED_EXPLAINED } from './test-fixture.ts';

function renderPanel(selectedEventKey: string | null) {
  const onSelectEvent = vi.fn();
  const view = render(
    <ExplainPanel
      before={FIXTURE_REMOVED_EXPLAINED}
      after={FIXTURE_AFTER}
      selectedEventKey={selectedEventKey}
      onSelectEvent={onSelectEvent}
    />,
  );
  return { ...view, onSelectEvent };
}

function fact(term: string): string | null | undefined {
  const dt = screen.getAllByText(term, { selector: 'dt' })[0];
  return dt?.nextElementSibling?.textContent;
}

describe('ExplainPanel', () => {
  it.each([
    ['e1', 'unchanged', OUTCOME_SENTENCES.unchanged],
    ['e3', 'stripped', 'core sentence: stripped'],
    ['e5', 'omitted', 'core sentence: omitted'],
    ['e7', 'summarized', 'core sentence: summarized'],
    ['s1', 'injected', 'core sentence: injected'],
    ['e4', 'reasoning-stripped', 'core sentence: reasoning-stripped'],
  ] as const)('explains %s (%s) with its outcome and sentence', (key, outcome, sentence) => {
    renderPanel(key);
    const paragraph = screen.getByText(OUTCOME_LABELS[outcome]).closest('p');
    expect(paragraph).toHaveTextContent(`${OUTCOME_LABELS[outcome]} ${sentence}`);
  });

  it('names the turn 1-based and the compaction that decided each content type', () => {
    renderPanel('e3');
    expect(fact('Turn')).toBe('turn 4');
    expect(fact('Tool calls')).toBe(
      'compaction #2 (previewed, not yet in the stream), created 2025-07-01 12:00:01.0, covering turns 2..4',
    );
    expect(fact('Summary')).toBe('no compaction summarizes this turn');
    expect(fact('Reasoning')).toBe('no compaction strips reasoning on this turn');
  });

  it('says a tool policy came from tool_overrides, and the effective policy in words', () => {
    renderPanel('e3');
    expect(fact('Policy from')).toBe(
      "that compaction's tool_overrides: the fs_read_file hint, frozen when it was created",
    );
    expect(fact('Effective policy')).toBe(
      'strip-responses: the arguments are kept; the response becomes a “[compacted] <tool>: success|error” line',
    );
  });

  it("says a tool policy came from the compaction's tool_calls", () => {
    renderPanel('e8');
    expect(fact('Policy from')).toBe(
      "that compaction's tool_calls: its default for tools without a hint of their own",
    );
    expect(fact('Effective policy')).toMatch(/^strip: the arguments become \{\}/);
  });

  it('names a stored compaction by its position, and summaries win', () => {
    renderPanel('e7');
    expect(fact('Summary')).toBe(
      'compaction #1 (already in the stream), created 2025-07-01 12:00:00.0, covering turns 2..3',
    );
    expect(screen.getByText(/A summary wins over reasoning and tool policies/)).toBeInTheDocument();
  });

  it('says no hint applies when no compaction with tool_calls covers the turn', () => {
    renderPanel('e1');
    expect(fact('Tool calls')).toMatch(/no compaction with tool_calls covers this turn/);
  });

  it('shows before → after tokens, and removed events as going to 0', () => {
    renderPanel('e3');
    expect(fact('Tokens')).toBe('300 → 8');
    screen.getByRole('button', { name: 'All events' });
  });

  it('shows 0 tokens after for an omitted event', () => {
    renderPanel('e5');
    expect(fact('Tokens')).toBe('2 → 0');
    expect(fact('Effective policy')).toBe('omit: the call and its response are removed');
  });

  it('renders conversation text as text', () => {
    const { container } = renderPanel('e1');
    expect(screen.getByText('Read the <script>alert(1)</script> file')).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
  });

  it('goes back to the list', () => {
    const { onSelectEvent } = renderPanel('e1');
    fireEvent.click(screen.getByRole('button', { name: 'All events' }));
    expect(onSelectEvent).toHaveBeenLastCalledWith(null);
  });

  it('lists events to pick from, with removed ones in their own group', () => {
    renderPanel(null);
    const listbox = screen.getByRole('listbox', { name: 'Events' });
    const seen = within(listbox).getByRole('group', {
      name: 'What the model sees after compaction',
    });
    const removed = within(listbox).getByRole('group', { name: 'Removed by compaction' });
    expect(within(seen).getAllByRole('option')).toHaveLength(FIXTURE_AFTER.length);
    expect(within(removed).getAllByRole('option')).toHaveLength(4);
    // The heading a sighted person reads over the group.
    expect(within(removed).getByText('Removed by compaction')).toBeVisible();
  });

  it('moves through the list with the keyboard and picks with Enter', () => {
    const { onSelectEvent } = renderPanel(null);
    const listbox = screen.getByRole('listbox', { name: 'Events' });
    const options = within(listbox).getAllByRole('option');
    expect(listbox).toHaveAttribute('aria-activedescendant', options[0]?.id);
    fireEvent.keyDown(listbox, { key: 'ArrowDown' });
    fireEvent.keyDown(listbox, { key: 'ArrowDown' });
    expect(listbox).toHaveAttribute('aria-activedescendant', options[2]?.id);
    expect(options[2]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(listbox, { key: 'Enter' });
    expect(onSelectEvent).toHaveBeenLastCalledWith(FIXTURE_AFTER[2]?.key);
    fireEvent.keyDown(listbox, { key: 'End' });
    fireEvent.keyDown(listbox, { key: ' ' });
    expect(onSelectEvent).toHaveBeenLastCalledWith('e7');
  });

  it('picks an event by click', () => {
    const { onSelectEvent } = renderPanel(null);
    fireEvent.click(screen.getAllByRole('option')[1] as HTMLElement);
    expect(onSelectEvent).toHaveBeenLastCalledWith('e1');
  });

  it('says when the selected event is gone', () => {
    renderPanel('missing');
    expect(screen.getByText('The selected event is not in this result any more.')).toBeVisible();
    expect(screen.getByRole('listbox')).toBeInTheDocument();
  });
});
