/**
 * Durations as JP reads and writes them: humantime 2.3.0's `parse_duration`
 * grammar and `format_duration` written form (spec 5). Values are whole
 * nanoseconds held in a bigint, so nothing is lost to floating point.
 */

/** A parsed duration in nanoseconds, or why the text is not one. */
export type DurationResult = { ok: true; value: bigint } | { ok: false; message: string };

const NANOS_PER_SECOND = 1_000_000_000n;
const U64_MAX = 2n ** 64n - 1n;

interface DurationUnit {
  /** The unit's length in nanoseconds. */
  nanos: bigint;
  /**
   * Humantime keeps units of an hour and longer in whole seconds, so a
   * fraction of them must come to whole seconds; shorter units, to whole ns.
   */
  fractionStep: bigint;
  /** Units below a second are counted in nanoseconds, the rest in seconds (overflow checks). */
  subSecond: boolean;
}

function unit(seconds: bigint, nanos: bigint, fractionStep: bigint): DurationUnit {
  return {
    nanos: seconds * NANOS_PER_SECOND + nanos,
    fractionStep,
    subSecond: seconds === 0n,
  };
}

const NANOSECOND = unit(0n, 1n, 1n);
const MICROSECOND = unit(0n, 1_000n, 1n);
const MILLISECOND = unit(0n, 1_000_000n, 1n);
const SECOND = unit(1n, 0n, 1n);
const MINUTE = unit(60n, 0n, 1n);
const HOUR = unit(3_600n, 0n, NANOS_PER_SECOND);
const DAY = unit(86_400n, 0n, NANOS_PER_SECOND);
const WEEK = unit(604_800n, 0n, NANOS_PER_SECOND);
const MONTH = unit(2_630_016n, 0n, NANOS_PER_SECOND);
const YEAR = unit(31_557_600n, 0n, NANOS_PER_SECOND);

/** Every spelling humantime accepts, case-sensitive (spec 5 unit table). */
const UNITS: ReadonlyMap<string, DurationUnit> = new Map([
  ['nanos', NANOSECOND],
  ['nsec', NANOSECOND],
  ['ns', NANOSECOND],
  ['usec', MICROSECOND],
  ['us', MICROSECOND],
  ['µs', MICROSECOND],
  ['millis', MILLISECOND],
  ['msec', MILLISECOND],
  ['ms', MILLISECOND],
  ['seconds', SECOND],
  ['second', SECOND],
  ['secs', SECOND],
  ['sec', SECOND],
  ['s', SECOND],
  ['minutes', MINUTE],
  ['minute', MINUTE],
  ['min', MINUTE],
  ['mins', MINUTE],
  ['m', MINUTE],
  ['hours', HOUR],
  ['hour', HOUR],
  ['hr', HOUR],
  ['hrs', HOUR],
  ['h', HOUR],
  ['days', DAY],
  ['day', DAY],
  ['d', DAY],
  ['weeks', WEEK],
  ['week', WEEK],
  ['wk', WEEK],
  ['wks', WEEK],
  ['w', WEEK],
  ['months', MONTH],
  ['month', MONTH],
  ['M', MONTH],
  ['years', YEAR],
  ['year', YEAR],
  ['yr', YEAR],
  ['yrs', YEAR],
  ['y', YEAR],
]);

const UNIT_HELP =
  'units are case-sensitive: ns, us, ms, s, m (minutes), h, d, w, M (months), y, ' +
  'or long forms such as "mins", "hours", "days"';

