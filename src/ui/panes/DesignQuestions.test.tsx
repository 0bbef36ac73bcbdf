import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_READINGS } from '../../core/compaction/readings.ts';
import type { ReadingEffect } from '../../core/playground/types.ts';
import { fireEvent, render, screen, within } from '../../test/render.tsx';
import { DesignQuestions } from './DesignQuestions.tsx';

// The hand-made stream of design-questions.test.ts: 13.1's alternative changes four
// events (search omitted, fs no longer stripped), 13.2's two (search alone).
const EFFECTS: ReadingEffect[] = [
  { name: 'noToolCalls', value: 'apply', eventsAffected: 4, tokensDelta: -12 },
  { name: 'stacking', value: 'per-tool', eventsAffected: 2, tokensDelta: 1234 },
  { name: 'star', value: 'configured-only', eventsAffected: 0, tokensDelta: 0 },
  { name: 'summaryOverKeep', value: 'keep-survives', eventsAffected: 0, tokensDelta: 0 },
  { name: 'jp', value: 'today', eventsAffected: 1, tokensDelta: 5 },
];

function renderPanel(overrides: Partial<Parameters<typeof DesignQuestions>[0]> = {}) {
  const props = {
    readings: DEFAULT_READINGS,
    measuring: true,
    onMeasure: vi.fn(),
    effects: EFFECTS,
    diffReading: null,
    onShowDiff: vi.fn(),
    ...overrides,
  };
  render(<DesignQuestions {...props} />);
  return props;
}

const row = (key: string) =>
  screen
    .getByRole('table', { name: "D17's open questions" })
    .querySelector(`tr[data-reading="${key}"]`) as HTMLElement;

describe('the Design questions panel', () => {
  it('lists the four questions and JP today, with the reading in force and the other one', () => {
    renderPanel();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    // 15.0: base is listed first; 15.7.1 adds override-over.
    expect(rows.map((r) => r.getAttribute('data-reading'))).toEqual([
      'base',
      'no-tool-calls',
      'stacking',
      'star',
      'summary-over-keep',
      'override-over',
      'jp',
    ]);
    expect(row('no-tool-calls')).toHaveTextContent('13.1');
    expect(row('no-tool-calls')).toHaveTextContent('Inert (ruling)');
    expect(row('no-tool-calls')).toHaveTextContent('no-tool-calls=apply');
    expect(row('jp')).toHaveTextContent('JP with D17');
    expect(row('jp')).toHaveTextContent('jp=today');
  });

  it("says in words what each alternative changes: the events, and the next request's tokens (issue 24)", () => {
    renderPanel();
    expect(row('no-tool-calls')).toHaveTextContent(
      '4 events look different; the next request carries 12 tokens fewer.',
    );
    expect(row('stacking')).toHaveTextContent(
      '2 events look different; the next request carries 1,234 tokens more.',
    );
    expect(row('star')).toHaveTextContent(
      'no event looks different; the next request carries as many tokens.',
    );
    expect(row('jp')).toHaveTextContent(
      '1 event looks different; the next request carries 5 tokens more.',
    );
    expect(screen.getByRole('table')).not.toHaveTextContent('tokens after');
  });

  it('points each question to the example that shows its effect, and opens it', () => {
    const onOpenExample = vi.fn();
    renderPanel({
      examples: [
        { id: 'star-defaults', title: "'*' sets every tool's hint" },
        { id: 'hint-keep', title: 'keep: a plan survives a strip rule' },
      ],
      onOpenExample,
    });
    const star = within(row('star')).getByRole('button', { name: "'*' sets every tool's hint" });
    expect(row('star')).toHaveTextContent("See it in the example '*' sets every tool's hint.");
    fireEvent.click(star);
    expect(onOpenExample).toHaveBeenCalledWith('star-defaults');
    within(row('jp')).getByRole('button', { name: 'keep: a plan survives a strip rule' });
    // No example shows 15.0's effect: no pointer rather than a wrong one.
    expect(row('base')).not.toHaveTextContent('See it in');
  });

  it('names the alternative to the reading in force, whichever that is', () => {
    renderPanel({ readings: { ...DEFAULT_READINGS, stacking: 'per-tool' } });
    expect(row('stacking')).toHaveTextContent('Per tool');
    expect(row('stacking')).toHaveTextContent('stacking=per-turn');
  });

  it('opens and closes the diff of the two readings', () => {
    const props = renderPanel();
    fireEvent.click(within(row('stacking')).getByRole('button', { name: 'Show the diff' }));
    expect(props.onShowDiff).toHaveBeenCalledWith({ name: 'stacking', value: 'per-tool' });
    render(<DesignQuestions {...props} diffReading={{ name: 'stacking', value: 'per-tool' }} />);
    const close = screen.getByRole('button', { name: 'Close the diff' });
    expect(close).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(close);
    expect(props.onShowDiff).toHaveBeenLastCalledWith(null);
  });

  it('measures only when asked', () => {
    const props = renderPanel({ measuring: false, effects: [] });
    expect(row('stacking')).not.toHaveTextContent('different');
    fireEvent.click(screen.getByRole('button', { name: 'Measure every alternative here' }));
    expect(props.onMeasure).toHaveBeenCalledWith(true);
  });
});
