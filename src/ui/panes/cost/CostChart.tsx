/**
 * The cost pane's chart: one line per schedule, a point per request, drawn
 * by uPlot on a canvas (docs/decisions.md, issue 21: thousands of points
 * in a few milliseconds). The canvas is hidden from assistive technology;
 * the chart is a slider over the requests (issue 41): pointing at it, or
 * the arrow keys once it has focus, reads one request's figures out under
 * it, and the table under it holds them all.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
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
  /** What happened at each request (cold, compactions…), for the readout; empty for nothing. */
  requestNotes?: readonly string[];
  /** How a value reads in the readout (dollars or tokens). */
  formatValue?: (value: number) => string;
  /** The x of each point; 1, 2, 3… (the requests) when left out. */
  xs?: readonly number[];
  /** The x axis's label. */
  xLabel?: string;
  /** Point k in the readout ("Request 3"); the slider's name says what a point is. */
  pointLabel?: (k: number) => string;
  sliderLabel?: string;
  /** Opens point k (0-based): a click on the chart, Enter on the slider, or the readout's button. */
  onOpenPoint?: (k: number) => void;
  /** The readout button's words for point k. */
  openLabel?: (k: number) => string;
}

/** Each value replaced by the sum up to it; a gap (NaN) stays a gap and adds nothing. */
export function runningTotal(values: readonly number[]): number[] {
  let total = 0;
  return values.map((value) => {
    if (Number.isNaN(value)) return Number.NaN;
    total += value;
    return total;
  });
}

/** Point k's figures in words: each line's value (a gap says none), then what happened. */
export function describeChartPoint(
  lines: readonly ChartLine[],
  k: number,
  format: (value: number) => string,
  note = '',
  pointLabel: (k: number) => string = (at) => `Request ${at + 1}`,
): string {
  const values = lines.map((line) => {
    const value = line.values[k];
    return `${line.label} ${value === undefined || Number.isNaN(value) ? 'none' : format(value)}`;
  });
  return `${pointLabel(k)}: ${values.join('; ')}${note ? `. ${note}` : ''}.`;
}

/** The request a key moves to from `k` of `count` (0-based), or null for a key that moves nothing. */
function stepByKey(key: string, k: number | null, count: number): number | null {
  const from = k ?? -1;
  const clamp = (to: number) => Math.max(0, Math.min(count - 1, to));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(from + 1);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(k === null ? count - 1 : from - 1);
    case 'PageUp':
      return clamp(from + 10);
    case 'PageDown':
      return clamp(k === null ? count - 1 : from - 10);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
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
  { lines, measure, theme, xs: givenXs, xLabel = 'request' }: CostChartProps,
  onPoint: (k: number) => void,
): uPlot {
  const count = lines[0]?.values.length ?? 0;
  const xs = givenXs ? [...givenXs] : Array.from({ length: count }, (_, k) => k + 1);
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
      // A vertical line at the request pointed at (or picked by key); no drag-to-zoom.
      cursor: {
        show: true,
        y: false,
        points: { show: false },
        drag: { x: false, y: false, setScale: false },
      },
      scales: { x: { time: false } },
      axes: [
        { ...axisStyle, label: xLabel, size: 36, labelSize: 18 },
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
        setCursor: [
          (self) => {
            const k = self.cursor.idx;
            if (typeof k === 'number') onPoint(k);
          },
        ],
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
export function CostChart({
  lines,
  measure,
  theme,
  requestNotes = [],
  formatValue = String,
  xs,
  xLabel,
  pointLabel,
  sliderLabel = 'Request on the chart',
  onOpenPoint,
  openLabel = (k) => `Open request ${k + 1}'s prompt in the diff`,
}: CostChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const count = lines[0]?.values.length ?? 0;
  const shown = picked !== null && picked < count ? picked : null;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    void loadUPlot().then((UPlot) => {
      if (cancelled) return;
      chart = drawChart(UPlot, element, { lines, measure, theme, xs, xLabel }, setPicked);
      plot.current = chart;
    });
    return () => {
      cancelled = true;
      chart?.destroy();
      plot.current = null;
    };
  }, [lines, measure, theme, xs, xLabel]);

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

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && shown !== null && onOpenPoint) {
      event.preventDefault();
      onOpenPoint(shown);
      return;
    }
    const to = stepByKey(event.key, shown, count);
    if (to === null || count === 0) return;
    event.preventDefault();
    setPicked(to);
    // The cursor line follows the key, as it follows the pointer.
    const chart = plot.current;
    if (chart) chart.setCursor({ left: chart.valToPos(xs?.[to] ?? to + 1, 'x'), top: 0 });
  };

  const readout =
    shown === null
      ? `Point at the chart, or focus it and press the arrow keys, to read a point’s figures${onOpenPoint ? ' (a click or Enter opens its prompt in the diff)' : ''}.`
      : describeChartPoint(lines, shown, formatValue, requestNotes[shown] ?? '', pointLabel);
  return (
    <div className="cost-chart-frame">
      {/* The slider is the chart: its canvas is drawn for the eye, its value read in words. */}
      <div
        role="slider"
        tabIndex={0}
        aria-label={sliderLabel}
        aria-valuemin={1}
        aria-valuemax={Math.max(count, 1)}
        aria-valuenow={(shown ?? 0) + 1}
        aria-valuetext={readout}
        className="cost-chart-slider"
        onKeyDown={onKeyDown}
        // A click opens the point the cursor is on (the slider's Enter, for a pointer).
        onClick={onOpenPoint && shown !== null ? () => onOpenPoint(shown) : undefined}
      >
        <div ref={box} className="cost-chart" aria-hidden="true" data-drawn="0" />
      </div>
      <p className="cost-readout" data-testid="cost-readout" aria-live="polite">
        {readout}
        {onOpenPoint && shown !== null ? (
          <>
            {' '}
            <button type="button" className="link-button" onClick={() => onOpenPoint(shown)}>
              {openLabel(shown)}
            </button>
          </>
        ) : null}
      </p>
    </div>
  );
}
