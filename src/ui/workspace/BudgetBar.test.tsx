import type { ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { WorkspaceConversation } from '../../state/app-state.ts';
import { fireEvent, render, screen, within } from '../../test/render.tsx';
import { BudgetBar } from './BudgetBar.tsx';
import { ContextBudgetField } from './ContextBudgetField.tsx';
import { ConversationTable } from './ConversationTable.tsx';

function bars(container: HTMLElement): string[] {
  return [...container.querySelectorAll<HTMLElement>('.ws-budget-fill')].map(
    (bar) => bar.style.width,
  );
}

describe('BudgetBar', () => {
  it('without a budget, draws before and after on a shared scale', () => {
    const { container } = render(<BudgetBar before={800} after={200} budget={null} scale={1000} />);
    expect(bars(container)).toEqual(['80%', '20%']);
    expect(screen.getByText('800 → 200')).toBeVisible();
    expect(screen.getByRole('img')).toHaveAccessibleName('Before: 800 tokens. After: 200 tokens.');
  });

  it('against a budget: the window is the full width, and going over is marked in words', () => {
    const { container } = render(
      <BudgetBar before={250_000} after={120_000} budget={200_000} scale={1} />,
    );
    expect(bars(container)).toEqual(['100%', '60%']);
    expect(container.querySelectorAll('.ws-budget-over')).toHaveLength(1);
    expect(screen.getByText(/250,000 → 120,000 of 200,000/)).toBeVisible();
    expect(screen.getByText('fits after compaction')).toBeVisible();
    expect(screen.getByRole('img')).toHaveAccessibleName(
      'Before: 250,000 tokens, over the window by 50,000. After: 120,000 tokens, 60.0% of the window.',
    );
  });

  it('marks a conversation still over the window after compaction', () => {
    const { container } = render(
      <BudgetBar before={300_000} after={210_000} budget={200_000} scale={1} />,
    );
    expect(container.querySelectorAll('.ws-budget-over')).toHaveLength(2);
    expect(screen.getByText('over budget')).toBeVisible();
    expect(container.querySelector('.ws-budget')).toHaveAttribute('data-over', 'after');
  });
});

describe('ContextBudgetField', () => {
  it('reads tokens as typed, and says what it wants when it cannot', () => {
    const onChange = vi.fn();
    render(<ContextBudgetField budget={null} onChange={onChange} />);
    const input = screen.getByLabelText('Context window (tokens)');
    fireEvent.change(input, { target: { value: '200k' } });
    expect(onChange).toHaveBeenLastCalledWith(200_000);
    fireEvent.change(input, { target: { value: 'big' } });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/Write a whole number of tokens/);
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.change(input, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});

describe('ConversationTable', () => {
  const conversation = (
    index: number,
    title: string,
    before: number,
    after: number,
    tools: Record<string, { calls: number; saved: number }>,
  ): WorkspaceConversation => ({
    index,
    path: `c/${index}-${title.toLowerCase()}`,
    title,
    bytes: 100,
    status: 'done',
    message: null,
    figures: { before, after, tools },
  });
  const conversations: WorkspaceConversation[] = [
    conversation(0, 'Alpha', 1000, 900, { read: { calls: 2, saved: 100 } }),
    conversation(1, 'Beta', 5000, 1000, {
      read: { calls: 9, saved: 3000 },
      grep: { calls: 1, saved: 1000 },
    }),
    conversation(2, 'Gamma', 3000, 1000, { grep: { calls: 4, saved: 2000 } }),
    {
      index: 3,
      path: 'c/3',
      title: 'Broken',
      bytes: 1,
      status: 'failed',
      message: 'events.json line 1, column 2: nope',
      figures: null,
    },
  ];
  const renderTable = (props: Partial<ComponentProps<typeof ConversationTable>> = {}) =>
    render(
      <ConversationTable
        conversations={conversations}
        selectedTool={null}
        budget={null}
        onOpen={vi.fn()}
        {...props}
      />,
    );
  const titles = () =>
    [...document.querySelectorAll('tbody .ws-title')].map((cell) => cell.textContent);

  it('lists every conversation by tokens saved, failures last with their reason', () => {
    renderTable();
    expect(screen.getByRole('table', { name: 'Conversations by tokens saved' })).toBeVisible();
    expect(titles()).toEqual(['Beta', 'Gamma', 'Alpha', 'Broken']);
    expect(screen.getByText('events.json line 1, column 2: nope')).toBeVisible();
  });

  it('for a tool: only the conversations that call it, by its saving, and Open names the conversation', () => {
    const onOpen = vi.fn();
    renderTable({ selectedTool: 'grep', onOpen });
    const table = screen.getByRole('table', {
      name: "Which conversations gain most from grep's hint",
    });
    expect(titles()).toEqual(['Gamma', 'Beta']);
    expect(within(table).getByText('4 calls')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Open “Beta” in the editors' }));
    expect(onOpen).toHaveBeenCalledWith(1);
  });

  it('shows the first rows, and all on request', () => {
    renderTable({ initialRows: 2 });
    expect(titles()).toEqual(['Beta', 'Gamma']);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 4' }));
    expect(titles()).toHaveLength(4);
  });
});
