/**
 * A runtime's own clearing run over the requests (issue 22): at each
 * request the policy sees the prompt as the client holds it (nothing
 * cleared), decides, and the prompt it leaves is compared with the previous
 * one's for the cache, through the same cost model as JP's schedules.
 * "A policy's decision applied to a prompt" is written here once
 * (`applyDecision`); the diff pane's request prompt reads the same run.
 */
import { buildToolNameMap, nameToolResponses } from '../compaction/projection.ts';
import type { StreamElement } from '../types.ts';
import { type Calibration, getPrefixTokens } from './calibrate.ts';
import {
  getRuntimePolicy,
  type PolicyChoice,
  type PolicyDecision,
  type PolicyItem,
  replacementKey,
} from './policies/policies.ts';
import { getCacheKey, getPrompt, type PromptItem } from './prompts.ts';
import { getView, type StreamState } from './stream-state.ts';
import type { RawRequest } from './types.ts';

/** A prompt entry as the cache compares it: an element, or what a policy put in its place. */
interface PolicyEntry {
  key: StreamElement | string;
  tokens: number;
  hidden: number;
}

function getPolicyKind(element: StreamElement): PolicyItem['kind'] {
  switch (element.type) {
    case 'chat_request':
      return 'user';
    case 'chat_response':
      return 'assistant';
    case 'tool_call_request':
      return 'call';
    case 'tool_call_response':
      return 'result';
    default:
      return 'other';
  }
}

/** The summary the prompt of a request holds: one made at this request is in force from the next; until then the one before stands. */
function getSummaryInForce(
  decision: PolicyDecision,
  previous: PolicyDecision | null,
  requestIndex: number,
): PolicyDecision['summary'] {
  return decision.summary && decision.summary.since < requestIndex
    ? decision.summary
    : (previous?.summary ?? null);
}

/** The prompt a decision leaves: the summary in force first, then every item it did not replace, replacements in place. */
function applyDecision(
  items: readonly PolicyItem[],
  decision: PolicyDecision,
  previous: PolicyDecision | null,
  requestIndex: number,
): PolicyEntry[] {
  const entries: PolicyEntry[] = [];
  const summary = getSummaryInForce(decision, previous, requestIndex);
  if (summary) entries.push({ key: `summary:${summary.since}`, tokens: summary.tokens, hidden: 0 });
  for (const item of items) {
    if (summary && item.origin <= summary.through) continue;
    const key = replacementKey(item.origin, item.kind);
    const replacement = decision.replaced.get(key);
    entries.push(
      replacement
        ? {
            key: `${key}:${replacement.what}:${replacement.tokens}`,
            tokens: replacement.tokens,
            hidden: item.hidden,
          }
        : { key: item.element, tokens: item.tokens, hidden: item.hidden },
    );
  }
  return entries;
}

function getEntriesPrefix(
  previous: readonly PolicyEntry[],
  current: readonly PolicyEntry[],
): { count: number; tokens: number; hidden: number } {
  const limit = Math.min(previous.length, current.length);
  let count = 0;
  let tokens = 0;
  let hidden = 0;
  while (count < limit) {
    const a = (previous[count] as PolicyEntry).key;
    const b = (current[count] as PolicyEntry).key;
    const same =
      a === b ||
      (typeof a !== 'string' && typeof b !== 'string' && getCacheKey(a) === getCacheKey(b));
    if (!same) break;
    tokens += (current[count] as PolicyEntry).tokens;
    hidden += (current[count] as PolicyEntry).hidden;
    count++;
  }
  return { count, tokens, hidden };
}

/** What a runtime policy decided and the prompt it left, per request. */
export interface PolicyRun {
  raw: RawRequest[];
  decisions: PolicyDecision[];
}

/** Request `through`'s prompt as a policy left it (the diff pane's per-request view). */
export interface PolicyPromptSeen {
  items: PolicyItem[];
  decision: PolicyDecision;
  summary: PolicyDecision['summary'];
}

/**
 * The tool names of the prompt's items: a call's own, a result's its
 * call's as the projection pairs them under the chosen base (the savings
 * table's names), so a policy's tool lists act on the tools it shows.
 */
