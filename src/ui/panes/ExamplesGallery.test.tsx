import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from '../../examples/index.ts';
import { ExamplesGallery } from './ExamplesGallery.tsx';

function openGallery(currentId: string | null = null) {
  const onLoad = vi.fn();
  render(<ExamplesGallery examples={EXAMPLES} currentId={currentId} onLoad={onLoad} />);
  const trigger = screen.getByRole('button', { name: 'Examples' });
  expect(trigger).toHaveAttribute('aria-expanded', 'false');
  fireEvent.click(trigger);
  return { onLoad, trigger, dialog: screen.getByRole('dialog', { name: 'Examples' }) };
}

describe('ExamplesGallery', () => {
  it('lists at least eight examples with their sentence', () => {
    const { dialog, trigger } = openGallery();
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const items = within(dialog).getAllByRole('listitem');
    expect(items.length).toBe(EXAMPLES.length);
    expect(items.length).toBeGreaterThanOrEqual(8);
    for (const example of EXAMPLES) {
      expect(within(dialog).getByText(example.summary)).toBeInTheDocument();
    }
    expect(within(dialog).getByText(/github\.com\/dcdpr\/jp/)).toBeInTheDocument();
  });

  it("shows each real agent session's credit under it, as its source asks (corpus NOTICE.md)", () => {
    const { dialog } = openGallery();
    const credit = (id: string) =>
      within(dialog)
        .getAllByRole('button')
        .find((button) => button.dataset.exampleId === id)
        ?.querySelector('.cp-credit')?.textContent;
    expect(credit('claude-code-session')).toBe(
      'Credit: test data of claude-code-log (github.com/daaain/claude-code-log), MIT, Copyright (c) Daniel Demmel',
    );
    expect(credit('codex-rollout')).toBe(
      'Credit: test fixtures of toolpath (github.com/empathic/toolpath), Apache-2.0, Copyright 2025 Empathic, Inc.',
    );
  });

  it('loads an example by click and closes', () => {
    const { onLoad, trigger } = openGallery();
    const example = EXAMPLES[3];
    if (!example) throw new Error('too few examples');
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^${example.title}`) }));
    expect(onLoad).toHaveBeenCalledWith(example.id);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('focuses the current example, moves with arrow keys, and closes on Escape', () => {
    const { dialog, trigger } = openGallery(DEFAULT_EXAMPLE_ID);
    const items = within(dialog)
      .getAllByRole('button')
      .filter((button) => button.dataset.exampleId);
    const current = items.find((button) => button.dataset.exampleId === DEFAULT_EXAMPLE_ID);
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(document.activeElement).toBe(current);
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[items.indexOf(current as HTMLElement) + 1]);
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement).toBe(items.at(-1));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('closes with its Close button', () => {
    openGallery();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
