/**
 * The prompt of each request, incrementally. A request's prompt is what the
 * report counts (spec 14.4): the provider view of the stream cut just before
 * it, sanitized when the view asks, projected with the compactions in
 * force. Computing that on every cut would be quadratic in the requests, so
 * a prompt is taken as a prefix of one view per set of compactions in force
 * (an "epoch"): the view of the whole stream with those compactions, each
 * element tagged with the stream index it comes from. The cut's prompt is
 * the elements from before the cut.
 *
 * That holds unless sanitize or the tool-name map would decide differently
 * on the cut than on the whole stream; those cuts are found up front
 * (`findUnsettledCuts`) and computed on their own, through the same
 * pipeline. Nothing here restates a rule: sanitize, project, the provider
 * filter and the payloads are imported.
 */
import { isProviderVisible, project } from '../compaction/projection.ts';
import type { Readings } from '../compaction/readings.ts';
import { getPayload } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import type { ViewMode } from '../playground/types.ts';
import { sanitize } from '../stream/sanitize.ts';
import { classifyElement } from '../stream/turns.ts';
import type { JsonValue, StreamElement } from '../types.ts';

/** One element of a prompt. */
export interface PromptItem {
  element: StreamElement;
  /** The stream index it comes from (a sanitize-added response: its request's). */
  origin: number;
  tokens: number;
}

/** The view of the whole stream under one set of compactions. */
export interface EpochView {
  items: PromptItem[];
  /** `cumulative[i]` is the tokens of the first i items. */
  cumulative: number[];
}

/** A request's prompt: a prefix of an epoch's view, or a list of its own. */
export interface Prompt {
  /** The view it is a prefix of; null when computed on its own. */
  view: EpochView | null;
  items: readonly PromptItem[];
  count: number;
  tokens: number;
}

/** What is computed once per stream. */
export interface PromptContext {
  elements: readonly StreamElement[];
  /** The stream without compactions, each element a distinct object. */
  base: StreamElement[];
  /** `baseBefore[c]`: how many base elements come before stream index c. */
  baseBefore: number[];
  originOf: Map<StreamElement, number>;
  /** `unsettled[c]`: the cut before index c must be computed on its own. */
  unsettled: boolean[];
  view: ViewMode;
  readings: Readonly<Readings>;
  counter: TokenCounter;
}

/** Prepares a stream for prompts under one view, readings and counter. */
export function createPromptContext(
  elements: readonly StreamElement[],
  view: ViewMode,
  readings: Readonly<Readings>,
  counter: TokenCounter,
): PromptContext {
  const base: StreamElement[] = [];
  const originOf = new Map<StreamElement, number>();
  const baseBefore: number[] = [0];
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as StreamElement;
    if (classifyElement(element) !== 'compaction') {
      // The same object twice would confuse the origin map: the second is a copy.
      const own = originOf.has(element) ? { ...element } : element;
      originOf.set(own, index);
      base.push(own);
    }
    baseBefore.push(base.length);
  }
  return {
    elements,
    base,
    baseBefore,
    originOf,
    unsettled: findUnsettledCuts(elements, view),
    view,
    readings,
    counter,
  };
}

function idKey(id: JsonValue | undefined): string {
  return typeof id === 'string' ? id : JSON.stringify(id ?? null);
}

/**
 * The cuts whose view is not the whole stream's view restricted to them:
 * - sanitized, a cut without the stream's first `chat_request` (steps 1 and 7
 *   decide differently); every cut when there is none;
 * - sanitized, a cut holding a tool response whose request comes later
 *   (step 2 removes it from the cut only), or a request whose response comes
 *   later (step 3 answers it in the cut only);
 * - a cut holding a tool response whose name (the last request with its id)
 *   a later request changes.
 */
