import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DurationResult, formatDuration, parseDuration } from './duration.ts';

const S = 1_000_000_000n;

function nanos(result: DurationResult): bigint | string {
  return result.ok ? result.value : `error: ${result.message}`;
}

describe('parseDuration', () => {
  it.each([
    ['17nsec', 17n],
    ['17nanos', 17n],
    ['33ns', 33n],
    ['3usec', 3_000n],
    ['78us', 78_000n],
    ['163µs', 163_000n],
    ['31msec', 31_000_000n],
    ['31millis', 31_000_000n],
    ['6ms', 6_000_000n],
    ['3000s', 3000n * S],
    ['300sec', 300n * S],
    ['300secs', 300n * S],
    ['50seconds', 50n * S],
    ['1second', S],
    ['100m', 6000n * S],
    ['12min', 720n * S],
    ['12mins', 720n * S],
    ['1minute', 60n * S],
    ['7minutes', 420n * S],
    ['2h', 7200n * S],
    ['7hr', 25_200n * S],
    ['7hrs', 25_200n * S],
    ['1hour', 3600n * S],
    ['24hours', 86_400n * S],
    ['1day', 86_400n * S],
    ['2days', 172_800n * S],
    ['365d', 31_536_000n * S],
    ['1week', 604_800n * S],
    ['7weeks', 4_233_600n * S],
    ['104wks', 62_899_200n * S],
    ['100wk', 60_480_000n * S],
    ['52w', 31_449_600n * S],
    ['1month', 2_630_016n * S],
    ['3months', 7_890_048n * S],
    ['12M', 31_560_192n * S],
    ['1year', 31_557_600n * S],
    ['7years', 220_903_200n * S],
    ['15yrs', 473_364_000n * S],
    ['10yr', 315_576_000n * S],
    ['17y', 536_479_200n * S],
  ])('reads the unit table: %s', (text, expected) => {
    expect(nanos(parseDuration(text))).toBe(expected);
  });

  it('tells minutes from months by case', () => {
    expect(nanos(parseDuration('1m'))).toBe(60n * S);
    expect(nanos(parseDuration('1M'))).toBe(2_630_016n * S);
  });

  it.each([
    ['1h 30m', 5400n * S],
    ['1h30m', 5400n * S],
    ['5 h', 18_000n * S],
    ['  2h', 7200n * S],
    ['2h  ', 7200n * S],
    ['20 min 17 nsec ', 1200n * S + 17n],
    ['2h\t15m', 8100n * S],
    ['1h1h', 7200n * S],
  ])('accepts whitespace and joined components: %j', (text, expected) => {
    expect(nanos(parseDuration(text))).toBe(expected);
  });

  it.each([
    ['1.5h', 5400n * S],
    ['0.5s', 500_000_000n],
    ['0.001m', 60_000_000n],
    ['1.25 days', 108_000n * S],
    ['3.2s 0.456us', 3n * S + 200_000_000n + 456n],
    ['300.0s', 300n * S],
    ['1.234s0.345ms0.678us0ns', S + 234_345_678n],
    ['1.000000002s', S + 2n],
    ['0.0000000001m', 6n],
  ])('accepts fractions that come to whole units: %s', (text, expected) => {
    expect(nanos(parseDuration(text))).toBe(expected);
  });

  it.each([
    ['0.0005us', 'whole number of nanoseconds'],
    ['31.0000001ms', 'whole number of nanoseconds'],
    ['0.0001h', 'whole number of seconds'],
    ['1.00001d', 'whole number of seconds'],
    ['0.000123456789s', 'whole number of nanoseconds'],
  ])('rejects fractions finer than the unit allows: %s', (text, reason) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['5', 'no unit'],
    ['5 ', 'no unit'],
    ['1h 30', 'no unit'],
    ['5H', 'did you mean "h"'],
    ['2 fortnights', 'unknown unit "fortnights"'],
    ['-5h', 'no sign'],
    ['+5h', 'no sign'],
    ['h', 'expected a number'],
    ['1h,30m', 'unexpected ","'],
    ['5%', 'unexpected "%"'],
    ['.5h', 'expected a number'],
    ['5μs', 'unexpected "μ"'],
  ])('rejects %j', (text, reason) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });

  it('skips whitespace inside a number, as humantime 2.3.0 does', () => {
    expect(nanos(parseDuration('1 2h'))).toBe(12n * 3600n * S);
    expect(nanos(parseDuration('1 2 3 s'))).toBe(123n * S);
    expect(nanos(parseDuration('1. 5h'))).toBe(5400n * S);
    expect(nanos(parseDuration('1 .5 h'))).toBe(5400n * S);
    expect(nanos(parseDuration('1.5 5h'))).toBe(5580n * S);
    expect(nanos(parseDuration('1h 3 0m'))).toBe(5400n * S);
  });

  it.each([
    ['1.h', 'no digit after'],
    ['1.', 'no digit after'],
    ['1..s', 'no digit after'],
    ['1.5.5h', 'unexpected "."'],
  ])('needs a digit after the decimal point: %j', (text, reason) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });

  it('refuses any fraction of a nanosecond count, even a whole one', () => {
    for (const text of ['2.0ns', '17.5nsec', '5.1nanos', '0.0005ns']) {
      const result = parseDuration(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.message).toContain('takes no fraction');
    }
  });

  it('holds a fraction in 64 bits as humantime does: at most 19 digits, scaled to the unit', () => {
    // 19 digits: 10^10 / 10^19 s, and 10^10 × 10^9 still fits in a u64.
    expect(nanos(parseDuration('0.0000000010000000000s'))).toBe(1n);
    expect(parseDuration('0.00000000100000000000s').ok).toBe(false);
    // 5 × 10^15 × 3600 fits in a u64; 5 × 10^16 × 3600 does not.
    expect(nanos(parseDuration('1.5000000000000000h'))).toBe(5400n * S);
    expect(parseDuration('1.50000000000000000h').ok).toBe(false);
    // 5e10 ns per second overflows once scaled by 10^9, although the value is 1.5 s.
    expect(nanos(parseDuration('1.5000000000s'))).toBe(1_500_000_000n);
    expect(parseDuration('1.50000000000s').ok).toBe(false);
  });

  it('rejects numbers humantime cannot hold in 64 bits', () => {
    expect(parseDuration('100000000000000000000ns').ok).toBe(false);
    expect(parseDuration('100000000000000000us').ok).toBe(false);
    expect(parseDuration('100000000000000000000s').ok).toBe(false);
    expect(parseDuration('18446744073709551615s').ok).toBe(true);
  });
});

describe('formatDuration', () => {
  it.each([
    [0n, '0s'],
    [5400n * S, '1h 30m'],
    [172_800n * S, '2days'],
    [86_400n * S, '1day'],
    [9420n * S, '2h 37m'],
    [32_000_000n, '32ms'],
    [2_630_016n * S, '1month'],
    [31_557_600n * S * 2n + 2_630_016n * S * 3n, '2years 3months'],
    [S + 1_001_001n, '1s 1ms 1us 1ns'],
    [18_000n * S, '5h'],
  ])('%s ns is written %j', (value, expected) => {
    expect(formatDuration(value)).toBe(expected);
  });

  it('reads back what it writes', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 253_370_764_800n * S }), (value) => {
        expect(nanos(parseDuration(formatDuration(value)))).toBe(value);
      }),
    );
  });
});
