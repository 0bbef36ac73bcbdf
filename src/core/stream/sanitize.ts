/**
 * JP's repair of a stream before every provider request (spec 3.1): seven
 * steps, each on the result of the one before. Only conversation events are
 * removed or inserted; compactions, config deltas and unknown elements never
 * move or change. Works on storage-decoded elements.
 */

import type { JsonValue, StreamElement } from '../types.ts';
import {
  CHAT_REQUEST,
  INQUIRY_REQUEST,
  INQUIRY_RESPONSE,
  NOT_CONVERSATION,
  type PairingRead,
  readPairing,
  TOOL_REQUEST,
  TOOL_RESPONSE,
  TURN_START,
} from './pairing.ts';
import { canonicalTimestamp } from './timestamp.ts';

/** The content of the response sanitize gives an unanswered tool call (spec 3.1 step 3). */
export const INTERRUPTED_TOOL_CALL_CONTENT = 'Tool call was interrupted.';

/** The timestamp of a `turn_start` inserted before a non-conversation element (spec 3.1 step 7.3). */
const EPOCH_TIMESTAMP = '1970-01-01 00:00:00.0';

/**
 * Sanitizes a stream (spec 3.1). Pure: returns a new array; elements it keeps
 * are the same objects, and the ones it creates carry canonical timestamps
 * and JP's on-disk key order (`timestamp`, `type`, fields).
 */
export function sanitize(elements: readonly StreamElement[]): StreamElement[] {
  return sanitizeWithSources(elements).elements;
}

/** A sanitized stream, and where each of its elements comes from. */
export interface SanitizedStream {
  elements: StreamElement[];
  /** `sources[i]`: the input index of `elements[i]`, or -1 for one sanitize created. */
  sources: number[];
}

/**
 * Sanitizes a stream (spec 3.1) and says where each element comes from.
 * Each element is read once, into codes and id keys; the steps run on those
 * (on a long stream, every pass over the element objects is a pass through
 * memory), and the result is built once. `read`: that reading of these very
 * elements when the caller already holds it (the replay reads its stream
 * once for all its passes).
 */
export function sanitizeWithSources(
  elements: readonly StreamElement[],
  read: PairingRead = readPairing(elements),
): SanitizedStream {
  const length = elements.length;
  if (read.codes.length !== length) {
    throw new Error(`sanitize was given ${read.codes.length} codes for ${length} elements`);
  }
  const { codes, ids } = read;
  const firstRequest = codes.indexOf(CHAT_REQUEST);
  const kept = new Uint8Array(length).fill(1);
  // Step 1: remove every conversation event before the first `chat_request` but `turn_start`s.
  for (let index = 0; index < firstRequest; index++) {
    const code = codes[index] as number;
    if (code !== NOT_CONVERSATION && code !== TURN_START) kept[index] = 0;
  }
  const step: StepInput = { codes, ids, idCount: read.idCount, kept };
  // Step 2: remove every `tool_call_response` whose id no `tool_call_request` has.
  removeUnpaired(step, TOOL_RESPONSE, TOOL_REQUEST);
  // Step 3 (below) answers the requests whose id no response has after step 2.
  const answered = idsOf(step, TOOL_RESPONSE);
  // Step 4: remove every `inquiry_response` whose id no `inquiry_request` has.
  removeUnpaired(step, INQUIRY_RESPONSE, INQUIRY_REQUEST);
  // Step 5: remove every `inquiry_request` whose id no `inquiry_response` has (after step 4).
  removeUnpaired(step, INQUIRY_REQUEST, INQUIRY_RESPONSE);

  const list: StreamElement[] = [];
  const sources: number[] = [];
  for (let index = 0; index < length; index++) {
    if (!kept[index]) continue;
    const element = elements[index] as StreamElement;
    list.push(element);
    sources.push(index);
    // Step 3: insert an error response directly after every request that has none.
    if (codes[index] === TOOL_REQUEST && !answered[ids[index] as number]) {
      list.push({
        timestamp: canonicalOf(element.timestamp),
        type: 'tool_call_response',
        id: element.id ?? null,
        content: INTERRUPTED_TOOL_CALL_CONTENT,
        is_error: true,
      });
      sources.push(-1);
    }
  }
  const result = { elements: list, sources };
  // A created element is a tool response, a conversation event.
  const codeAt = (position: number) => {
    const source = sources[position] as number;
    return source < 0 ? TOOL_RESPONSE : (codes[source] as number);
  };
  trimTrailingEmptyTurn(result, codeAt);
  normalizeLeadingTurnStart(result, codeAt);
  return result;
}

