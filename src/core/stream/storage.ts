/**
 * The storage encoding of `events.json` (spec 1.4, 14.3): which strings JP
 * base64-encodes on disk, decoding them leniently as JP does, encoding them
 * back, and detecting which form a stream is in.
 */

import { carryNumberTexts } from '../json/number-text.ts';
import { isJsonObject, setOwn } from '../json/values.ts';
import { forEachStringLeaf, mapStringLeaves } from '../json/walk.ts';
import type { Encoding, JsonValue, StreamElement } from '../types.ts';
import { decodeBase64Strict, encodeBase64 } from './base64.ts';
import { classifyElement } from './turns.ts';

/**
 * Replaces every encodable string of a conversation event (spec 1.4) by
 * `transform(string)`. Returns the element itself when nothing changes, a
 * shallow copy with the changed fields otherwise.
 */
function transformStorageValues(
  element: StreamElement,
  transform: (value: string) => string,
): StreamElement {
  if (classifyElement(element) !== 'conversation') return element;
  let result = element;
  const replace = (field: string, next: JsonValue): void => {
    if (next === result[field]) return;
    if (result === element) {
      result = { ...element };
      carryNumberTexts(element, result);
    }
    setOwn(result, field, next);
  };
  if (element.metadata !== undefined) {
    replace('metadata', mapStringLeaves(element.metadata, transform));
  }
  if (element.type === 'tool_call_request' && element.arguments !== undefined) {
    replace('arguments', mapStringLeaves(element.arguments, transform));
  } else if (element.type === 'tool_call_response' && typeof element.content === 'string') {
    replace('content', transform(element.content));
  }
  return result;
}

/** Decodes a storage value, or gives `undefined` when JP would leave it as it is. */
export type StrictDecoder = (value: string) => string | undefined;

/**
 * A strict decoder that remembers its answers: reading a file detects,
 * decodes and lists undecoded values, and should decode each value once.
 */
export function createMemoizedDecoder(): StrictDecoder {
  const memo = new Map<string, string | undefined>();
  return (value) => {
    if (memo.has(value)) return memo.get(value);
    const decoded = decodeBase64Strict(value);
    memo.set(value, decoded);
    return decoded;
  };
}

export function decodeStorageWith(
  elements: readonly StreamElement[],
  decode: StrictDecoder,
): StreamElement[] {
  return elements.map((element) =>
    transformStorageValues(element, (value) => decode(value) ?? value),
  );
}

export function detectEncodingWith(
  elements: readonly StreamElement[],
  decode: StrictDecoder,
): Encoding {
  let counted = 0;
  let decodable = 0;
  const visit = (value: string): void => {
    if (value === '') return;
    counted++;
    if (decode(value) !== undefined) decodable++;
  };
  for (const element of elements) forEachStorageValue(element, visit);
  return decodable * 2 > counted ? 'storage' : 'plain';
}

/**
 * The elements with every storage value decoded where JP would decode it:
 * strict base64 whose bytes are UTF-8; anything else stays as it is (spec
 * 1.4). Pure: unchanged elements are shared, changed ones are copied.
 */
export function decodeStorage(elements: readonly StreamElement[]): StreamElement[] {
  return decodeStorageWith(elements, decodeBase64Strict);
}

/**
 * The elements in storage form: every encodable string base64-encoded,
 * whatever happened on read (spec 1.4). For a value that decoded on read this
 * gives back exactly the text read; a value that stayed undecoded is encoded
 * like any plain text. Pure: elements without storage values are shared.
 */
export function encodeStorage(elements: readonly StreamElement[]): StreamElement[] {
  return elements.map((element) => transformStorageValues(element, encodeBase64));
}

/**
 * Detects the encoding of raw elements (spec 14.3): `storage` when more than
 * half of the non-empty encodable leaves decode under the strict rule of 1.4,
 * `plain` otherwise (also when there is none).
 */
export function detectEncoding(elements: readonly StreamElement[]): Encoding {
  return detectEncodingWith(elements, decodeBase64Strict);
}

/** Calls `visit` for every encodable string of a conversation event (spec 1.4). */
function forEachStorageValue(element: StreamElement, visit: (value: string) => void): void {
  if (!isJsonObject(element) || classifyElement(element) !== 'conversation') return;
  if (element.metadata !== undefined) forEachStringLeaf(element.metadata, visit);
  if (element.type === 'tool_call_request' && element.arguments !== undefined) {
    forEachStringLeaf(element.arguments, visit);
  } else if (element.type === 'tool_call_response' && typeof element.content === 'string') {
    visit(element.content);
  }
}

/** Indices of the elements holding at least one storage value JP would not decode. */
export function listUndecodedElements(
  elements: readonly StreamElement[],
  decode: StrictDecoder,
): number[] {
  const indices: number[] = [];
  elements.forEach((element, index) => {
    let undecoded = false;
    forEachStorageValue(element, (value) => {
      if (!undecoded && decode(value) === undefined) undecoded = true;
    });
    if (undecoded) indices.push(index);
  });
  return indices;
}
