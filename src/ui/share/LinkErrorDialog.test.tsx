import { describe, expect, it, vi } from 'vitest';
import { showLinkProblem } from '../../state/share-actions.ts';
import { store } from '../../state/store.ts';
import { act, fireEvent, render, screen } from '../../test/render.tsx';
import { LinkErrorDialog, LinkProblemDialog } from './LinkErrorDialog.tsx';

const PROBLEM = {
  title: 'This link could not be opened',
  what: 'This link is damaged: some of its characters changed after it was made.',
  loadedInstead: 'The playground shows the default example instead.',
};

function renderWithOpener(onClose = vi.fn()) {
  render(
    <>
      <button type="button">Before</button>
      <LinkErrorDialog problem={PROBLEM} onClose={onClose} />
      <button type="button">After</button>
    </>,
  );
  return onClose;
}

describe('LinkErrorDialog', () => {
  it('is a labelled modal dialog that says what happened and what is shown instead', () => {
    renderWithOpener();
    const dialog = screen.getByRole('dialog', { name: PROBLEM.title });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription(PROBLEM.what);
    expect(dialog).toHaveTextContent(PROBLEM.loadedInstead);
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveFocus();
  });

  it('keeps focus inside: Tab and Shift+Tab cycle through its buttons', () => {
    renderWithOpener();
    const close = screen.getByRole('button', { name: 'Close' });
    const ok = screen.getByRole('button', { name: 'Continue' });
    fireEvent.keyDown(ok, { key: 'Tab' });
    expect(close).toHaveFocus();
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(ok).toHaveFocus();
    // Focus that strays outside comes back.
    act(() => screen.getByRole('button', { name: 'After' }).focus());
    expect(close).toHaveFocus();
  });

  it('closes on Escape, on Close and on Continue', () => {
    const onClose = renderWithOpener();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Continue' }), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('opens from the store and gives focus back when it closes', () => {
    render(
      <>
        <button type="button">Copy link</button>
        <LinkProblemDialog />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Copy link' });
    opener.focus();
    act(() => showLinkProblem(PROBLEM));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Continue' }), { key: 'Escape' });
    expect(store.getState().linkProblem).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });
});
