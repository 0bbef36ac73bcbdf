/**
 * JP's timestamps (spec 1.2): read leniently, compared as instants at
 * nanosecond precision, written in the canonical `YYYY-MM-DD HH:MM:SS.f` form.
 */

/** Nanoseconds since the Unix epoch, UTC. */
export type Instant = bigint;

const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_MS = 1_000_000n;

// Rust's `char::is_whitespace` (Unicode White_Space), which chrono's
// `trim_start` uses; JavaScript's `\s` differs (it has U+FEFF, lacks U+0085).
const WS =
  '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*';

// chrono's `%Y-%m-%d %H:%M:%S%.f`: numeric fields may have 1 or 2 digits and
// whitespace may precede any numeric field; the fraction is optional. The
// year takes 1 to 4 digits unless it has an explicit sign, which lifts the
// limit (chrono's `%Y`), so `12345-01-01` does not read but `+12345-01-01` does.
const CHRONO_FORM = new RegExp(
  `^${WS}([+-]\\d+|\\d{1,4})-${WS}(\\d{1,2})-${WS}(\\d{1,2}) ${WS}(\\d{1,2}):${WS}(\\d{1,2}):${WS}(\\d{1,2})(?:\\.(\\d+))?$`,
);
// chrono's RFC 3339 reader also takes U+2212 MINUS SIGN before an offset.
const RFC3339_FORM =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+\-\u2212])(\d{2}):(\d{2}))$/;

// The years chrono's `NaiveDate` can hold; JavaScript's `Date` holds them all.
const MIN_YEAR = -262_143;
const MAX_YEAR = 262_142;

/**
 * The latest instant JP reads and writes back (chrono's `NaiveDateTime::MAX`
 * without a leap second): a time the playground makes up must not pass it,
 * or neither JP nor the playground could read it again.
 */
export const LATEST_READABLE_INSTANT: Instant = latestInstant();

function latestInstant(): Instant {
  const date = new Date(0);
  date.setUTCFullYear(MAX_YEAR, 11, 31);
  date.setUTCHours(23, 59, 59, 0);
  return BigInt(date.getTime()) * NANOS_PER_MS + (NANOS_PER_SECOND - 1n);
}

/**
 * Timestamps read so far. A stream's timestamps are read by several passes
 * (turns, sanitize, projection, the replay), each event's by each; reading
 * one (two regular expressions, a `Date`, BigInts) was a tenth of a run
 * over 100,000 events. Instants are immutable; the map is emptied when full.
 */
const parsedTimestamps = new Map<string, Instant | undefined>();
const PARSED_TIMESTAMPS_KEPT = 100_000;

/** The instant of a JP timestamp string, or `undefined` when JP could not read it. */
export function parseTimestamp(text: string): Instant | undefined {
  const known = parsedTimestamps.get(text);
  if (known !== undefined || parsedTimestamps.has(text)) return known;
  const instant = readTimestamp(text);
  if (parsedTimestamps.size >= PARSED_TIMESTAMPS_KEPT) parsedTimestamps.clear();
  parsedTimestamps.set(text, instant);
  return instant;
}

/** A timestamp read: its instant, and whether it was written as a leap second (`:60`). */
interface TimestampReading {
  instant: Instant;
  leap: boolean;
}

function readTimestamp(text: string): Instant | undefined {
  return readTimestampParts(text)?.instant;
}

function readTimestampParts(text: string): TimestampReading | undefined {
  const chrono = CHRONO_FORM.exec(text);
  if (chrono) return toInstant(chrono, 0);
  const rfc = RFC3339_FORM.exec(text);
  if (!rfc) return undefined;
  let offsetMinutes = 0;
  if (!rfc[8]) {
    const hours = Number(rfc[10]);
    const minutes = Number(rfc[11]);
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (rfc[9] === '+' ? 1 : -1) * (hours * 60 + minutes);
  }
  return toInstant(rfc, offsetMinutes);
}

/**
 * chrono reads second 60 as a leap second (`Parsed::to_naive_time`: second
 * 59 with a fraction of 1 s or more), at any hour and minute, and writes it
 * back as `:60`. Here it is the instant one second after `:59` plus its
 * fraction, the one chrono's `timestamp_nanos` gives: the next minute's
 * `:00.f`. chrono orders it just before that minute; this compares them
 * equal (docs/decisions.md).
 */
const LEAP_SECOND = 60;

function toInstant(m: RegExpExecArray, offsetMinutes: number): TimestampReading | undefined {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined
  ) {
    return undefined;
  }
  if (year < MIN_YEAR || year > MAX_YEAR) return undefined;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > LEAP_SECOND) {
    return undefined;
  }
  const leap = second === LEAP_SECOND;
  if (day > daysInMonth(year, month)) return undefined;
  // Digits past the ninth are ignored, as chrono does.
  const fraction = (m[7] ?? '').slice(0, 9).padEnd(9, '0');
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const millis = BigInt(date.getTime()) - BigInt(offsetMinutes) * 60_000n;
  return { instant: millis * NANOS_PER_MS + BigInt(fraction), leap };
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/** The canonical written form: fraction with trailing zeros removed, `.0` when zero. */
export function formatTimestamp(instant: Instant): string {
  let seconds = instant / NANOS_PER_SECOND;
  let nanos = instant % NANOS_PER_SECOND;
  if (nanos < 0n) {
    nanos += NANOS_PER_SECOND;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const fraction = nanos === 0n ? '0' : String(nanos).padStart(9, '0').replace(/0+$/, '');
  // chrono's `%Y`: years outside 0..=9999 carry an explicit sign (`-0001`, `+12345`).
  const year = date.getUTCFullYear();
  const yearText =
    year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 4)}`;
  return (
    `${yearText}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${fraction}`
  );
}

/**
 * Canonical forms written so far. Sanitize, the projection and the replay's
 * requests each write every event's timestamp, and writing one (a `Date`,
 * BigInt division, six paddings) cost a third of finding a stream's requests.
 * Emptied when full, as the instants are.
 */
const canonicalTimestamps = new Map<string, string>();

/**
 * A timestamp string rewritten in canonical form, or the input when it does
 * not parse. A leap second stays one, as chrono writes it (`23:59:60.5`).
 */
export function canonicalTimestamp(text: string): string {
  const known = canonicalTimestamps.get(text);
  if (known !== undefined) return known;
  const reading = readTimestampParts(text);
  const canonical =
    reading === undefined
      ? text
      : reading.leap
        ? formatTimestamp(reading.instant - NANOS_PER_SECOND).replace(/:59\.(\d+)$/, ':60.$1')
        : formatTimestamp(reading.instant);
  if (canonicalTimestamps.size >= PARSED_TIMESTAMPS_KEPT) canonicalTimestamps.clear();
  canonicalTimestamps.set(text, canonical);
  return canonical;
}

/** Converts whole or fractional seconds to nanoseconds, rounding to the nearest nanosecond. */
export function secondsToNanos(seconds: number): bigint {
  const whole = Math.trunc(seconds);
  const fraction = Math.round((seconds - whole) * 1e9);
  return BigInt(whole) * NANOS_PER_SECOND + BigInt(fraction);
}
