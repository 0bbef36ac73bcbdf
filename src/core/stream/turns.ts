/**
 * Turn numbering (spec 2): which 0-based turn every element belongs to, how
 * many turns a stream has, and which turn was active at a given instant.
 */

import type { ElementClass, JsonValue, StreamElement } from '../types.ts';
import { type Instant, parseTimestamp } from './timestamp.ts';

/** The `type` of every conversation event (spec 1.3). */
export const CONVERSATION_EVENT_TYPES: ReadonlySet<string> = new Set([
  'turn_start',
  'chat_request',
  'chat_response',
  'tool_call_request',
  'tool_call_response',
  'inquiry_request',
  'inquiry_response',
]);

/** Classifies an element by its `type` (spec 1.3). */
export function classifyElement(element: StreamElement): ElementClass {
  const type: JsonValue | undefined = element.type;
  if (typeof type !== 'string') return 'unknown';
  if (CONVERSATION_EVENT_TYPES.has(type)) return 'conversation';
  if (type === 'config_delta') return 'config_delta';
  if (type === 'compaction') return 'compaction';
  return 'unknown';
}

/** Whether the element is a conversation event (spec 1.3). */
export function isConversationEvent(element: StreamElement): boolean {
  return classifyElement(element) === 'conversation';
}

/** The turn index of every element, counting all elements (spec 2). */
export function assignTurns(elements: readonly StreamElement[]): number[] {
  return assignTurnsBy(
    elements.length,
    (i) => isConversationEvent(elements[i] as StreamElement),
    (i) => (elements[i] as StreamElement).type === 'turn_start',
  );
}

/**
 * The turn index of each of `length` elements (spec 2), from what is known
 * of element i: whether it is a conversation event, and whether it is a
 * `turn_start` (read only for conversation events). For callers that have
 * read the elements already (the replay's one pass).
 */
export function assignTurnsBy(
  length: number,
  isConversation: (i: number) => boolean,
  isTurnStart: (i: number) => boolean,
): number[] {
  const turns = new Array<number>(length);
  let turn = 0;
  let seen = false;
  for (let i = 0; i < length; i++) {
    const conversation = isConversation(i);
    if (conversation && seen && isTurnStart(i)) turn++;
    turns[i] = turn;
    if (conversation) seen = true;
  }
  return turns;
}

/** One more than the last conversation event's turn, or 0 when there is none (spec 2). */
export function countTurns(elements: readonly StreamElement[]): number {
  const turns = assignTurns(elements);
  for (let i = elements.length - 1; i >= 0; i--) {
    if (isConversationEvent(elements[i] as StreamElement)) return (turns[i] as number) + 1;
  }
  return 0;
}

/**
 * The instant at which each turn starts: the timestamp of its first
 * conversation event (`undefined` when that timestamp does not parse).
 */
export function getTurnStarts(elements: readonly StreamElement[]): (Instant | undefined)[] {
  const turns = assignTurns(elements);
  const starts: (Instant | undefined)[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i] as StreamElement;
    if (!isConversationEvent(element)) continue;
    const turn = turns[i] as number;
    if (seen.has(turn)) continue;
    seen.add(turn);
    starts[turn] =
      typeof element.timestamp === 'string' ? parseTimestamp(element.timestamp) : undefined;
  }
  return starts;
}

/**
 * The last turn whose start is at or before `instant` (spec 2). The scan stops
 * at the first turn that starts later, as JP's does.
 */
export function turnAtTime(
  turnStarts: readonly (Instant | undefined)[],
  instant: Instant,
): number | undefined {
  let found: number | undefined;
  for (let turn = 0; turn < turnStarts.length; turn++) {
    const start = turnStarts[turn];
    if (start === undefined) continue;
    if (start > instant) break;
    found = turn;
  }
  return found;
}
