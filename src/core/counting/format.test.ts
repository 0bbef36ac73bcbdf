import { describe, expect, it } from 'vitest';
import { formatChange, formatCount, formatPercent } from './format.ts';

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

  it('writes a before/after pair with an arrow', () => {
    expect(formatChange(3198, 6)).toBe('3,198 → 6');
  });
});