function getItemTool(
  item: PromptItem,
  names: ReadonlyMap<StreamElement, string | null>,
  byId: ReadonlyMap<string, string>,
): string | null {
  const { element } = item;
  if (element.type === 'tool_call_request') {
    return typeof element.name === 'string' ? element.name : null;
  }
  if (element.type !== 'tool_call_response') return null;
  const named = names.get(element);
  if (named !== undefined) return named;
  // A response sanitize added answers its request: the request's name.
  return typeof element.id === 'string' ? (byId.get(element.id) ?? null) : null;
}

/** Names the tool of a prompt's items of this stream (`getItemTool`), reading the stream once. */
export function createItemToolNamer(state: StreamState): (item: PromptItem) => string | null {
  const names = nameToolResponses(state.elements, state.settings.readings.base);
  const byId = buildToolNameMap(state.elements);
  return (item) => getItemTool(item, names, byId);
}

/**
 * Runs a runtime's policy over the requests: the same prompts, counter and
 * cache model as the schedules. The policy's triggers see the billed prompt
 * (the calibration's prefix and factor), as the runtime counts it. With
 * `through`, stops after that request (0-based) and hands its items and
 * decision to `seen`.
 */
export function runPolicy(
  state: StreamState,
  choice: PolicyChoice,
  calibration: Calibration,
  contextWindow: number,
  through?: { index: number; seen: (prompt: PolicyPromptSeen) => void },
): PolicyRun {
  const policy = getRuntimePolicy(choice.name);
  const raw: RawRequest[] = [];
  const decisions: PolicyDecision[] = [];
  if (!policy) return { raw, decisions };
  const view = getView(state, []);
  const hidden = state.context.hidden;
  const toolOf = createItemToolNamer(state);
  const itemOf = new WeakMap<PromptItem, PolicyItem>();
  // The view is fixed, so an item's place in it (and whether it is the first of its event) is too.
  const toItem = (promptItem: PromptItem, index: number): PolicyItem => {
    let item = itemOf.get(promptItem);
    if (!item) {
      const first = view.items[index - 1]?.origin !== promptItem.origin;
      item = {
        origin: promptItem.origin,
        kind: getPolicyKind(promptItem.element),
        tool: toolOf(promptItem),
        tokens: promptItem.tokens,
        hidden: first && hidden !== null ? (hidden[promptItem.origin] ?? 0) : 0,
        element: promptItem.element,
      };
      itemOf.set(promptItem, item);
    }
    return item;
  };
  let previous: PolicyDecision | null = null;
  let previousEntries: PolicyEntry[] = [];
  const last = through ? Math.min(through.index, state.scan.requests.length - 1) : Infinity;
  state.scan.requests.forEach((site, k) => {
    if (k > last) return;
    const prompt = getPrompt(state.context, view, [], site.cut);
    const items = prompt.items.slice(0, prompt.count).map(toItem);
    const decision = policy.step(
      choice.parameters,
      {
        index: k,
        items,
        gapSeconds: state.gaps[k] ?? null,
        contextWindow,
        counter: state.settings.counter,
        prefixTokens: getPrefixTokens(calibration, k),
        tokenFactor: calibration.tokenFactor,
      },
      previous,
    );
    const entries = applyDecision(items, decision, previous, k);
    const common =
      k === 0 ? { count: 0, tokens: 0, hidden: 0 } : getEntriesPrefix(previousEntries, entries);
    let visibleTokens = 0;
    let hiddenTokens = 0;
    for (const entry of entries) {
      visibleTokens += entry.tokens;
      hiddenTokens += entry.hidden;
    }
    raw.push({
      visibleTokens,
      hiddenTokens,
      commonVisible: common.tokens,
      commonHidden: common.hidden,
      commonCount: common.count,
      previousCount: previousEntries.length,
      created: decision.clearedHere,
    });
    if (k === last) {
      through?.seen({ items, decision, summary: getSummaryInForce(decision, previous, k) });
    }
    decisions.push(decision);
    previous = decision;
    previousEntries = entries;
  });
  return { raw, decisions };
}