/** Rust's `char::is_whitespace` (Unicode White_Space), which humantime uses. */
function isWhitespace(char: string): boolean {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u.test(char);
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/** Letters that may make up a unit: humantime takes ASCII letters and the micro sign. */
function isUnitChar(char: string | undefined): boolean {
  return char !== undefined && /^[A-Za-z\u00b5]$/.test(char);
}

function fail(message: string): DurationResult {
  return { ok: false, message };
}

/**
 * Parses a duration with humantime 2.3.0's grammar (spec 5): one or more
 * components `<number><unit>`, whitespace before, between and inside
 * components, an optional decimal fraction that must come to whole
 * nanoseconds (whole seconds for hours and longer), no sign, case-sensitive
 * units. Returns the total in nanoseconds.
 *
 * Humantime's reader skips whitespace anywhere inside a number, so `"1 2h"`
 * is 12 hours and `"1. 5h"` is 1.5 hours; a `.` must be followed by a digit
 * (`"1.h"` is an error); a nanosecond count takes no fraction at all, not
 * even `"2.0ns"`; and a fraction's digits, scaled to the unit, must fit in 64
 * bits (at most 19 digits).
 */
export function parseDuration(text: string): DurationResult {
  // Iterate by code point, as Rust iterates `char`s.
  const chars = Array.from(text);
  let i = 0;
  const skipWhitespace = () => {
    while (i < chars.length && isWhitespace(chars[i] as string)) i++;
  };

  skipWhitespace();
  if (i >= chars.length) {
    return fail('a duration cannot be empty (write for example "5h" or "1h 30m")');
  }

  let total = 0n;
  while (i < chars.length) {
    const componentStart = i;
    if (!isDigit(chars[i])) {
      const found = chars[i] as string;
      const hint = found === '-' || found === '+' ? ' (a duration has no sign)' : '';
      return fail(`expected a number at "${chars.slice(i).join('')}"${hint}`);
    }
    // The number: digits, then optionally `.` and more digits; humantime
    // skips whitespace anywhere inside it, before the fraction or within it.
    let digits = '';
    let fraction: string | null = null;
    while (i < chars.length) {
      const char = chars[i] as string;
      if (isDigit(char)) {
        if (fraction === null) digits += char;
        else fraction += char;
      } else if (char === '.' && fraction === null) {
        fraction = '';
      } else if (!isWhitespace(char)) {
        break;
      }
      i++;
    }
    const number = chars.slice(componentStart, i).join('').trimEnd();
    if (fraction === '') {
      return fail(`"${number}" has no digit after its "." (write for example "1.5h", or "1h")`);
    }

    let unitName = '';
    while (isUnitChar(chars[i])) unitName += chars[i++];
    if (unitName === '') {
      if (i >= chars.length) {
        return fail(
          `the number ${number} has no unit (write for example "${number}s" or "${number}h")`,
        );
      }
      return fail(`unexpected "${chars[i]}" after ${number}: expected a unit (${UNIT_HELP})`);
    }
    const found = UNITS.get(unitName);
    if (!found) {
      const folded = [...UNITS.keys()].find(
        (name) => name.toLowerCase() === unitName.toLowerCase(),
      );
      const hint = folded ? `; did you mean "${folded}"?` : '';
      return fail(`unknown unit "${unitName}": ${UNIT_HELP}${hint}`);
    }

    const component = componentNanos(BigInt(digits), fraction, found);
    if (typeof component === 'string') return fail(`in "${number}${unitName}", ${component}`);
    total += component;
    if (total / NANOS_PER_SECOND > U64_MAX) return fail('the duration is too large');

    // A new component may follow the unit directly ("1h30m") or after whitespace.
    if (i < chars.length && !isDigit(chars[i])) {
      if (!isWhitespace(chars[i] as string)) {
        return fail(`unexpected "${chars[i]}" after "${number}${unitName}"`);
      }
      skipWhitespace();
    }
  }
  return { ok: true, value: total };
}

/** The nanoseconds of one component, or why it is not acceptable. */
function componentNanos(
  whole: bigint,
  fraction: string | null,
  found: DurationUnit,
): bigint | string {
  // Humantime reads the number as a u64 and multiplies it in u64: nanoseconds
  // for units below a second, seconds for the others.
  if (whole > U64_MAX) return 'the number is too large';
  const scaled = found.subSecond ? whole * found.nanos : whole * (found.nanos / NANOS_PER_SECOND);
  if (scaled > U64_MAX) return 'the number is too large';
  let nanos = whole * found.nanos;
  if (fraction !== null) {
    // Humantime refuses any fraction of a nanosecond count, even `.0`.
    if (found === NANOSECOND) return 'a nanosecond count takes no fraction';
    // The fraction is numerator / 10^digits, both held in a u64 as humantime
    // holds them, the numerator scaled to the unit: nanoseconds up to minutes,
    // seconds for hours and longer (`fractionStep`).
    if (fraction.length > 19) return 'the fraction has too many digits';
    const denominator = 10n ** BigInt(fraction.length);
    const numerator = BigInt(fraction) * (found.nanos / found.fractionStep);
    if (numerator > U64_MAX) return 'the fraction has too many digits';
    if (numerator % denominator !== 0n) {
      return found.fractionStep === 1n
        ? 'the fraction is not a whole number of nanoseconds'
        : 'the fraction is not a whole number of seconds (hours and longer units are counted in seconds)';
    }
    nanos += (numerator / denominator) * found.fractionStep;
  }
  return nanos;
}

/**
 * Humantime's written form of a duration (spec 5): the non-zero parts from
 * years down to nanoseconds, separated by single spaces; `"0s"` for zero.
 * Years, months and days are pluralised (`1year`, `2years`); the rest use
 * `h`, `m`, `s`, `ms`, `us`, `ns`.
 */
export function formatDuration(nanos: bigint): string {
  if (nanos <= 0n) return '0s';
  const seconds = nanos / NANOS_PER_SECOND;
  const subsecond = nanos % NANOS_PER_SECOND;

  const years = seconds / 31_557_600n;
  const yearRest = seconds % 31_557_600n;
  const months = yearRest / 2_630_016n;
  const monthRest = yearRest % 2_630_016n;
  const days = monthRest / 86_400n;
  const daySeconds = monthRest % 86_400n;

  const parts: string[] = [];
  const plural = (value: bigint, name: string) => {
    if (value > 0n) parts.push(`${value}${name}${value > 1n ? 's' : ''}`);
  };
  const plain = (value: bigint, name: string) => {
    if (value > 0n) parts.push(`${value}${name}`);
  };
  plural(years, 'year');
  plural(months, 'month');
  plural(days, 'day');
  plain(daySeconds / 3_600n, 'h');
  plain((daySeconds % 3_600n) / 60n, 'm');
  plain(daySeconds % 60n, 's');
  plain(subsecond / 1_000_000n, 'ms');
  plain((subsecond / 1_000n) % 1_000n, 'us');
  plain(subsecond % 1_000n, 'ns');
  return parts.join(' ');
}

/** Nanoseconds as seconds, fractional below a second. */
export function durationNanosToSeconds(nanos: bigint): number {
  return Number(nanos / NANOS_PER_SECOND) + Number(nanos % NANOS_PER_SECOND) / 1e9;
}
