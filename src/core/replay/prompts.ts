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
import {
  getToolInfo,
  isProviderVisible,
  isReasoningResponse,
  type KnownToolInfo,
  project,
} from '../compaction/projection.ts';
import type { Readings } from '../compaction/readings.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import type { ViewMode } from '../playground/types.ts';
import {
  getEventCode,
  getPartnerCode,
  isPairedCode,
  type PairingRead,
  readPairing,
  TOOL_REQUEST,
  TOOL_RESPONSE,
} from '../stream/pairing.ts';
import { sanitizeWithSources } from '../stream/sanitize.ts';
import { classifyElement } from '../stream/turns.ts';
import type { StreamElement } from '../types.ts';
import { type ElementFacts, getElementTokens } from './element-facts.ts';

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
  /** `cumulativeHidden[i]`: the hidden output the first i items carry (calibrated replays; else null). */
  cumulativeHidden: Float64Array | null;
  /**
   * `origins[i]`: item i's origin, in a column a cut's search reads without the items
   * (floats: a summary waiting for its turn's next event has the origin Infinity).
   */
  origins: Float64Array;
}

/** A request's prompt: a prefix of an epoch's view, or a list of its own. */
export interface Prompt {
  /** The view it is a prefix of; null when computed on its own. */
  view: EpochView | null;
  items: readonly PromptItem[];
  count: number;
  tokens: number;
  /** The hidden output its items carry (billed tokens; 0 unless calibrated). */
  hidden: number;
}

/** What is computed once per stream. */
export interface PromptContext {
  elements: readonly StreamElement[];
  /** What was read of each element, once (element-facts.ts). */
  facts: ElementFacts;
  /** The stream without compactions. */
  base: StreamElement[];
  /** The same reading of the base elements, at their base index (sanitize reads it). */
  baseRead: PairingRead;
  /** `baseOrigin[b]`: the stream index of base element b. */
  baseOrigin: Int32Array;
  /** `baseBefore[c]`: how many base elements come before stream index c. */
  baseBefore: Int32Array;
  /** The stream indexes of the compactions, in order. */
  compactionIndexes: number[];
  /** `unsettled[c]`: the cut before index c must be computed on its own. */
  unsettled: boolean[];
  view: ViewMode;
  readings: Readonly<Readings>;
  counter: TokenCounter;
  /**
   * `hidden[i]`: output the response starting at stream index i produced
   * but the transcript does not show, sent back with it in later prompts
   * (issue 40's calibrated model); null when the replay models none.
   */
  hidden: Float64Array | null;
  /**
   * The provider never receives earlier reasoning (Ollama's chat templates
   * drop it): reasoning responses count no tokens in a prompt, but stay in
   * it as items, so the cache compares the same elements.
   */
  withholdsReasoning: boolean;
  /** Step 3 of the repaired stream without compactions, worked out once (`getKnownToolInfo`). */
  knownTools?: { elements: readonly StreamElement[]; info: KnownToolInfo };
}

