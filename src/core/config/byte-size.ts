/**
 * JP main's SIZE (`ByteSize`, spec 15.2): a whole number of bytes from 0 to
 * 2^64 − 1, read from a JSON/TOML integer or a string with a binary unit,
 * and its written form. Exact over the whole range, so everything is a
 * `bigint`: a JavaScript number is not exact above 2^53.
 */
import { getNumberText } from '../json/number-text.ts';
import { describeType, showValue } from '../json/values.ts';

/** A size, or why the value is not one (the shape of rule-config's `ParseResult`). */
export type SizeResult = { ok: true; value: bigint } | { ok: false; message: string };

/** The largest SIZE: u64::MAX. */
export const MAX_BYTE_SIZE = 2n ** 64n - 1n;

const KB = 1024n;
const MB = KB * KB;
const GB = MB * KB;

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['', 1n],
  ['b', 1n],
  ['k', KB],
  ['kb', KB],
  ['kib', KB],
  ['m', MB],
  ['mb', MB],
  ['mib', MB],
  ['g', GB],
  ['gb', GB],
  ['gib', GB],
]);

/** Unicode White_Space, which Rust's `str::trim` removes (JavaScript's `trim` differs at U+FEFF and U+0085). */
const RUST_TRIM =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Rust's `str::trim`. */
export function trimRust(text: string): string {
  return text.replace(RUST_TRIM, '');
}

function fail(message: string): SizeResult {
  return { ok: false, message };
}

/** Reads a SIZE string with the grammar of 15.2. */
export function parseByteSizeText(text: string): SizeResult {
  const trimmed = trimRust(text);
  const digits = /^[0-9]*/.exec(trimmed)?.[0] ?? '';
  const shown = showValue(text);
  if (digits === '') return fail(`invalid size ${shown}: expected a leading byte count`);
  const count = BigInt(digits);
  if (count > MAX_BYTE_SIZE) return fail(`invalid size ${shown}: byte count out of range`);
  const unitText = trimRust(trimmed.slice(digits.length)).replace(/[A-Z]/g, (c) => c.toLowerCase());
  const unit = UNITS.get(unitText);
  if (unit === undefined) {
    return fail(
      `invalid size ${shown}: unknown unit ${showValue(unitText)}; write bytes, or KB, MB or GB (binary: 1KB = 1024 bytes)`,
    );
  }
  const bytes = count * unit;
  if (bytes > MAX_BYTE_SIZE)
    return fail(`invalid size ${shown}: value overflows (at most 2^64 − 1 bytes)`);
  return { ok: true, value: bytes };
}

/**
 * Reads a SIZE as a JSON or TOML value (15.2): a non-negative integer or a
 * string. `container` and `key`, when given, recover the exact text of a
 * JSON integer above 2^53 (number-text.ts).
 */
export function parseByteSize(value: unknown, container?: object, key?: string): SizeResult {
  if (typeof value === 'bigint') {
    return value < 0n ? fail('invalid size: size must be non-negative') : checkRange(value);
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      return fail(`invalid size ${value}: a size is a whole number of bytes`);
    if (value < 0) return fail(`invalid size ${value}: size must be non-negative`);
    const text =
      container !== undefined && key !== undefined
        ? getNumberText(container, key, value)
        : undefined;
    if (text !== undefined && /^[0-9]+$/.test(text)) return checkRange(BigInt(text));
    return checkRange(BigInt(value));
  }
  if (typeof value === 'string') return parseByteSizeText(value);
  return fail(
    `invalid size: got ${describeType(value)}; write a byte count or a string such as "1MB"`,
  );
}

function checkRange(bytes: bigint): SizeResult {
  return bytes > MAX_BYTE_SIZE
    ? fail(`invalid size ${bytes}: byte count out of range`)
    : { ok: true, value: bytes };
}

/** The written form (JP's `Display`, 15.2): the largest of GB, MB, KB that divides it, else its digits. */
export function formatByteSize(bytes: bigint): string {
  if (bytes > 0n) {
    for (const [unit, size] of [
      ['GB', GB],
      ['MB', MB],
      ['KB', KB],
    ] as const) {
      if (bytes >= size && bytes % size === 0n) return `${bytes / size}${unit}`;
    }
  }
  return String(bytes);
}

/** A SIZE for people, JP's dry-run style (15.8): one decimal, truncated (`10.3 MB`, `1.5 KB`, `512 B`). */
export function formatByteSizeForPeople(bytes: bigint): string {
  for (const [unit, size] of [
    ['GB', GB],
    ['MB', MB],
    ['KB', KB],
  ] as const) {
    if (bytes >= size) {
      const tenths = (bytes * 10n) / size;
      return `${tenths / 10n}.${tenths % 10n} ${unit}`;
    }
  }
  return `${bytes} B`;
}

/** The UTF-8 byte length of a string, without allocating. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
