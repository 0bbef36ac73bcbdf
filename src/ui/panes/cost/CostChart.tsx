/**
 * The cost pane's chart: one line per schedule, a point per request, drawn
 * by uPlot on a canvas (docs/decisions.md, issue 21: thousands of points
 * in a few milliseconds). The canvas is hidden from assistive technology:
 * the table under it holds the same figures.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** uPlot, loaded with the first chart: it reads the screen at import, and no other pane needs it. */
let loading: Promise<typeof uPlot> | null = null;
function loadUPlot(): Promise<typeof uPlot> {
  loading ??= import('uplot').then((module) => module.default);
  return loading;
}

import type { Theme } from '../../../state/app-state.ts';

/** One line of the chart. */
export interface ChartLine {
  label: string;
  values: readonly number[];
  /** The chosen schedule: drawn thicker. */
  emphasised: boolean;
}

/** Props of {@link CostChart}. */
export interface CostChartProps {
  lines: readonly ChartLine[];
  /** What the y axis counts. */
  measure: 'cost' | 'tokens';
  theme: Theme;
}

/** Line colours per theme, in schedule order; each keeps 3:1 contrast against its surface. */
export const CHART_COLOURS: Record<Theme, readonly string[]> = {
  light: ['#59636e', '#0b5cad', '#b35900', '#1a7f37', '#8250df'],
  dark: ['#9da7b3', '#58a6ff', '#f0883e', '#3fb950', '#bc8cff'],
};

const AXIS_COLOURS: Record<Theme, { text: string; grid: string }> = {
  light: { text: '#1b1f24', grid: '#d0d7de' },
  dark: { text: '#e6edf3', grid: '#343b45' },
};

const HEIGHT = 240;

function formatTick(measure: CostChartProps['measure'], value: number): string {
  if (measure === 'tokens') {
    return value >= 1000 ? `${Math.round(value / 100) / 10}k` : String(Math.round(value));
  }
  return `$${value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
}

/** Draws the lines into `element` (uPlot's own canvas and axes). */
function drawChart(
  UPlot: typeof uPlot,
  element: HTMLDivElement,
  { lines, measure, theme }: CostChartProps,
): uPlot {
  const count = lines[0]?.values.length ?? 0;
  const xs = Array.from({ length: count }, (_, k) => k + 1);
  const colours = CHART_COLOURS[theme];
  const axis = AXIS_COLOURS[theme];
  const axisStyle = {
    stroke: axis.text,
    grid: { stroke: axis.grid, width: 1 },
    ticks: { stroke: axis.grid, width: 1 },
  };
  element.dataset.drawn = '0';
  return new UPlot(
    {
      width: Math.max(element.clientWidth, 200),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false } },
      axes: [
        { ...axisStyle, label: 'request', size: 36, labelSize: 18 },
        {
          ...axisStyle,
          size: 56,
          values: (_self, ticks) => ticks.map((tick) => formatTick(measure, tick)),
        },
      ],
      series: [
        {},
        ...lines.map((line, k) => ({
          label: line.label,
          stroke: colours[k % colours.length] as string,
          width: line.emphasised ? 2.5 : 1.25,
          points: { show: false },
        })),
      ],
      hooks: {
        draw: [
          () => {
            element.dataset.drawn = String(count);
            globalThis.performance?.mark?.('replay-chart-drawn');
          },
        ],
      },
    },
    [xs, ...lines.map((line) => [...line.values])],
    element,
  );
}

/** The chart, redrawn when its lines, measure or theme change and resized with its box. */
export function CostChart({ lines, measure, theme }: CostChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    void loadUPlot().then((UPlot) => {
      if (cancelled) return;
      chart = drawChart(UPlot, element, { lines, measure, theme });
      plot.current = chart;
    });
    return () => {
      cancelled = true;
      chart?.destroy();
      plot.current = null;
    };
  }, [lines, measure, theme]);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const width = Math.max(element.clientWidth, 200);
      if (plot.current && plot.current.width !== width) {
        plot.current.setSize({ width, height: HEIGHT });
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return <div ref={box} className="cost-chart" aria-hidden="true" data-drawn="0" />;
}
