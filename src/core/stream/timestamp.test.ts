import { describe, expect, it } from 'vitest';
import { canonicalTimestamp, formatTimestamp, parseTimestamp } from './timestamp.ts';

/** The canonical form of a timestamp, or `invalid` when JP could not read it. */
function read(text: string): string {
  const instant = parseTimestamp(text);
  return instant === undefined ? 'invalid' : formatTimestamp(instant);
}

describe('parseTimestamp: chrono %Y-%m-%d %H:%M:%S%.f (spec 1.2)', () => {
  it('reads 1-digit fields, skips whitespace before numeric fields, and makes the fraction optional', () => {
    expect(read('2025-7-1 0:0:0')).toBe('2025-07-01 00:00:00.0');
    expect(read(' 2025- 7- 1  0: 0: 5')).toBe('2025-07-01 00:00:05.0');
    expect(read('2025-07-01 00:00:00')).toBe('2025-07-01 00:00:00.0');
    expect(read('2025-07-01 00:00:00.500')).toBe('2025-07-01 00:00:00.5');
  });

  it('ignores fraction digits after the ninth', () => {
    expect(read('2025-07-01 00:00:00.1234567891234')).toBe('2025-07-01 00:00:00.123456789');
    expect(read('2025-07-01 00:00:00.0000000009')).toBe('2025-07-01 00:00:00.0');
  });

  it('range-checks every field, and a date that does not exist', () => {
    for (const text of [
      '2025-02-30 00:00:00',
      '2025-02-29 00:00:00',
      '2025-13-01 00:00:00',
      '2025-00-01 00:00:00',
      '2025-07-00 00:00:00',
      '2025-07-01 24:00:00',
      '2025-07-01 00:60:00',
      '2025-07-01 00:00:00.',
      '2025-07-01 00:00:00 ',
      '2025-07-01\t00:00:00',
      '2025-07-0100:00:00',
      '2025-007-01 00:00:00',
    ]) {
      expect(read(text), text).toBe('invalid');
    }
    expect(read('2024-02-29 23:59:59')).toBe('2024-02-29 23:59:59.0');
  });

  it('reads at most four year digits without a sign, any number with one (chrono %Y)', () => {
    expect(read('12345-07-01 00:00:00')).toBe('invalid');
    expect(read('+12345-07-01 00:00:00')).toBe('+12345-07-01 00:00:00.0');
    expect(read('+2025-07-01 00:00:00')).toBe('2025-07-01 00:00:00.0');
    expect(read('-0001-12-31 00:00:00')).toBe('-0001-12-31 00:00:00.0');
    expect(read('25-07-01 00:00:00')).toBe('0025-07-01 00:00:00.0');
  });

  it('refuses years chrono cannot hold instead of throwing', () => {
    expect(read('+262142-12-31 23:59:59')).toBe('+262142-12-31 23:59:59.0');
    expect(read('+262143-01-01 00:00:00')).toBe('invalid');
    expect(read('-262144-01-01 00:00:00')).toBe('invalid');
    expect(read('+999999999-01-01 00:00:00')).toBe('invalid');
    expect(read(`+${'9'.repeat(400)}-01-01 00:00:00`)).toBe('invalid');
  });

  it("skips Rust's whitespace, not JavaScript's", () => {
    // U+0085 is White_Space for Rust; U+FEFF is whitespace only for JavaScript's `\s`.
    expect(read('\u00852025-07-01 00:00:00')).toBe('2025-07-01 00:00:00.0');
    expect(read('\ufeff2025-07-01 00:00:00')).toBe('invalid');
  });
});

describe('leap seconds (chrono reads second 60; issue 43, item 17)', () => {
  it('reads second 60 in both forms, at any hour and minute, and no second past it', () => {
    expect(read('2016-12-31 23:59:60')).toBe('2017-01-01 00:00:00.0');
    expect(read('2025-07-01 12:34:60.25')).toBe('2025-07-01 12:35:00.25');
    expect(read('2016-12-31T23:59:60Z')).toBe('2017-01-01 00:00:00.0');
    expect(read('2025-07-01 00:00:61')).toBe('invalid');
    expect(read('2025-07-01T00:00:61Z')).toBe('invalid');
  });

  it('comes after the second before it', () => {
    const leap = parseTimestamp('2016-12-31 23:59:60') as bigint;
    expect(leap > (parseTimestamp('2016-12-31 23:59:59.999999999') as bigint)).toBe(true);
  });

  it('is written back as a leap second, as chrono writes it', () => {
    expect(canonicalTimestamp('2016-12-31 23:59:60.500')).toBe('2016-12-31 23:59:60.5');
    expect(canonicalTimestamp('2016-12-31 23:59:60')).toBe('2016-12-31 23:59:60.0');
    // An offset moves the hour, not the leap second.
    expect(canonicalTimestamp('2016-12-31T23:59:60.5-01:00')).toBe('2017-01-01 00:59:60.5');
    expect(canonicalTimestamp('+262142-12-31 23:59:60')).toBe('+262142-12-31 23:59:60.0');
  });
});

describe('parseTimestamp: RFC 3339 (spec 1.2)', () => {
  it('reads offsets, lowercase designators and a space separator', () => {
    expect(read('2025-07-01T02:00:00+02:00')).toBe('2025-07-01 00:00:00.0');
    expect(read('2025-07-01T00:00:00.5-01:30')).toBe('2025-07-01 01:30:00.5');
    expect(read('2025-07-01t00:00:00z')).toBe('2025-07-01 00:00:00.0');
    expect(read('2025-07-01 00:00:00.25Z')).toBe('2025-07-01 00:00:00.25');
  });

  it('takes U+2212 MINUS SIGN before an offset, as chrono does', () => {
    expect(read('2025-07-01T00:00:00\u221201:00')).toBe('2025-07-01 01:00:00.0');
  });

  it('needs an offset, two-digit fields and an offset inside ±23:59', () => {
    for (const text of [
      '2025-07-01T00:00:00',
      '2025-7-01T00:00:00Z',
      '2025-07-01T00:00:00+0200',
      '2025-07-01T00:00:00+24:00',
      '2025-07-01T00:00:00+01:60',
      '2025-07-01T24:00:00Z',
    ]) {
      expect(read(text), text).toBe('invalid');
    }
  });
});

describe('formatTimestamp', () => {
  it('writes the canonical form: trailing zeros removed, .0 when whole', () => {
    expect(canonicalTimestamp('2026-04-13 11:27:20.840410')).toBe('2026-04-13 11:27:20.84041');
    expect(canonicalTimestamp('2025-07-01 00:00:00.000')).toBe('2025-07-01 00:00:00.0');
    expect(canonicalTimestamp('not a timestamp')).toBe('not a timestamp');
  });

  it('signs years outside 0..=9999 as chrono %Y does, so they read back', () => {
    for (const text of [
      '-0001-01-01 00:00:00.0',
      '+10000-01-01 00:00:00.0',
      '0000-01-01 00:00:00.0',
    ]) {
      expect(read(text)).toBe(text);
    }
  });
});
