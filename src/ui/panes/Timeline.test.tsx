import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Timeline } from './Timeline.tsx';
import { FIXTURE_RESULT, INERT_ENTRY } from './test-fixture.ts';

function renderTimeline(props: Partial<Parameters<typeof Timeline>[0]> = {}) {
  const onReset = vi.fn();
  const view = render(
    <Timeline
      timeline={FIXTURE_RESULT.timeline}
      plans={FIXTURE_RESULT.plans}
      usesBuiltinRule={false}
      jpDryRun={FIXTURE_RESULT.jpDryRun}
      onReset={onReset}
      {...props}
    />,
  );
  return { ...view, onReset };
}

function cards(): HTMLElement[] {
  // The event cards, not the override items nested in them.
  return [...document.querySelectorAll<HTMLElement>('.cp-events > li')];
}

describe('Timeline', () => {
  it('shows stored and previewed events distinctly, with 1-based ranges', () => {
    renderTimeline();
    const [stored, previewed] = cards();
    expect(stored).toHaveClass('cp-event-stored');
    expect(stored).toHaveTextContent('#1');
    expect(stored).toHaveTextContent('stored in the stream');
    expect(stored).toHaveTextContent('Coversturns 2..3');
    expect(stored).toHaveTextContent('Created2025-07-01 12:00:00.0');
    expect(previewed).toHaveClass('cp-event-new');
    expect(previewed).toHaveTextContent('#2');
    expect(previewed).toHaveTextContent('previewed from the rules, not in the stream yet');
    expect(previewed).toHaveTextContent('Coversturns 2..4');
  });

  it('labels a preview identical to a stored compaction, in words', () => {
    const [, previewed] = FIXTURE_RESULT.timeline;
    renderTimeline({ identical: previewed ? [previewed] : [] });
    const [stored, preview] = cards();
    expect(stored).toHaveTextContent('stored in the stream');
    expect(preview).toHaveClass('cp-event-identical');
    expect(preview).toHaveTextContent('identical to a stored compaction; Compact adds nothing');
    expect(preview).not.toHaveTextContent('not in the stream yet');
  });

  it('lists policies and tool_overrides', () => {
    renderTimeline();
    const [stored, previewed] = cards();
    expect(stored).toHaveTextContent('Reasoningno opinion');
    expect(stored).toHaveTextContent('Tool callsno opinion');
    expect(stored).toHaveTextContent('tool_overridesnone');
    expect(previewed).toHaveTextContent('Reasoningstrip');
    expect(previewed).toHaveTextContent(/Tool callsstrip: the arguments become \{\}/);
    expect(previewed).toHaveTextContent('build_watch: omit');
    expect(previewed).toHaveTextContent('fs_read_file: strip-responses');
  });

  it('renders a summary as text', () => {
    const { container } = renderTimeline();
    expect(screen.getByText('The user asked for <b>bold</b> changes.')).toBeInTheDocument();
    expect(container.querySelector('b')).toBeNull();
  });

  it('says overrides are inert on a compaction without tool_calls', () => {
    renderTimeline({ timeline: [INERT_ENTRY] });
    expect(screen.getByText('no opinion, so its tool_overrides below are inert')).toBeVisible();
  });

  it('resets one stored event, and offers no reset for a preview', () => {
    const { onReset } = renderTimeline();
    const buttons = screen.getAllByRole('button', { name: /Reset compaction/ });
    expect(buttons).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Reset compaction #1' }));
    expect(onReset).toHaveBeenCalledWith(1);
  });

  it('shows each rule with its range or why it is empty, and its DSL', () => {
    renderTimeline();
    const plans = screen.getAllByRole('list').at(-1) as HTMLElement;
    const [first, second] = within(plans).getAllByRole('listitem');
    expect(first).toHaveTextContent('Rule 1');
    expect(first).toHaveTextContent('compacts turns 2..4');
    expect(first).toHaveTextContent(
      'keep_first = 1, keep_last = 1, reasoning = "strip", tool_calls = "strip"',
    );
    expect(first).toHaveTextContent('jp conversation compact --compact=r+t:2..-1');
    expect(second).toHaveTextContent('nothing to compact');
    expect(second).toHaveTextContent(
      'keep_first = "last-compaction", keep_last = "1h 30m", summary',
    );
    expect(second).toHaveTextContent('Every turn after the last compaction is newer than 1h 30m.');
  });

  it('names the built-in rule and has an empty state', () => {
    renderTimeline({ timeline: [], plans: [], usesBuiltinRule: true });
    expect(screen.getByText(/No compaction events/)).toBeInTheDocument();
    expect(screen.getByText(/built-in default rule applies/)).toBeInTheDocument();
  });

  it("prints JP's dry-run line for each previewed compaction", () => {
    renderTimeline();
    const output = screen.getByRole('region', { name: 'JP dry-run output' });
    // The previewed event covers stored turns 1..3 (shown as 2..4); JP prints them 0-based.
    expect(output).toHaveTextContent(/^Would compact turns 1\.\.=3$/);
  });

  it("prints one line per previewed compaction, and JP's words when there is none", () => {
    const { rerender } = renderTimeline({
      jpDryRun: ['Would compact turns 1..=3', 'Would compact turns 5..=6'],
    });
    const pre = () =>
      screen.getByRole('region', { name: 'JP dry-run output' }).querySelector('pre')?.textContent;
    expect(pre()?.split('\n')).toEqual(['Would compact turns 1..=3', 'Would compact turns 5..=6']);
    rerender(
      <Timeline
        timeline={[]}
        plans={[]}
        usesBuiltinRule={false}
        jpDryRun={['Nothing to compact.']}
        onReset={vi.fn()}
      />,
    );
    expect(pre()).toBe('Nothing to compact.');
  });
});
