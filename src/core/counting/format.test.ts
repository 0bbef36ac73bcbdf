import { describe, expect, it } from 'vitest';
import {
  formatChange,
  formatCount,
  formatDollars,
  formatPercent,
  formatSaving,
  formatSize,
} from './format.ts';

describe('number formatting for people', () => {
  it('groups digits the same way for the page, the CLI and messages', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-12_345)).toBe('-12,345');
  });

  it('shows percentages with one decimal, and never "-0.0%"', () => {
    expect(formatPercent(68.04)).toBe('68.0%');
    expect(formatPercent(95.456)).toBe('95.5%');
    expect(formatPercent(-0.04)).toBe('0.0%');
    expect(formatPercent(-12.34)).toBe('-12.3%');
    expect(formatPercent(1234.5)).toBe('1,234.5%');
  });

  it('groups the digits of dollars as it groups counts, with four decimals (issue 43, item 26)', () => {
    expect(formatDollars(0.01234)).toBe('$0.0123');
    expect(formatDollars(1234.56789)).toBe('$1,234.5679');
    expect(formatDollars(-1_234_567.5)).toBe('-$1,234,567.5000');
    expect(formatDollars(999.99996)).toBe('$1,000.0000');
    expect(formatDollars(-0.00001)).toBe('$0.0000');
  });

  it('writes a before/after pair with an arrow', () => {
    expect(formatChange(3198, 6)).toBe('3,198 → 6');
  });

  it('writes sizes with one decimal under ten of the unit, whole and grouped from ten', () => {
    expect(formatSize(2_345_678)).toBe('2.3 MB');
    expect(formatSize(50_000_000)).toBe('50 MB');
    expect(formatSize(1_234_000_000)).toBe('1,234 MB');
    expect(formatSize(100_000)).toBe('0.1 MB');
    // MiB for the limits defined in MiB: 10,485,760 is exactly 10 MiB, 2,127,938 about 2.03.
    expect(formatSize(10_485_760, 'MiB')).toBe('10 MiB');
    expect(formatSize(2_127_938, 'MiB')).toBe('2.0 MiB');
  });

  it('names small sizes in KB or in the unit when asked to', () => {
    expect(formatSize(900, 'MB', 'characters')).toBe('900 characters');
    expect(formatSize(9_999, 'MB', 'characters')).toBe('9,999 characters');
    expect(formatSize(45_400, 'MB', 'characters')).toBe('45 KB');
    expect(formatSize(2_300_000, 'MB', 'characters')).toBe('2.3 MB');
  });
});

describe('the headline saving (issue 24)', () => {
  it('says a negative saving as what compaction costs, never "Saved -3,000"', () => {
    expect(formatSaving(3000, 12.34)).toBe('Saved 3,000 tokens (12.3%)');
    expect(formatSaving(-3000, -2)).toBe('Compaction costs 3,000 more tokens (2.0% more)');
    expect(formatSaving(0, 0)).toBe('Saved 0 tokens (0.0%)');
  });

  it('says what the saving is out of: the next request, not the session (issue 24, mislead 2)', () => {
    expect(formatSaving(118_109, 81.1, 145_628)).toBe(
      'Saved 118,109 tokens (81.1%) of the 145,628 tokens the next request would carry',
    );
    expect(formatSaving(-3000, -2, 150_000)).toBe(
      'Compaction costs 3,000 more tokens (2.0% more) on top of the 150,000 tokens the next request would carry',
    );
  });
});
