/**
 * What the replay reads of each element of its stream, read in one pass:
 * the finding of requests (requests.ts), the cuts whose prompt must be
 * computed on its own and the epoch views (prompts.ts) read these arrays,
 * not the element objects. On a long stream the objects, their id strings
 * and the token cache's entries lie scattered through memory, and each pass
 * over them costs a cache miss an element once the stream outgrows the
 * cache: one pass instead of five is what keeps the replay's cost per
 * request the same from a short conversation to a long one
 * (`tools/bench/replay.ts`). Nothing here restates a rule: each fact is
 * the answer of the function that owns it.
 */
import { isProviderVisible } from '../compaction/projection.ts';
import { getPayload } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import {
  type RecordedBy,
  type RecordedUsageResult,
  readRecordedBy,
} from '../import/recorded-usage.ts';
import {
  CHAT_REQUEST,
  createNumbering,
  isPairedCode,
  NOT_CONVERSATION,
  type PairingRead,
  readPairingAt,
  TOOL_REQUEST,
  TURN_START,
} from '../stream/pairing.ts';
import { assignTurnsBy, classifyElement } from '../stream/turns.ts';
import type { StreamElement } from '../types.ts';
import { getRecordedUsage } from './recorded-usage.ts';

/** Whether the element is assistant output, of which a request's run is made. */
export function isAssistantOutput(element: StreamElement): boolean {
  return element.type === 'chat_response' || element.type === 'tool_call_request';
}

// Elements are never mutated, and most stay the same objects from one view to the next.
const elementTokens = new WeakMap<TokenCounter, WeakMap<StreamElement, number>>();

/** An element's payload tokens (spec 14.4's counted part), cached per element and counter. */
export function getElementTokens(element: StreamElement, counter: TokenCounter): number {
  let byElement = elementTokens.get(counter);
  if (!byElement) {
    byElement = new WeakMap();
    elementTokens.set(counter, byElement);
  }
  let tokens = byElement.get(element);
  if (tokens === undefined) {
    const payload = getPayload(element);
    tokens = payload ? counter.tokens(payload.text) : 0;
    byElement.set(element, tokens);
  }
  return tokens;
}

/** Each element's facts, at its stream index. */
export interface ElementFacts extends PairingRead {
  /** 1 where a paired event's id is a string: the tool-name rule reads no other ids. */
  stringIds: Uint8Array;
  /** A tool request's name, numbered ('' when it has none). */
  names: Int32Array;
  /** The index of the first conversation `chat_request`, or -1. */
  firstChat: number;
  /** 1 where the element reaches the provider (spec 3). */
  visible: Uint8Array;
  /** 1 where it is assistant output a request's run is made of (provider-visible too). */
  output: Uint8Array;
  /** A provider-visible element's payload tokens (spec 14.4); 0 for any other. */
  tokens: Float64Array;
  /** Each element's raw 0-based turn (spec 2). */
  turns: number[];
  /** The stream indexes of the compactions, in order. */
  compactionIndexes: number[];
  /** The recorded usage of the events that carry any, valid or not, by stream index. */
  recorded: Map<number, RecordedUsageResult>;
  /** What recorded a response (runtime, version, model), on the events that say so, by stream index. */
  recordedBy: Map<number, RecordedBy>;
}

/** Reads every element of the stream once. */
export function readElementFacts(
  elements: readonly StreamElement[],
  counter: TokenCounter,
): ElementFacts {
  const length = elements.length;
  const read = { codes: new Uint8Array(length), ids: new Int32Array(length) };
  const idNumbers = createNumbering();
  const nameNumbers = createNumbering();
  const stringIds = new Uint8Array(length);
  const names = new Int32Array(length);
  const visible = new Uint8Array(length);
  const output = new Uint8Array(length);
  const tokens = new Float64Array(length);
  const compactionIndexes: number[] = [];
  const recorded = new Map<number, RecordedUsageResult>();
  const recordedBy = new Map<number, RecordedBy>();
  let firstChat = -1;
  for (let index = 0; index < length; index++) {
    const element = elements[index] as StreamElement;
    const code = readPairingAt(read, idNumbers, element, index);
    if (code === CHAT_REQUEST && firstChat < 0) firstChat = index;
    if (code === NOT_CONVERSATION && classifyElement(element) === 'compaction') {
      compactionIndexes.push(index);
    }
    if (isPairedCode(code) && typeof element.id === 'string') stringIds[index] = 1;
    if (code === TOOL_REQUEST) {
      names[index] = nameNumbers.numberOf(typeof element.name === 'string' ? element.name : '');
    }
    if (isProviderVisible(element)) {
      visible[index] = 1;
      tokens[index] = getElementTokens(element, counter);
      if (isAssistantOutput(element)) output[index] = 1;
    }
    const usage = getRecordedUsage(element);
    if (usage) recorded.set(index, usage);
    const by = readRecordedBy(element.metadata);
    if (by) recordedBy.set(index, by);
  }
  const { codes } = read;
  return {
    ...read,
    idCount: idNumbers.size(),
    stringIds,
    names,
    firstChat,
    visible,
    output,
    tokens,
    turns: assignTurnsBy(
      length,
      (i) => codes[i] !== NOT_CONVERSATION,
      (i) => codes[i] === TURN_START,
    ),
    compactionIndexes,
    recorded,
    recordedBy,
  };
}
