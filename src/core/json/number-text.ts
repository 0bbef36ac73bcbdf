/**
 * The original text of numbers JavaScript cannot write back as read.
 *
 * `JSON.parse` turns every number into a double: `18446744073709551615`
 * (u64::MAX) comes back as `18446744073709552000`, `-0` as `0`, `1.50` as
 * `1.5`. JP (serde_json) keeps u64 and i64 integers exactly, and `compact` and
 * `reset` write the user's stream back, so such numbers must keep their text.
 * Node 20 has no `JSON.parse` source access (`context.source`), so a scan of
 * the text finds each number whose text differs from JavaScript's own, and a
 * side table keyed by the container that holds it keeps that text; the
 * writer (stream/write.ts) prints it instead of the double. The values stay
 * plain JSON, so every reader of the elements sees the nearest double as
 * before. Copies that keep a number must carry its text ({@link carryNumberTexts}).
 *
 * A number beyond the double range (`1e400`) is what serde_json refuses
 * ("number out of range"); the scan returns where each one is.
 */

import type { JsonObject, JsonValue } from '../types.ts';
import { isJsonWhitespace, QUOTE, skipJsonString } from './scan.ts';
import { getOwn, isJsonObject } from './values.ts';

type Container = JsonObject | JsonValue[];

/** Number texts by container, then by key (object) or index (array). */
const numberTexts = new WeakMap<object, Map<string | number, string>>();
/** Top-level elements that hold a kept number text somewhere inside. */
const holders = new WeakSet<object>();

/** Where the scan is: one frame per open object or array. */
interface ScanFrame {
  isArray: boolean;
  /** The current element index (arrays). */
  index: number;
  /** The current key's span (objects); -1 before the first key. */
  keyStart: number;
  keyEnd: number;
  expectKey: boolean;
  /** The parsed container, resolved only when a number inside needs it. */
  container: Container | undefined;
}

/**
 * Scans `text`, which `JSON.parse` gave as `root`, and keeps the text of
 * every number JavaScript would write differently. Returns the offsets of
 * numbers beyond the double range (`1e400`, `-1e999`), which JP refuses.
 */
export function recordNumberTexts(text: string, root: JsonValue): number[] {
  const outOfRange: number[] = [];
  if (root === null || typeof root !== 'object') return outOfRange;
  const frames: ScanFrame[] = [];
  const resolve = (depth: number): Container | undefined => {
    const frame = frames[depth] as ScanFrame;
    if (frame.container !== undefined) return frame.container;
    if (depth === 0) {
      frame.container = root;
      return root;
    }
    const parent = resolve(depth - 1);
    const parentFrame = frames[depth - 1] as ScanFrame;
    const child = parent === undefined ? undefined : childOf(text, parent, parentFrame);
    frame.container =
      child !== null && typeof child === 'object' ? (child as Container) : undefined;
    return frame.container;
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isJsonWhitespace(code)) {
      i++;
      continue;
    }
    const top = frames[frames.length - 1];
    if (code === QUOTE) {
      const end = skipJsonString(text, i);
      if (top !== undefined && !top.isArray && top.expectKey) {
        top.keyStart = i;
        top.keyEnd = end;
        top.expectKey = false;
      }
      i = end;
      continue;
    }
    if (code === 0x7b || code === 0x5b) {
      frames.push({
        isArray: code === 0x5b,
        index: 0,
        keyStart: -1,
        keyEnd: -1,
        expectKey: code === 0x7b,
        container: undefined,
      });
      i++;
      continue;
    }
    if (code === 0x7d || code === 0x5d) {
      frames.pop();
      i++;
      continue;
    }
    if (code === 0x2c) {
      if (top?.isArray) top.index++;
      else if (top !== undefined) top.expectKey = true;
      i++;
      continue;
    }
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const start = i;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
      const token = text.slice(start, i);
      const value = Number(token);
      if (!Number.isFinite(value)) outOfRange.push(start);
      else if (String(value) !== token && top !== undefined) {
        const container = resolve(frames.length - 1);
        if (container !== undefined) {
          const key = top.isArray ? top.index : parseKey(text, top);
          keepNumberText(container, key, token);
          const element = frames.length >= 2 ? resolve(1) : undefined;
          if (element !== undefined) holders.add(element);
        }
      }
      continue;
    }
    // `:`, and the letters of true, false and null.
    i++;
  }
  return outOfRange;
}

function isNumberChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2e ||
    code === 0x65 ||
    code === 0x45
  );
}

function parseKey(text: string, frame: ScanFrame): string {
  return JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string;
}

function childOf(text: string, parent: Container, frame: ScanFrame): JsonValue | undefined {
  if (Array.isArray(parent)) return parent[frame.index];
  return getOwn(parent, parseKey(text, frame));
}

/**
 * Keeps `text` as what was written for the number at `container[key]`, for
 * a reader other than the JSON scan (TOML integers read as bigints).
 */
export function keepNumberText(container: object, key: string | number, text: string): void {
  let texts = numberTexts.get(container);
  if (texts === undefined) {
    texts = new Map();
    numberTexts.set(container, texts);
  }
  texts.set(key, text);
}

/**
 * The text read for the number at `container[key]`, when it differs from
 * JavaScript's and the value there is still the number read.
 */
export function getNumberText(
  container: object,
  key: string | number,
  value: number,
): string | undefined {
  const text = numberTexts.get(container)?.get(key);
  return text !== undefined && Object.is(Number(text), value) ? text : undefined;
}

/**
 * The integer at `container[key]` exactly: its kept digits when a double
 * could not hold them (a count past 2^53 read from a config), else `value`.
 */
export function getExactInteger(container: object, key: string | number, value: number): bigint {
  const text = getNumberText(container, key, value);
  return text !== undefined && /^-?[0-9]+$/.test(text) ? BigInt(text) : BigInt(value);
}

/**
 * Keeps `exact` as the text of the number at `container[key]` when the
 * double there is not it, so a message can quote it as written.
 */
export function keepExactInteger(container: object, key: string | number, exact: bigint): void {
  if (!Number.isSafeInteger(Number(exact)) || BigInt(Number(exact)) !== exact) {
    keepNumberText(container, key, String(exact));
  }
}

/** Whether a top-level element holds a number whose text must be written as read. */
export function holdsNumberTexts(element: JsonValue | undefined): boolean {
  return isJsonObject(element) && holders.has(element);
}

/** Gives `copy` the number texts of `source`, for copies that keep some of its values. */
export function carryNumberTexts(source: object, copy: object): void {
  const texts = numberTexts.get(source);
  if (texts !== undefined) numberTexts.set(copy, texts);
  if (holders.has(source)) holders.add(copy);
}
