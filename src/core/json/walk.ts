/**
 * Iterative walks over JSON values: arguments can nest as deep as JP reads
 * them, deeper than recursion is safe.
 */

import type { JsonObject, JsonValue } from '../types.ts';
import { carryNumberTexts } from './number-text.ts';
import { setOwn } from './values.ts';

interface MapFrame {
  source: JsonObject | JsonValue[];
  keys: string[] | undefined;
  next: number;
  copy: JsonObject | JsonValue[] | undefined;
  parent: MapFrame | undefined;
  keyInParent: string | number;
}

/**
 * Applies `transform` to every string leaf of a JSON value (keys excluded).
 * Copy-on-write: containers without a changed leaf are returned as they are.
 */
export function mapStringLeaves(root: JsonValue, transform: (value: string) => string): JsonValue {
  if (typeof root === 'string') return transform(root);
  if (root === null || typeof root !== 'object') return root;
  const frameOf = (
    source: JsonObject | JsonValue[],
    parent: MapFrame | undefined,
    keyInParent: string | number,
  ): MapFrame => ({
    source,
    keys: Array.isArray(source) ? undefined : Object.keys(source),
    next: 0,
    copy: undefined,
    parent,
    keyInParent,
  });
  const writable = (frame: MapFrame): JsonObject | JsonValue[] => {
    if (frame.copy === undefined) {
      frame.copy = Array.isArray(frame.source) ? frame.source.slice() : { ...frame.source };
      carryNumberTexts(frame.source, frame.copy);
    }
    return frame.copy;
  };
  const stack: MapFrame[] = [frameOf(root, undefined, 0)];
  let result: JsonValue = root;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as MapFrame;
    const size =
      frame.keys === undefined ? (frame.source as JsonValue[]).length : frame.keys.length;
    if (frame.next < size) {
      const key = frame.keys === undefined ? frame.next : (frame.keys[frame.next] as string);
      frame.next++;
      const child = (frame.source as Record<string | number, JsonValue>)[key] as JsonValue;
      if (typeof child === 'string') {
        const next = transform(child);
        if (next !== child) setOwn(writable(frame), key, next);
      } else if (child !== null && typeof child === 'object') {
        stack.push(frameOf(child, frame, key));
      }
      continue;
    }
    stack.pop();
    const done = frame.copy ?? frame.source;
    if (frame.parent === undefined) result = done;
    else if (frame.copy !== undefined) setOwn(writable(frame.parent), frame.keyInParent, done);
  }
  return result;
}

/** Calls `visit` for every string leaf of a JSON value (keys excluded), without recursion. */
export function forEachStringLeaf(root: JsonValue, visit: (value: string) => void): void {
  const pending: JsonValue[] = [root];
  while (pending.length > 0) {
    const value = pending.pop() as JsonValue;
    if (typeof value === 'string') visit(value);
    else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push(value[i] as JsonValue);
    } else if (value !== null && typeof value === 'object') {
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i--) pending.push(values[i] as JsonValue);
    }
  }
}
