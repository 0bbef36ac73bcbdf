/**
 * Keys written twice in one JSON object. `JSON.parse` keeps the last value
 * without a word, so a write-back would drop the first (`"content":"SECRET",
 * "content":"hello"` → only `hello`). JP reads an event with serde's derived
 * structs, which refuse a duplicate field; its maps (`arguments`,
 * `metadata`) are `serde_json::Map`, which keeps the last value. The caller
 * decides what each depth means (docs/decisions.md, "Duplicate keys").
 */

import { BACKSLASH, QUOTE, skipJsonString } from './scan.ts';

/** One key written again in the same object. */
export interface DuplicateKey {
  /** The key as JSON reads it (escapes decoded). */
  key: string;
  /** Offsets of the repeated key's opening and closing quote (exclusive end). */
  start: number;
  end: number;
  /** Offset of the same key's first occurrence in that object. */
  firstStart: number;
  /** How deep the object is: the top-level array is 1, its elements are 2. */
  depth: number;
}

interface Level {
  /** The keys so far and their offsets, in pairs; null for an array. Most events have a few keys, so a list beats a Map. */
  keys: (string | number)[] | null;
  /** Built once an object has many keys. */
  index?: Map<string, number>;
  /** Whether the next string in this object is a key. */
  expectKey: boolean;
}

/**
 * Every repeated key in well-formed JSON `text`, in text order, at most
 * `limit` of them. Linear: strings are skipped whole, and a key is decoded
 * only when it holds an escape.
 */
export function findDuplicateKeys(text: string, limit = 1000): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Level[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = skipJsonString(text, i);
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        top.expectKey = false;
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes(String.fromCharCode(BACKSLASH))
          ? (JSON.parse(text.slice(i, end)) as string)
          : raw;
        const first = findKey(top, key);
        if (first === undefined) addKey(top, key, i);
        else {
          found.push({ key, start: i, end, firstStart: first, depth: stack.length });
          if (found.length >= limit) return found;
        }
      }
      i = end - 1;
    } else if (code === 0x7b) {
      stack.push({ keys: [], expectKey: true });
    } else if (code === 0x5b) {
      stack.push({ keys: null, expectKey: false });
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
    } else if (code === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
    }
  }
  return found;
}

/** Past this many keys, an object's keys are looked up in a Map. */
const LISTED_KEYS = 16;

function findKey(level: Level, key: string): number | undefined {
  if (level.index) return level.index.get(key);
  const keys = level.keys as (string | number)[];
  for (let k = 0; k < keys.length; k += 2) if (keys[k] === key) return keys[k + 1] as number;
  return undefined;
}

function addKey(level: Level, key: string, offset: number): void {
  if (level.index) {
    level.index.set(key, offset);
    return;
  }
  const keys = level.keys as (string | number)[];
  keys.push(key, offset);
  if (keys.length > LISTED_KEYS * 2) {
    level.index = new Map();
    for (let k = 0; k < keys.length; k += 2)
      level.index.set(keys[k] as string, keys[k + 1] as number);
  }
}
