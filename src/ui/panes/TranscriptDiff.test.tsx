import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { finishDiff, lastDiffEditor, moveModifiedCursor } from '../../test/monaco-stub.tsx';
import { TranscriptDiff, type TranscriptDiffProps } from './TranscriptDiff.tsx';
import { FIXTURE_AFTER, FIXTURE_BEFORE, FIXTURE_RESULT } from './test-fixture.ts';
import { buildTranscript } from './transcript-text.ts';

vi.mock('@monaco-editor/react', () => import('../../test/monaco-stub.tsx'));

function renderDiff(props: Partial<TranscriptDiffProps> = {}) {
  const onSelectTool = vi.fn();
  const onSelectEvent = vi.fn();
  const all: TranscriptDiffProps = {
    before: FIXTURE_BEFORE,
    after: FIXTURE_AFTER,
    removedBySanitize: FIXTURE_RESULT.removedBySanitize,
    selectedTool: null,
    onSelectTool,
    onSelectEvent,
    theme: 'vs',
    ...props,
  };
  const view = render(<TranscriptDiff {...all} />);
  return {
    ...view,
    onSelectTool,
    onSelectEvent,
    rerenderWith: (more: Partial<TranscriptDiffProps>) =>
      view.rerender(<TranscriptDiff {...all} {...more} />),
  };
}

describe('TranscriptDiff', () => {
  it('diffs the before and after transcripts, read-only, with unchanged regions folded', () => {
    renderDiff();
    expect(screen.getByTestId('diff-original').textContent).toBe(
      buildTranscript(FIXTURE_BEFORE).text,
    );
    expect(screen.getByTestId('diff-modified').textContent).toBe(
      buildTranscript(FIXTURE_AFTER).text,
    );
    const options = lastDiffEditor().optionUpdates.at(-1) as Record<string, unknown>;
    expect(options.readOnly).toBe(true);
    expect(options.originalEditable).toBe(false);
    expect(options.renderSideBySide).toBe(true);
    expect(options.hideUnchangedRegions).toMatchObject({ enabled: true });
  });

  it('marks blocks sanitize added', () => {
    renderDiff();
    expect(screen.getByTestId('diff-modified').textContent).toContain(
      '## tool_call_response · fs_modify_file · id call_9 [added by sanitize]',
    );
  });

  it('filters to one tool through a labelled select synced with the selection', () => {
    const { onSelectTool, rerenderWith } = renderDiff();
    const select = screen.getByLabelText('Filter by tool') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'All events',
      'build_watch',
      'fs_modify_file',
      'fs_read_file',
      '(unknown) [no call]',
    ]);
    fireEvent.change(select, { target: { value: 'fs_read_file' } });
    expect(onSelectTool).toHaveBeenLastCalledWith('fs_read_file');

    rerenderWith({ selectedTool: 'fs_read_file' });
    expect(select.value).toBe('fs_read_file');
    expect(screen.getByTestId('diff-original').textContent).toBe(
      buildTranscript(FIXTURE_BEFORE, { tool: 'fs_read_file' }).text,
    );
    expect(screen.getByTestId('diff-modified').textContent).not.toContain('chat_request');

    fireEvent.change(select, { target: { value: '' } });
    expect(onSelectTool).toHaveBeenLastCalledWith(null);
  });

  it('keeps a selected tool with no events in the select, and says nothing reaches the model', () => {
    renderDiff({ selectedTool: 'heartbeat' });
    expect((screen.getByLabelText('Filter by tool') as HTMLSelectElement).value).toBe('heartbeat');
    expect(screen.getByText('No events of heartbeat reach the model.')).toBeInTheDocument();
  });

  it('selects the event under a clicked line of the modified side', () => {
    const { onSelectEvent } = renderDiff();
    const { blocks } = buildTranscript(FIXTURE_AFTER);
    const target = blocks[3];
    if (!target) throw new Error('fixture too short');
    act(() => moveModifiedCursor(target.startLine + 1));
    expect(onSelectEvent).toHaveBeenLastCalledWith(target.key);
    onSelectEvent.mockClear();
    // A separator line belongs to no event.
    act(() => moveModifiedCursor(target.endLine + 1));
    expect(onSelectEvent).not.toHaveBeenCalled();
  });

  it('highlights and reveals the selected event', () => {
    const { rerenderWith } = renderDiff();
    const { blocks } = buildTranscript(FIXTURE_AFTER);
    const target = blocks[2];
    if (!target) throw new Error('fixture too short');
    rerenderWith({ selectedEventKey: target.key });
    expect(lastDiffEditor().modified.revealed.at(-1)).toBe(target.startLine);
  });

  it('moves between changes and toggles the inline view', () => {
    renderDiff();
    act(() => finishDiff(2));
    fireEvent.click(screen.getByRole('button', { name: 'Next change' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous change' }));
    expect(lastDiffEditor().goToDiffCalls).toEqual(['next', 'previous']);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Side by side' }));
    expect(screen.getByTestId('diff-editor')).toHaveAttribute('data-side-by-side', 'false');
  });

  it('lists the events sanitize removed, as text', () => {
    const { container } = renderDiff();
    fireEvent.click(screen.getByText(/Sanitize removed 1 event/));
    expect(screen.getByText('tool_call_response · id ghost')).toBeInTheDocument();
    expect(screen.getByText('orphaned <i>reply</i>')).toBeInTheDocument();
    expect(container.querySelector('i')).toBeNull();
  });

  it('says it is comparing until Monaco reports the diff of the new text', () => {
    const { rerenderWith } = renderDiff();
    const status = screen.getByRole('status');
    const pane = status.closest('.cp-transcript');
    expect(status).toHaveTextContent('Comparing before and after…');
    expect(pane).toHaveAttribute('data-state', 'comparing');
    act(() => finishDiff());
    expect(status).toHaveTextContent('No changes');
    expect(pane).toHaveAttribute('data-state', 'done');
    rerenderWith({ selectedTool: 'fs_read_file' });
    expect(status).toHaveTextContent('Comparing before and after…');
    act(() => finishDiff(3));
    expect(status).toHaveTextContent('3 changes');
    // The same text again: nothing to compare, so no waiting for Monaco.
    rerenderWith({ selectedTool: 'fs_read_file', after: [...FIXTURE_AFTER] });
    expect(status).toHaveTextContent('3 changes');
  });

  it('a move asked for while comparing is made once Monaco has the new diff', () => {
    const { rerenderWith } = renderDiff();
    act(() => finishDiff(2));
    rerenderWith({ selectedTool: 'fs_read_file' });
    fireEvent.click(screen.getByRole('button', { name: 'Next change' }));
    // Not within the old diff of all events.
    expect(lastDiffEditor().goToDiffCalls).toEqual([]);
    act(() => finishDiff(1));
    expect(lastDiffEditor().goToDiffCalls).toEqual(['next']);
  });

  it('says so when nothing reaches the model', () => {
    renderDiff({ before: [], after: [], removedBySanitize: [] });
    expect(screen.getByText('No events reach the model.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next change' })).toBeDisabled();
  });
});
