/**
 * Writing `events.json` in JP's on-disk shape (spec 1.1): two-space JSON with
 * a final newline, in storage form when asked, without recursion.
 */

import { getNumberText, holdsNumberTexts } from '../json/number-text.ts';
import type { Encoding, JsonObject, JsonValue, StreamElement } from '../types.ts';
import { encodeStorage } from './storage.ts';

/**
 * JP's on-disk text (spec 1.1): the elements as a JSON array indented by two
 * spaces, with a final newline, in storage form when `encoding` is `storage`.
 * Every element keeps its keys in the order it has. A stream read from a JP
 * file and written back unchanged is byte-identical, except for storage
 * values JP itself would re-encode (spec 1.4). Numbers keep the text they
 * were read with where JavaScript would write them differently (u64 integers,
 * `-0`, `1.50`; number-text.ts).
 */
export function writeEventsText(elements: readonly StreamElement[], encoding: Encoding): string {
  const output = encoding === 'storage' ? encodeStorage(elements) : elements;
  // The native serializer cannot print a number's original text.
  if (output.some(holdsNumberTexts)) return `${stringifyPretty(output)}\n`;
  try {
    return `${JSON.stringify(output, null, 2)}\n`;
  } catch {
    // The native serializer recurses and overflows the stack on very deep
    // nesting (a few thousand levels); the iterative one below does not.
    return `${stringifyPretty(output)}\n`;
  }
}

interface PrintFrame {
  /** The container being printed. */
  value: JsonObject | JsonValue[];
  /** Object keys to print, or `undefined` for an array. */
  keys: string[] | undefined;
  next: number;
  indent: string;
}

/**
 * Exactly `JSON.stringify(value, null, 2)`, without recursion (the fallback
 * for nesting too deep for the native serializer), except that numbers with
 * a kept text (number-text.ts) are printed as read.
 */
export function stringifyPretty(root: JsonValue | readonly JsonValue[]): string {
  const parts: string[] = [];
  const open = (
    value: JsonValue | readonly JsonValue[],
    indent: string,
  ): PrintFrame | undefined => {
    if (value === null || typeof value !== 'object') {
      parts.push(scalarText(value));
      return undefined;
    }
    const keys = Array.isArray(value)
      ? undefined
      : Object.keys(value).filter((key) => (value as JsonObject)[key] !== undefined);
    const size = keys === undefined ? (value as JsonValue[]).length : keys.length;
    if (size === 0) {
      parts.push(keys === undefined ? '[]' : '{}');
      return undefined;
    }
    parts.push(keys === undefined ? '[' : '{');
    return { value: value as JsonObject | JsonValue[], keys, next: 0, indent };
  };
  const stack: PrintFrame[] = [];
  const first = open(root, '');
  if (first) stack.push(first);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as PrintFrame;
    const size = frame.keys === undefined ? (frame.value as JsonValue[]).length : frame.keys.length;
    if (frame.next === size) {
      parts.push(`\n${frame.indent}${frame.keys === undefined ? ']' : '}'}`);
      stack.pop();
      continue;
    }
    const inner = `${frame.indent}  `;
    parts.push(frame.next === 0 ? `\n${inner}` : `,\n${inner}`);
    let child: JsonValue | undefined;
    let key: string | number = frame.next;
    if (frame.keys === undefined) {
      child = (frame.value as JsonValue[])[frame.next];
    } else {
      key = frame.keys[frame.next] as string;
      parts.push(`${JSON.stringify(key)}: `);
      child = (frame.value as JsonObject)[key];
    }
    frame.next++;
    const kept = typeof child === 'number' ? getNumberText(frame.value, key, child) : undefined;
    if (kept !== undefined) {
      parts.push(kept);
      continue;
    }
    const childFrame = open(child ?? null, inner);
    if (childFrame) stack.push(childFrame);
  }
  return parts.join('');
}

function scalarText(value: JsonValue): string {
  // JSON.stringify of a scalar cannot recurse; it also maps NaN and Infinity to null.
  return JSON.stringify(value) ?? 'null';
}
