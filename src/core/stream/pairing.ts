/**
 * Events that pair by id (a tool call and its response, an inquiry and its
 * answer), as the passes that compare ids read them: sanitize's repairs and
 * the replay's prompts. Each reads an element once, into a code and an id
 * number, and compares integers after: a long stream's elements and id
 * strings lie scattered through memory, and comparing two equal ids that
 * are different strings reads both.
 */
import type { JsonValue, StreamElement } from '../types.ts';
import { classifyElement } from './turns.ts';

/** An element's code: not a conversation event (never moved or changed by the repairs). */
export const NOT_CONVERSATION = 0;
export const TURN_START = 1;
export const CHAT_REQUEST = 2;
export const TOOL_REQUEST = 3;
export const TOOL_RESPONSE = 4;
export const INQUIRY_REQUEST = 5;
export const INQUIRY_RESPONSE = 6;
/** Any other conversation event. */
export const OTHER_EVENT = 7;

const EVENT_CODES = new Map<string, number>([
  ['turn_start', TURN_START],
  ['chat_request', CHAT_REQUEST],
  ['tool_call_request', TOOL_REQUEST],
  ['tool_call_response', TOOL_RESPONSE],
  ['inquiry_request', INQUIRY_REQUEST],
  ['inquiry_response', INQUIRY_RESPONSE],
]);

/** The element's code (above). */
export function getEventCode(element: StreamElement): number {
  if (classifyElement(element) !== 'conversation') return NOT_CONVERSATION;
  return EVENT_CODES.get(element.type as string) ?? OTHER_EVENT;
}

/** Whether events of `code` pair by id: tool calls and responses, inquiries and answers. */
export function isPairedCode(code: number): boolean {
  return code >= TOOL_REQUEST && code <= INQUIRY_RESPONSE;
}

/** The code each paired code pairs with (a request's response, and back). */
export function getPartnerCode(code: number): number {
  switch (code) {
    case TOOL_REQUEST:
      return TOOL_RESPONSE;
    case TOOL_RESPONSE:
      return TOOL_REQUEST;
    case INQUIRY_REQUEST:
      return INQUIRY_RESPONSE;
    case INQUIRY_RESPONSE:
      return INQUIRY_REQUEST;
    default:
      return NOT_CONVERSATION;
  }
}

/**
 * An id as the pairing compares it: a string id is its own key, any other
 * its JSON text, so the string "1" and the number 1 pair. Validation keeps
 * only string ids: a valid stream never has both.
 */
export function idKey(id: JsonValue | undefined): string {
  return typeof id === 'string' ? id : JSON.stringify(id ?? null);
}

/**
 * Each element's code and, for a paired event, its id's number: what the
 * passes that compare ids read, so a stream read once can be repaired and
 * examined without reading its element objects again.
 */
export interface PairingRead {
  /** `codes[i]`: element i's code (above). */
  codes: Uint8Array;
  /** `ids[i]`: a paired event's id, numbered by its key (`idKey`); 0 for any other element. */
  ids: Int32Array;
  /** How many distinct ids were numbered: every id number is below it. */
  idCount: number;
}

/** Reads element `index` into `codes` and `ids`; returns its code. */
export function readPairingAt(
  read: { codes: Uint8Array; ids: Int32Array },
  numbering: Numbering,
  element: StreamElement,
  index: number,
): number {
  const code = getEventCode(element);
  read.codes[index] = code;
  if (isPairedCode(code)) read.ids[index] = numbering.numberOf(idKey(element.id));
  return code;
}

/** Reads every element of the stream once, into codes and id numbers. */
export function readPairing(elements: readonly StreamElement[]): PairingRead {
  const read = { codes: new Uint8Array(elements.length), ids: new Int32Array(elements.length) };
  const numbering = createNumbering();
  for (let index = 0; index < elements.length; index++) {
    readPairingAt(read, numbering, elements[index] as StreamElement, index);
  }
  return { ...read, idCount: numbering.size() };
}

/** Gives each distinct string a number: 0, 1, 2… in the order first seen. */
export interface Numbering {
  numberOf(key: string): number;
  /** How many distinct strings were numbered. */
  size(): number;
}

export function createNumbering(): Numbering {
  const numbers = new Map<string, number>();
  return {
    numberOf(key) {
      let number = numbers.get(key);
      if (number === undefined) {
        number = numbers.size;
        numbers.set(key, number);
      }
      return number;
    },
    size: () => numbers.size,
  };
}
