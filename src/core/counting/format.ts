/**
 * Number formatting for people (counts, percentages, sizes), shared by the
 * page (status line, panes, messages), the CLI's tables and the core's
 * messages. One fixed locale: the labels are
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

const DOLLARS = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 4,
  maximumFractionDigits: 4,
});

/**
 * Dollars with four decimals, digits grouped as counts are: a request often
 * costs fractions of a cent, a folder thousands of dollars. 0.01234 →
 * "$0.0123", 1234.5 → "$1,234.5000".
 */
export function formatDollars(value: number): string {
  const rounded = Math.round(value * 10_000) / 10_000;
  return `${rounded < 0 ? '-' : ''}$${DOLLARS.format(Math.abs(rounded))}`;
}

/**
 * The headline saving: "Saved 1,234 tokens (12.3%)"; when compaction adds
 * tokens (a stripped line longer than what it replaced), "costs 3,000 more
 * tokens (2.0% more)", never "Saved -3,000". With `before`, it says what the
 * saving is out of: the next request's counted input, which a newcomer
 * would otherwise read as the whole session's. `carrier` names what
 * carries them when that is not one request (a workspace's conversations).
 */
export function formatSaving(
  tokens: number,
  percent: number,
  before?: number,
  carrier = 'the next request',
): string {
  const outOf = before === undefined ? '' : `${formatCount(before)} tokens ${carrier} would carry`;
  if (tokens < 0) {
    const more = `Compaction costs ${formatCount(-tokens)} more tokens (${formatPercent(-percent)} more)`;
    return outOf ? `${more} on top of the ${outOf}` : more;
  }
  const saved = `Saved ${formatCount(tokens)} tokens (${formatPercent(percent)})`;
  return outOf ? `${saved} of the ${outOf}` : saved;
}

/**
 * A saving inside a sentence: "saves 1,234 tokens" ("saved" in the past);
 * when compaction adds tokens, "costs 3,000 more tokens" ("cost"), never a
 * saving with a minus sign.
 */
export function formatSavedTokens(tokens: number, tense: 'present' | 'past'): string {
  if (tokens < 0) {
    return `${tense === 'present' ? 'costs' : 'cost'} ${formatCount(-tokens)} more tokens`;
  }
  return `${tense === 'present' ? 'saves' : 'saved'} ${formatCount(tokens)} tokens`;
}

/** "before → after", the way every before/after pair is shown. */
export function formatChange(before: number, after: number): string {
  return `${formatCount(before)} → ${formatCount(after)}`;
}

/**
 * What a megabyte is in a size: 1,000,000 (MB) or 1,048,576 (MiB), the same
 * unit the limit being described is defined in, so "10 MiB" names the limit
 * exactly.
 */
export type SizeUnit = 'MB' | 'MiB';

/**
 * A size for people, of whatever is measured (a file's bytes, a text's
 * characters): "2.3 MB" under ten, "12 MB" and "1,234 MB" from ten. With
 * `small` (the word for one unit, e.g. "characters"), sizes under a million
 * read "45 KB" from 10,000 and "1,234 characters" below.
 */
export function formatSize(amount: number, unit: SizeUnit = 'MB', small?: string): string {
  if (small !== undefined && amount < 1_000_000) {
    return amount >= 10_000
      ? `${formatCount(Math.round(amount / 1000))} KB`
      : `${formatCount(amount)} ${small}`;
  }
  const size = amount / (unit === 'MiB' ? 1024 * 1024 : 1_000_000);
  return `${size < 10 ? size.toFixed(1) : formatCount(Math.round(size))} ${unit}`;
}
