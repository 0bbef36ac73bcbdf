/**
 * Number formatting for people, shared by the page (status line, panes), the
 * CLI's tables and the core's messages. One fixed locale: the labels are
 * English, and figures compared side by side (the page against the CLI) must
 * group digits the same way.
 */

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const PERCENT = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A count with digit grouping: 12345 → "12,345"; negatives keep their sign. */
export function formatCount(value: number): string {
  return INTEGER.format(value);
}

/** A percentage with one decimal: 95.456 → "95.5%"; negatives keep their sign. */
export function formatPercent(value: number): string {
  // Avoid "-0.0%" for a saving that rounds to nothing.
  const rounded = Math.round(value * 10) / 10;
  return `${PERCENT.format(rounded === 0 ? 0 : rounded)}%`;
}

/** "before → after", the way every before/after pair is shown. */
export function formatChange(before: number, after: number): string {
  return `${formatCount(before)} → ${formatCount(after)}`;
}