function findUnsettledCuts(elements: readonly StreamElement[], view: ViewMode): boolean[] {
  const length = elements.length;
  // One pass reads the elements; the passes below read these compact arrays
  // (on a long stream, passes over the element objects themselves were
  // bound by memory, not by the work).
  const kinds = new Uint8Array(length); // NOT_PAIRED unless set
  const keys: string[] = new Array(length);
  let firstChat = -1;
  for (let index = 0; index < length; index++) {
    const element = elements[index] as StreamElement;
    const kind = element.type;
    if (typeof kind !== 'string' || classifyElement(element) !== 'conversation') continue;
    const code = EVENT_CODES.get(kind) ?? NOT_PAIRED;
    kinds[index] = code;
    if (code === CHAT_REQUEST && firstChat < 0) firstChat = index;
    if (code !== NOT_PAIRED && code !== CHAT_REQUEST) keys[index] = idKey(element.id);
  }
  // marks[c] += 1 opens an unsettled range of cuts at c, marks[c] -= 1 closes it.
  const marks = new Int32Array(length + 2);
  const markCuts = (from: number, through: number) => {
    if (from > through) return;
    (marks[from] as number)++;
    (marks[through + 1] as number)--;
  };

  if (view === 'sanitized') {
    markCuts(0, firstChat < 0 ? length : firstChat);
    // Tool and inquiry events before the first chat_request are dropped by step 1 whatever the cut.
    // Index by code: the first of each id among requests, responses, inquiries and answers.
    const first = PARTNER.map(() => new Map<string, number>());
    for (let index = firstChat + 1; index < length; index++) {
      const code = kinds[index] as number;
      if (code === NOT_PAIRED || code === CHAT_REQUEST) continue;
      const own = first[code] as Map<string, number>;
      const key = keys[index] as string;
      if (!own.has(key)) own.set(key, index);
    }
    // A tool response whose request comes later is removed from the cut only (step 2), a request
    // whose response comes later is answered in the cut only (step 3); steps 4 and 5 pair
    // inquiries alike.
    for (let index = 0; index < length; index++) {
      const code = kinds[index] as number;
      if (code === NOT_PAIRED || code === CHAT_REQUEST) continue;
      const partner = (first[PARTNER[code] as number] as Map<string, number>).get(
        keys[index] as string,
      );
      if (partner !== undefined && partner > index) markCuts(index + 1, partner);
    }
  }
  // A response's tool name is the last request with its id (spec 4 step 3): it changes when a
  // request with that id comes after the response, under another name or as the first one.
  const toolIds = new Map<
    string,
    { firstResponse?: number; first?: number; last?: number; names: Set<string> }
  >();
  for (let index = 0; index < length; index++) {
    const code = kinds[index] as number;
    if (code !== TOOL_REQUEST && code !== TOOL_RESPONSE) continue;
    const element = elements[index] as StreamElement;
    if (typeof element.id !== 'string') continue;
    let entry = toolIds.get(element.id);
    if (!entry) {
      entry = { names: new Set() };
      toolIds.set(element.id, entry);
    }
    if (code === TOOL_RESPONSE) {
      entry.firstResponse ??= index;
      continue;
    }
    entry.first ??= index;
    entry.last = index;
    entry.names.add(typeof element.name === 'string' ? element.name : '');
  }
  for (const entry of toolIds.values()) {
    if (entry.first === undefined || entry.last === undefined) continue;
    const response = entry.firstResponse ?? Number.POSITIVE_INFINITY;
    if (entry.names.size > 1) markCuts(Math.min(entry.first, response) + 1, entry.last);
    else if (response < entry.first) markCuts(response + 1, entry.first);
  }

  const unsettled: boolean[] = new Array(length + 1);
  let open = 0;
  for (let cut = 0; cut <= length; cut++) {
    open += marks[cut] as number;
    unsettled[cut] = open > 0;
  }
  return unsettled;
}

/** The paired event types by code, and each code's partner (a request's response, and back). */
const NOT_PAIRED = 0;
const TOOL_REQUEST = 1;
const TOOL_RESPONSE = 2;
const INQUIRY_REQUEST = 3;
const INQUIRY_RESPONSE = 4;
const CHAT_REQUEST = 5;
const EVENT_CODES = new Map<string, number>([
  ['tool_call_request', TOOL_REQUEST],
  ['tool_call_response', TOOL_RESPONSE],
  ['inquiry_request', INQUIRY_REQUEST],
  ['inquiry_response', INQUIRY_RESPONSE],
  ['chat_request', CHAT_REQUEST],
]);
const PARTNER = [NOT_PAIRED, TOOL_RESPONSE, TOOL_REQUEST, INQUIRY_RESPONSE, INQUIRY_REQUEST];

