/**
 * JP's repair of a stream before every provider request (spec 3.1): seven
 * steps, each on the result of the one before. Only conversation events are
 * removed or inserted; compactions, config deltas and unknown elements never
 * move or change. Works on storage-decoded elements.
 */

import type { JsonValue, StreamElement } from '../types.ts';
import { formatTimestamp, parseTimestamp } from './timestamp.ts';
import { classifyElement } from './turns.ts';

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
  let list = dropLeadingNonUserEvents(elements);
  // Step 2: remove every `tool_call_response` whose id no `tool_call_request` has.
  list = removeUnpaired(list, 'tool_call_response', 'tool_call_request');
  list = answerInterruptedToolCalls(list);
  // Step 4: remove every `inquiry_response` whose id no `inquiry_request` has.
  list = removeUnpaired(list, 'inquiry_response', 'inquiry_request');
  // Step 5: remove every `inquiry_request` whose id no `inquiry_response` has (after step 4).
  list = removeUnpaired(list, 'inquiry_request', 'inquiry_response');
  list = trimTrailingEmptyTurn(list);
  return normalizeLeadingTurnStart(list);
}

function isConversation(element: StreamElement): boolean {
  return classifyElement(element) === 'conversation';
}

function isEventOfType(element: StreamElement, type: string): boolean {
  return element.type === type && isConversation(element);
}

/** Ids are compared as JSON values; after validation they are strings. */
function idKey(id: JsonValue | undefined): string {
  return typeof id === 'string' ? id : JSON.stringify(id ?? null);
}

function canonicalOf(timestamp: JsonValue | undefined): string {
  if (typeof timestamp !== 'string') return EPOCH_TIMESTAMP;
  const instant = parseTimestamp(timestamp);
  return instant === undefined ? timestamp : formatTimestamp(instant);
}

/** Step 1: remove every conversation event before the first `chat_request` but `turn_start`s. */
function dropLeadingNonUserEvents(elements: readonly StreamElement[]): StreamElement[] {
  const firstRequest = elements.findIndex((e) => isEventOfType(e, 'chat_request'));
  if (firstRequest < 0) return elements.slice();
  return elements.filter(
    (element, index) =>
      index >= firstRequest || !isConversation(element) || element.type === 'turn_start',
  );
}

/** The `idKey`s of the conversation events of `type`. */
function idsOf(elements: readonly StreamElement[], type: string): Set<string> {
  const ids = new Set<string>();
  for (const element of elements) {
    if (isEventOfType(element, type)) ids.add(idKey(element.id));
  }
  return ids;
}

/** Steps 2, 4 and 5: remove every conversation event of `type` whose id no event of `partner` has. */
function removeUnpaired(elements: StreamElement[], type: string, partner: string): StreamElement[] {
  const partnerIds = idsOf(elements, partner);
  return elements.filter(
    (element) => !isEventOfType(element, type) || partnerIds.has(idKey(element.id)),
  );
}

/** Step 3: insert an error response directly after every request that has none. */
function answerInterruptedToolCalls(elements: StreamElement[]): StreamElement[] {
  const responseIds = idsOf(elements, 'tool_call_response');
  const result: StreamElement[] = [];
  for (const element of elements) {
    result.push(element);
    if (isEventOfType(element, 'tool_call_request') && !responseIds.has(idKey(element.id))) {
      result.push({
        timestamp: canonicalOf(element.timestamp),
        type: 'tool_call_response',
        id: element.id ?? null,
        content: INTERRUPTED_TOOL_CALL_CONTENT,
        is_error: true,
      });
    }
  }
  return result;
}

/** Step 6: remove the last conversation event when it is a `turn_start` (once). */
function trimTrailingEmptyTurn(elements: StreamElement[]): StreamElement[] {
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i] as StreamElement;
    if (!isConversation(element)) continue;
    if (element.type === 'turn_start') return [...elements.slice(0, i), ...elements.slice(i + 1)];
    return elements;
  }
  return elements;
}

/** Step 7: make the stream open with exactly one `turn_start` before its first `chat_request`. */
function normalizeLeadingTurnStart(elements: StreamElement[]): StreamElement[] {
  // 7.1: nothing to normalise without an event other than turn_start.
  if (!elements.some((e) => isConversation(e) && e.type !== 'turn_start')) return elements;

  let list = elements;
  let firstRequest = list.findIndex((e) => isEventOfType(e, 'chat_request'));
  if (firstRequest >= 0) {
    // 7.2: keep only the last of several turn_starts before the first chat_request.
    const leadingTurnStarts: number[] = [];
    for (let i = 0; i < firstRequest; i++) {
      if (isEventOfType(list[i] as StreamElement, 'turn_start')) leadingTurnStarts.push(i);
    }
    if (leadingTurnStarts.length > 1) {
      const removed = new Set(leadingTurnStarts.slice(0, -1));
      list = list.filter((_, index) => !removed.has(index));
      firstRequest -= removed.size;
    }
    // 7.3: a turn_start already opens the first request's turn.
    if (leadingTurnStarts.length > 0) return list;
  }

  // Directly before the first chat_request, or at position 0 when there is none (-1).
  const position = Math.max(firstRequest, 0);
  const occupant = list[position];
  const timestamp =
    occupant !== undefined && isConversation(occupant)
      ? canonicalOf(occupant.timestamp)
      : EPOCH_TIMESTAMP;
  const turnStart: StreamElement = { timestamp, type: 'turn_start' };
  return [...list.slice(0, position), turnStart, ...list.slice(position)];
}
