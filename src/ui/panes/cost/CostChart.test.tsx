/**
 * The chart's readout and running total (issue 41), worked out by hand, and
 * its keyboard: the slider moves request by request and says each one's
 * figures in words.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatDollars } from '../../../core/counting/format.ts';
import { type ChartLine, CostChart, describeChartPoint, runningTotal } from './CostChart.tsx';

// uPlot needs a real canvas and matchMedia, which jsdom has not: a plot that draws nothing
// stands in (the drawing is the browser tests'); the readout and keys are the component's.
vi.mock('uplot', () => ({
  default: class {
    width = 0;
    destroy() {}
    setSize() {}
    setCursor() {}
    valToPos() {
      return 0;
    }
  },
}));

const LINES: ChartLine[] = [
  { label: 'baseline', values: [0.5, 0.25, 0.25], style: 'line' },
  { label: 'stored', values: [0.5, 0.125, 0.0625], style: 'emphasised' },
  { label: 'recorded', values: [0.5, Number.NaN, 0.0625], style: 'points' },
];

describe('the running total', () => {
  it('sums up to each request, a gap staying a gap', () => {
    expect(runningTotal([0.5, 0.25, 0.25])).toEqual([0.5, 0.75, 1]);
    expect(runningTotal([0.5, Number.NaN, 0.0625])).toEqual([0.5, Number.NaN, 0.5625]);
  });
});

describe('the readout', () => {
  it("says each line's value at the request, none at a gap, and what happened", () => {
    expect(describeChartPoint(LINES, 1, formatDollars, 'cold')).toBe(
      'Request 2: baseline $0.2500; stored $0.1250; recorded none. cold.',
    );
  });

  it('moves with the arrow keys, Home and End once the chart has focus', () => {
    render(
      <CostChart
        lines={LINES}
        measure="cost"
        theme="light"
        requestNotes={['cold', '', 'prefix broken']}
        formatValue={formatDollars}
      />,
    );
    const slider = screen.getByRole('slider', { name: 'Request on the chart' });
    const readout = screen.getByTestId('cost-readout');
    expect(readout.textContent).toMatch(/^Point at the chart/);
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(readout.textContent).toBe(
      'Request 1: baseline $0.5000; stored $0.5000; recorded $0.5000. cold.',
    );
    expect(slider.getAttribute('aria-valuenow')).toBe('1');
    fireEvent.keyDown(slider, { key: 'End' });
    expect(readout.textContent).toBe(
      'Request 3: baseline $0.2500; stored $0.0625; recorded $0.0625. prefix broken.',
    );
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(slider.getAttribute('aria-valuenow')).toBe('3');
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(slider.getAttribute('aria-valuetext')).toMatch(/^Request 1: /);
  });
});
