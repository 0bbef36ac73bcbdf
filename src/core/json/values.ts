/**
 * Small rules about JSON (and TOML) values that every concept folder shares:
 * what counts as an object, how a value is described in a message, own-property
 * reads and writes that never reach `Object.prototype` (keys such as
 * `constructor` or `__proto__` come from users' data), and the code-point order
 * JP's `BTreeMap` keys follow.
 */

import type { JsonObject, JsonValue } from '../types.ts';

/** `text` as a JSON value, or `undefined` when it is not JSON. */
export function parseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** A string with more than white space in it, else `undefined` (a name, a title, a description). */
export function getNonBlankString(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Whether a value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets an own property, even one named `__proto__` that users may write
 * (plain assignment would call the prototype's setter instead).
 */
export function setOwn<T>(target: Record<string, T> | T[], key: string | number, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    (target as Record<string | number, T>)[key] = value;
  }
}

/** Reads an own property only, so keys like `constructor` never reach the prototype. */
export function getOwn<T>(source: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}

/** Orders strings by code point, as Rust's `BTreeMap<String, _>` orders its keys. */
export function compareCodePoints(a: string, b: string): number {
  // UTF-16 units in order, without splitting either string: sorting 50,000 tool names
  // that way was a tenth of a run. Units order as code points except where a
  // surrogate pair meets a unit above it, so the first difference is read as the code
  // points that hold it (a pair starts one unit back when a high surrogate comes first).
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    const previous = i > 0 ? a.charCodeAt(i - 1) : 0;
    const start = previous >= 0xd800 && previous <= 0xdbff ? i - 1 : i;
    const difference = (a.codePointAt(start) as number) - (b.codePointAt(start) as number);
    // Both a lone high surrogate there: the code points that differ are the next ones.
    return difference !== 0
      ? difference
      : (a.codePointAt(i) as number) - (b.codePointAt(i) as number);
  }
  return a.length - b.length;
}

/** A short description of a TOML value's type for config messages: `a table`, `a boolean`. */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'bigint') return 'an integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  return typeof value;
}

/** How a JSON value is described in stream messages: `the string "x"`, `an array`. */
export function describeValue(value: JsonValue | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length <= 40 ? `the string ${JSON.stringify(value)}` : 'a string';
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    default:
      return 'an object';
  }
}

/** How a value is quoted in messages: strings in double quotes, the rest as JSON. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return String(value);
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Whether two JSON values hold the same data: objects compared by their own
 * keys in any order (a history written again may reorder them), arrays and
 * scalars as they are.
 */
export function isSameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => isSameJson(v, b[i]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && isSameJson(a[key], b[key]));
}