function canonicalOf(timestamp: JsonValue | undefined): string {
  return typeof timestamp === 'string' ? canonicalTimestamp(timestamp) : EPOCH_TIMESTAMP;
}

/** The input as steps 1 to 5 read it: each element's code and id number, and whether it is kept so far. */
interface StepInput {
  codes: Uint8Array;
  ids: Int32Array;
  idCount: number;
  kept: Uint8Array;
}

/** 1 for each id number a kept event of `code` has. */
function idsOf({ codes, ids, idCount, kept }: StepInput, code: number): Uint8Array {
  const found = new Uint8Array(idCount);
  for (let index = 0; index < codes.length; index++) {
    if (kept[index] && codes[index] === code) found[ids[index] as number] = 1;
  }
  return found;
}

/** Steps 2, 4 and 5: remove every kept event of `code` whose id no kept event of `partner` has. */
function removeUnpaired(input: StepInput, code: number, partner: number): void {
  const partnerIds = idsOf(input, partner);
  const { codes, ids, kept } = input;
  for (let index = 0; index < codes.length; index++) {
    if (kept[index] && codes[index] === code && !partnerIds[ids[index] as number]) kept[index] = 0;
  }
}

/** Step 6: remove the last conversation event when it is a `turn_start` (once). */
function trimTrailingEmptyTurn(
  { elements, sources }: SanitizedStream,
  codeAt: (position: number) => number,
): void {
  for (let i = elements.length - 1; i >= 0; i--) {
    const code = codeAt(i);
    if (code === NOT_CONVERSATION) continue;
    if (code === TURN_START) {
      elements.splice(i, 1);
      sources.splice(i, 1);
    }
    return;
  }
}

/** Step 7: make the stream open with exactly one `turn_start` before its first `chat_request`. */
function normalizeLeadingTurnStart(
  stream: SanitizedStream,
  codeAt: (position: number) => number,
): void {
  const { elements, sources } = stream;
  // 7.1: nothing to normalise without an event other than turn_start.
  let any = false;
  for (let i = 0; i < elements.length && !any; i++) {
    const code = codeAt(i);
    any = code !== NOT_CONVERSATION && code !== TURN_START;
  }
  if (!any) return;

  let firstRequest = -1;
  for (let i = 0; i < elements.length && firstRequest < 0; i++) {
    if (codeAt(i) === CHAT_REQUEST) firstRequest = i;
  }
  if (firstRequest >= 0) {
    // 7.2: keep only the last of several turn_starts before the first chat_request.
    const leadingTurnStarts: number[] = [];
    for (let i = 0; i < firstRequest; i++) {
      if (codeAt(i) === TURN_START) leadingTurnStarts.push(i);
    }
    if (leadingTurnStarts.length > 1) {
      const removed = new Set(leadingTurnStarts.slice(0, -1));
      let write = 0;
      for (let read = 0; read < elements.length; read++) {
        if (removed.has(read)) continue;
        elements[write] = elements[read] as StreamElement;
        sources[write] = sources[read] as number;
        write++;
      }
      elements.length = write;
      sources.length = write;
    }
    // 7.3: a turn_start already opens the first request's turn.
    if (leadingTurnStarts.length > 0) return;
  }

  // Directly before the first chat_request, or at position 0 when there is none (-1).
  const position = Math.max(firstRequest, 0);
  const occupant = elements[position];
  const timestamp =
    occupant !== undefined && codeAt(position) !== NOT_CONVERSATION
      ? canonicalOf(occupant.timestamp)
      : EPOCH_TIMESTAMP;
  elements.splice(position, 0, { timestamp, type: 'turn_start' });
  sources.splice(position, 0, -1);
}