/** Prepares a stream, read once into `facts`, for prompts under one view, readings and counter. */
export function createPromptContext(
  elements: readonly StreamElement[],
  facts: ElementFacts,
  view: ViewMode,
  readings: Readonly<Readings>,
  counter: TokenCounter,
  hidden: Float64Array | null = null,
  withholdsReasoning = false,
): PromptContext {
  const length = elements.length;
  const { compactionIndexes } = facts;
  const baseLength = length - compactionIndexes.length;
  const base: StreamElement[] = new Array(baseLength);
  const baseOrigin = new Int32Array(baseLength);
  const baseBefore = new Int32Array(length + 1);
  const baseRead: PairingRead = {
    codes: new Uint8Array(baseLength),
    ids: new Int32Array(baseLength),
    idCount: facts.idCount,
  };
  let count = 0;
  let nextCompaction = 0;
  for (let index = 0; index < length; index++) {
    if (compactionIndexes[nextCompaction] === index) nextCompaction++;
    else {
      base[count] = elements[index] as StreamElement;
      baseOrigin[count] = index;
      baseRead.codes[count] = facts.codes[index] as number;
      baseRead.ids[count] = facts.ids[index] as number;
      count++;
    }
    baseBefore[index + 1] = count;
  }
  return {
    elements,
    facts,
    base,
    baseRead,
    baseOrigin,
    baseBefore,
    compactionIndexes,
    unsettled: findUnsettledCuts(facts, view),
    view,
    readings,
    counter,
    hidden,
    withholdsReasoning,
  };
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
function findUnsettledCuts(facts: ElementFacts, view: ViewMode): boolean[] {
  const { codes, ids, stringIds, names, firstChat, idCount } = facts;
  const length = codes.length;
  // marks[c] += 1 opens an unsettled range of cuts at c, marks[c] -= 1 closes it.
  const marks = new Int32Array(length + 2);
  const markCuts = (from: number, through: number) => {
    if (from > through) return;
    (marks[from] as number)++;
    (marks[through + 1] as number)--;
  };
  const perId = () => new Int32Array(idCount).fill(-1);

  if (view === 'sanitized') {
    markCuts(0, firstChat < 0 ? length : firstChat);
    // Tool and inquiry events before the first chat_request are dropped by step 1 whatever the cut.
    // Index by code: the first of each id among requests, responses, inquiries and answers.
    const first: Int32Array[] = [];
    for (let index = firstChat + 1; index < length; index++) {
      const code = codes[index] as number;
      if (!isPairedCode(code)) continue;
      first[code] ??= perId();
      const own = first[code];
      const id = ids[index] as number;
      if ((own[id] as number) < 0) own[id] = index;
    }
    // A tool response whose request comes later is removed from the cut only (step 2), a request
    // whose response comes later is answered in the cut only (step 3); steps 4 and 5 pair
    // inquiries alike.
    for (let index = 0; index < length; index++) {
      const code = codes[index] as number;
      if (!isPairedCode(code)) continue;
      const partner = first[getPartnerCode(code)]?.[ids[index] as number] ?? -1;
      if (partner > index) markCuts(index + 1, partner);
    }
  }
  // A response's tool name is the last request with its id (spec 4 step 3): it changes when a
  // request with that id comes after the response, under another name or as the first one.
  // Per string id: the first response, the first and last request, and the requests' name
  // (-2 once they carry more than one).
  const firstResponse = perId();
  const firstRequest = perId();
  const lastRequest = perId();
  const nameOf = perId();
  const RENAMED = -2;
  for (let index = 0; index < length; index++) {
    const code = codes[index] as number;
    if ((code !== TOOL_REQUEST && code !== TOOL_RESPONSE) || !stringIds[index]) continue;
    const id = ids[index] as number;
    if (code === TOOL_RESPONSE) {
      if ((firstResponse[id] as number) < 0) firstResponse[id] = index;
      continue;
    }
    const name = names[index] as number;
    const seen = nameOf[id] as number;
    nameOf[id] = seen === -1 || seen === name ? name : RENAMED;
    if ((firstRequest[id] as number) < 0) firstRequest[id] = index;
    lastRequest[id] = index;
  }
  for (let id = 0; id < idCount; id++) {
    const first = firstRequest[id] as number;
    if (first < 0) continue;
    const answered = firstResponse[id] as number;
    const response = answered < 0 ? Number.POSITIVE_INFINITY : answered;
    if (nameOf[id] === RENAMED) markCuts(Math.min(first, response) + 1, lastRequest[id] as number);
    else if (response < first) markCuts(response + 1, first);
  }

  const unsettled: boolean[] = new Array(length + 1);
  let open = 0;
  for (let cut = 0; cut <= length; cut++) {
    open += marks[cut] as number;
    unsettled[cut] = open > 0;
  }
  return unsettled;
}

/**
 * The provider view of the first `baseCount` base elements followed by
 * `compactions`, as prompt items.
 */
function viewItems(
  context: PromptContext,
  baseCount: number,
  compactions: readonly StreamElement[],
): PromptItem[] {
  const input =
    compactions.length === 0 && baseCount === context.base.length
      ? context.base
      : [...context.base.slice(0, baseCount), ...compactions];
  const repaired =
    context.view === 'sanitized'
      ? sanitizeWithSources(input, readInput(context, input, baseCount, compactions))
      : { elements: input, sources: input.map((_, index) => index) };
  const { facts, baseOrigin } = context;
  // Each repaired element's origin: a base element's stream index; a compaction, or an element
  // sanitize added, takes the one before it (an added response: its request's).
  const origins: number[] = new Array(repaired.elements.length);
  let previous = -1;
  const items: PromptItem[] = [];
  const withheld = (element: StreamElement) =>
    context.withholdsReasoning && isReasoningResponse(element);
  const add = (element: StreamElement, origin: number) => {
    if (!isProviderVisible(element)) return;
    const tokens = withheld(element) ? 0 : getElementTokens(element, context.counter);
    items.push({ element, origin, tokens });
  };
  repaired.elements.forEach((element, index) => {
    const source = repaired.sources[index] as number;
    const fromBase = source >= 0 && source < baseCount;
    const origin = fromBase ? (baseOrigin[source] as number) : previous;
    origins[index] = origin;
    previous = origin;
    // Projection without compactions is the identity (spec 4 step 0).
    if (compactions.length > 0) return;
    // A base element's facts were read with the stream's; one sanitize made is read here.
    if (!fromBase) add(element, origin);
    else if (facts.visible[origin]) {
      items.push({
        element,
        origin,
        tokens: withheld(element) ? 0 : (facts.tokens[origin] as number),
      });
    }
  });
  if (compactions.length === 0) return items;
  const projection = project(
    repaired.elements,
    context.readings,
    getKnownToolInfo(context, repaired.elements, compactions.length),
  );
  // An injected summary is emitted at its turn's first conversation event. When that is a
  // turn_start, a cut that ends right after it has no such turn (sanitize step 6 trims a
  // trailing turn_start), so the summary belongs to cuts past the next conversation event.
  const turnOrigin = new Map<number, number>();
  let waiting: number[] = [];
  repaired.elements.forEach((element, index) => {
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

/**
 * Step 3 of the repaired stream, when all that follows its first elements
 * is the compactions appended (the epochs' views): the pairing of tool
 * calls does not change with compactions, so it is worked out once per
 * stream, not once per set of compactions (a thousand sets on a long
 * session under `every-turn`). The repaired prefix must be the same
 * elements as the first time, checked by reference.
 */
function getKnownToolInfo(
  context: PromptContext,
  repaired: readonly StreamElement[],
  compactionCount: number,
): KnownToolInfo | undefined {
  const prefix = repaired.length - compactionCount;
  const known = context.knownTools;
  if (known && known.elements.length === prefix) {
    let same = true;
    for (let i = 0; i < prefix && same; i++) same = known.elements[i] === repaired[i];
    if (same) return known.info;
  }
  const elements = repaired.slice(0, prefix);
  const info: KnownToolInfo = {
    base: context.readings.base,
    tools: getToolInfo(elements, context.readings.base),
  };
  context.knownTools = { elements, info };
  return info;
}

/**
 * The pairing read of `input` (the first `baseCount` base elements, then
 * `compactions`), from the base's: compactions are no conversation events,
 * so they take no id.
 */
function readInput(
  context: PromptContext,
  input: readonly StreamElement[],
  baseCount: number,
  compactions: readonly StreamElement[],
): PairingRead {
  const { baseRead } = context;
  if (input === context.base) return baseRead;
  const codes = new Uint8Array(input.length);
  const ids = new Int32Array(input.length);
  codes.set(baseRead.codes.subarray(0, baseCount));
  ids.set(baseRead.ids.subarray(0, baseCount));
  for (let i = 0; i < compactions.length; i++) {
    const code = getEventCode(compactions[i] as StreamElement);
    if (isPairedCode(code)) return readPairing(input);
    codes[baseCount + i] = code;
  }
  return { codes, ids, idCount: baseRead.idCount };
}

/**
 * The view's running sums. A response's hidden output is carried by the
 * first item from the event it starts at: it goes when a compaction removes
 * that event, and stays while anything of it is sent.
 */
function withCumulative(items: PromptItem[], hidden: Float64Array | null): EpochView {
  const cumulative = [0];
  const origins = new Float64Array(items.length);
  const cumulativeHidden = hidden === null ? null : new Float64Array(items.length + 1);
  let total = 0;
  let totalHidden = 0;
  items.forEach((item, i) => {
    total += item.tokens;
    cumulative.push(total);
    origins[i] = item.origin;
    if (cumulativeHidden !== null) {
      if (item.origin >= 0 && (i === 0 || items[i - 1]?.origin !== item.origin)) {
        totalHidden += (hidden as Float64Array)[item.origin] ?? 0;
      }
      cumulativeHidden[i + 1] = totalHidden;
    }
  });
  return { items, cumulative, origins, cumulativeHidden };
}

function hiddenOf(view: EpochView, count: number): number {
  return view.cumulativeHidden === null ? 0 : (view.cumulativeHidden[count] as number);
}

/** The view of the whole stream under `compactions` (in the order they stand). */
export function buildEpochView(
  context: PromptContext,
  compactions: readonly StreamElement[],
): EpochView {
  return withCumulative(viewItems(context, context.base.length, compactions), context.hidden);
}

/** The prompt of the request whose run starts at stream index `cut`. */
export function getPrompt(
  context: PromptContext,
  epoch: EpochView,
  compactions: readonly StreamElement[],
  cut: number,
): Prompt {
  if (context.unsettled[cut]) {
    const own = withCumulative(
      viewItems(context, context.baseBefore[cut] as number, compactions),
      context.hidden,
    );
    return {
      view: null,
      items: own.items,
      count: own.items.length,
      tokens: own.cumulative[own.items.length] as number,
      hidden: hiddenOf(own, own.items.length),
    };
  }
  // Origins only grow along the view: find the first item from the cut on.
  let low = 0;
  let high = epoch.items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((epoch.origins[mid] as number) < cut) low = mid + 1;
    else high = mid;
  }
  return {
    view: epoch,
    items: epoch.items,
    count: low,
    tokens: epoch.cumulative[low] as number,
    hidden: hiddenOf(epoch, low),
  };
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

/** How many leading elements two prompts share, their tokens and the hidden output they carry. */
export function getCommonPrefix(
  previous: Prompt,
  current: Prompt,
  hidden: Float64Array | null = null,
): { count: number; tokens: number; hidden: number } {
  const limit = Math.min(previous.count, current.count);
  if (previous.view !== null && previous.view === current.view) {
    const view = previous.view;
    return {
      count: limit,
      tokens: view.cumulative[limit] as number,
      hidden: hiddenOf(view, limit),
    };
  }
  let count = 0;
  let tokens = 0;
  let hiddenTokens = 0;
  while (count < limit) {
    const a = previous.items[count] as PromptItem;
    const b = current.items[count] as PromptItem;
    if (a.element !== b.element && getCacheKey(a.element) !== getCacheKey(b.element)) break;
    tokens += b.tokens;
    if (hidden !== null && b.origin >= 0 && current.items[count - 1]?.origin !== b.origin) {
      hiddenTokens += hidden[b.origin] ?? 0;
    }
    count++;
  }
  return { count, tokens, hidden: hiddenTokens };
}