/** The provider view of `input` (base elements and compactions), as prompt items. */
function viewItems(
  context: PromptContext,
  input: StreamElement[],
  hasCompactions: boolean,
): PromptItem[] {
  const repaired = context.view === 'sanitized' ? sanitize(input) : input;
  // Each repaired element's origin; a sanitize-added one takes the element before it (its request).
  const origins: number[] = [];
  let previous = -1;
  for (const element of repaired) {
    const origin = context.originOf.get(element) ?? previous;
    origins.push(origin);
    previous = origin;
  }
  const items: PromptItem[] = [];
  const add = (element: StreamElement, origin: number) => {
    if (!isProviderVisible(element)) return;
    items.push({ element, origin, tokens: getElementTokens(element, context.counter) });
  };
  if (!hasCompactions) {
    // Projection without compactions is the identity (spec 4 step 0).
    repaired.forEach((element, index) => {
      add(element, origins[index] as number);
    });
    return items;
  }
  const projection = project(repaired, context.readings);
  // An injected summary is emitted at its turn's first conversation event. When that is a
  // turn_start, a cut that ends right after it has no such turn (sanitize step 6 trims a
  // trailing turn_start), so the summary belongs to cuts past the next conversation event.
  const turnOrigin = new Map<number, number>();
  let waiting: number[] = [];
  repaired.forEach((element, index) => {
    if (classifyElement(element) !== 'conversation') return;
    const origin = origins[index] as number;
    for (const turn of waiting) turnOrigin.set(turn, origin);
    waiting = [];
    const turn = projection.sources[index]?.turn as number;
    if (turnOrigin.has(turn)) return;
    if (element.type === 'turn_start' && context.view === 'sanitized') {
      turnOrigin.set(turn, Number.POSITIVE_INFINITY);
      waiting.push(turn);
    } else turnOrigin.set(turn, origin);
  });
  projection.elements.forEach((element, index) => {
    const trace = projection.projected[index];
    const origin =
      trace?.sourceIndex === null || trace === undefined
        ? (turnOrigin.get(trace?.rawTurn ?? -1) ?? -1)
        : (origins[trace.sourceIndex] as number);
    add(element, origin);
  });
  return items;
}

function withCumulative(items: PromptItem[]): EpochView {
  const cumulative = [0];
  let total = 0;
  for (const item of items) {
    total += item.tokens;
    cumulative.push(total);
  }
  return { items, cumulative };
}

/** The view of the whole stream under `compactions` (in the order they stand). */
export function buildEpochView(
  context: PromptContext,
  compactions: readonly StreamElement[],
): EpochView {
  const input = compactions.length === 0 ? context.base : [...context.base, ...compactions];
  return withCumulative(viewItems(context, input, compactions.length > 0));
}

/** The prompt of the request whose run starts at stream index `cut`. */
export function getPrompt(
  context: PromptContext,
  epoch: EpochView,
  compactions: readonly StreamElement[],
  cut: number,
): Prompt {
  if (context.unsettled[cut]) {
    const input = [...context.base.slice(0, context.baseBefore[cut]), ...compactions];
    const own = withCumulative(viewItems(context, input, compactions.length > 0));
    return {
      view: null,
      items: own.items,
      count: own.items.length,
      tokens: own.cumulative[own.items.length] as number,
    };
  }
  // Origins only grow along the view: find the first item from the cut on.
  let low = 0;
  let high = epoch.items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((epoch.items[mid] as PromptItem).origin < cut) low = mid + 1;
    else high = mid;
  }
  return { view: epoch, items: epoch.items, count: low, tokens: epoch.cumulative[low] as number };
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

const keys = new WeakMap<StreamElement, string>();

/** An element as the provider's cache compares it: stored JSON without `timestamp` and `author`. */
export function getCacheKey(element: StreamElement): string {
  let key = keys.get(element);
  if (key === undefined) {
    const { timestamp: _timestamp, author: _author, ...rest } = element;
    key = JSON.stringify(rest);
    keys.set(element, key);
  }
  return key;
}

/** How many leading elements two prompts share, and their tokens. */
export function getCommonPrefix(
  previous: Prompt,
  current: Prompt,
): { count: number; tokens: number } {
  const limit = Math.min(previous.count, current.count);
  if (previous.view !== null && previous.view === current.view) {
    return { count: limit, tokens: previous.view.cumulative[limit] as number };
  }
  let count = 0;
  let tokens = 0;
  while (count < limit) {
    const a = previous.items[count] as PromptItem;
    const b = current.items[count] as PromptItem;
    if (a.element !== b.element && getCacheKey(a.element) !== getCacheKey(b.element)) break;
    tokens += b.tokens;
    count++;
  }
  return { count, tokens };
}
