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

/** How a line is drawn, so that no line hides another. */
export type ChartLineStyle = 'emphasised' | 'line' | 'dashed' | 'points' | 'band';

/** One line of the chart. */
export interface ChartLine {
  label: string;
  /** Per request; NaN where the line has no value (a request without recorded usage). */
  values: readonly number[];
  /** The chosen figures `emphasised` (thicker), a second `dashed`, what was recorded `points`, the prefix a `band`. */
  style: ChartLineStyle;
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

/**
 * The y axis's labels, all with the decimals their spacing needs (one
 * precision for the whole axis: `$0.10, $0.05, $0.00`, never `$0.10 … 0.0000`).
 */
export function formatTicks(
  measure: CostChartProps['measure'],
  ticks: readonly number[],
): string[] {
  const step = ticks.length > 1 ? Math.abs((ticks[1] as number) - (ticks[0] as number)) : 0;
  if (measure === 'tokens') {
    const thousands = ticks.some((tick) => Math.abs(tick) >= 1000);
    if (!thousands) return ticks.map((tick) => String(Math.round(tick)));
    const decimals = step > 0 ? Math.max(0, Math.min(3, -Math.floor(Math.log10(step / 1000)))) : 0;
    return ticks.map((tick) => `${(tick / 1000).toFixed(decimals)}k`);
  }
  const decimals = step > 0 ? Math.max(2, Math.min(6, -Math.floor(Math.log10(step)))) : 2;
  return ticks.map((tick) => `$${tick.toFixed(decimals)}`);
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
          values: (_self, ticks) => formatTicks(measure, ticks),
        },
      ],
      series: [
        {},
        ...lines.map((line, k) => {
          const colour = colours[k % colours.length] as string;
          return {
            label: line.label,
            stroke: colour,
            // A band and the recorded points draw no line of their own.
            width:
              line.style === 'emphasised'
                ? 2.5
                : line.style === 'band' || line.style === 'points'
                  ? 0
                  : 1.25,
            ...(line.style === 'dashed' ? { dash: [6, 4] } : {}),
            ...(line.style === 'band' ? { fill: `${colour}33` } : {}),
            // Points alone for the recorded figures; a gap where a request recorded none.
            ...(line.style === 'points'
              ? { points: { show: true, size: 5, fill: colour, stroke: colour } }
              : { points: { show: false } }),
          };
        }),
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
    [xs, ...lines.map((line) => line.values.map((v) => (Number.isNaN(v) ? null : v)))],
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
