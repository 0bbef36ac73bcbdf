/**
 * The counting folder owns turning text into figures: the tokenizers behind
 * one counter interface with its per-string cache (tokens.ts), the report
 * built from a stream before and after compaction (this file, the folder's
 * entry point) and how figures and sizes are written for people (format.ts).
 *
 * The per-tool savings report (spec 14.4): what each tool's requests and
 * responses cost before and after compaction, and the totals split into tool
 * requests, tool responses, reasoning and messages.
 */

import type { JsonValue, StreamElement } from '../types.ts';
import type { TokenCounter, TokenizerId } from './tokens.ts';

/**
 * How the orphan row is shown: responses whose request is nowhere in the
 * stream. Its key is `null` ({@link ToolRow.name}), never this label, so a
 * tool really named `(unknown)` (or `""`) keeps a row of its own.
 */
export const UNKNOWN_TOOL_LABEL = '(unknown)';

/**
 * The orphan row's key where a row is picked by a string (the page's
 * selection, which travels in share links): a lone surrogate, which JP never
 * reads in a name (serde_json refuses one) and the stream codec refuses too
 * (json/surrogates.ts), so no recorded name equals it; then the label.
 */
export const ORPHAN_ROW_KEY = '\udc00(unknown)';

/** A row's selection key: the tool's name, or {@link ORPHAN_ROW_KEY}. */
export function getToolRowKey(name: string | null): string {
  return name ?? ORPHAN_ROW_KEY;
}

/**
 * A row's name as shown, in parts: the text, and a tag that tells apart rows
 * whose text reads the same. The orphan row reads `(unknown)` like a tool
 * really named so, and a name in NFD (`cafe` + U+0301) like its NFC twin;
 * both are distinct rows (names are compared as written, spec 14.4), so
 * they carry a tag: `no call`, `NFD`, or `not NFC` for other unnormalized
 * names. `detail` says what the tag means, with the code points for a name.
 */
export interface ToolNameDescription {
  text: string;
  tag?: 'no call' | 'NFD' | 'not NFC';
  detail?: string;
}

/** How a row's name is shown (page and CLI), from its name or its key. */
export function describeToolName(nameOrKey: string | null): ToolNameDescription {
  if (nameOrKey === null || nameOrKey === ORPHAN_ROW_KEY) {
    return {
      text: UNKNOWN_TOOL_LABEL,
      tag: 'no call',
      detail: 'Responses whose call is not in the stream',
    };
  }
  if (nameOrKey.normalize('NFC') === nameOrKey) return { text: nameOrKey };
  const codePoints = Array.from(
    nameOrKey,
    (char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  ).join(' ');
  const decomposed = nameOrKey.normalize('NFD') === nameOrKey;
  return {
    text: nameOrKey,
    tag: decomposed ? 'NFD' : 'not NFC',
    detail: `${decomposed ? 'Decomposed (NFD)' : 'Not in NFC'}: ${codePoints}`,
  };
}

/** A row's name as one line of text: the name, then its tag in brackets (`café [NFD]`, `(unknown) [no call]`). */
export function getToolRowLabel(nameOrKey: string | null): string {
  const { text, tag } = describeToolName(nameOrKey);
  return tag === undefined ? text : `${text} [${tag}]`;
}

/** A token and character count. */
export interface Amount {
  tokens: number;
  chars: number;
}

/** A count before and after compaction. */
export interface BeforeAfter {
  before: Amount;
  after: Amount;
}

/** The four groups the totals are split into (spec 14.4). */
export type PayloadGroup = 'toolRequests' | 'toolResponses' | 'reasoning' | 'messages';

/** Every payload group, in display order. */
export const PAYLOAD_GROUPS: readonly PayloadGroup[] = [
  'toolRequests',
  'toolResponses',
  'reasoning',
  'messages',
];

/** One tool's figures. `saved` may be negative: a stripped reply can be longer. */
export interface ToolRow {
  /** The tool's name, any string; `null` for the orphan row, which no recorded name can be. */
  name: string | null;
  /** Requests of this tool in the "before" view (responses, for the unknown row). */
  calls: number;
  request: BeforeAfter;
  response: BeforeAfter;
  saved: Amount;
}

/** The whole report over one or more conversations. */
export interface Report {
  tokenizer: TokenizerId;
  /** Sorted by tool name, the orphan row last. */
  tools: ToolRow[];
  totals: BeforeAfter & { saved: Amount };
  groups: Record<PayloadGroup, BeforeAfter>;
}

/** Which variant of a `chat_response` an event is (spec 1.3 variant order: message, reasoning, data). */
export type ResponsePart = 'message' | 'reasoning' | 'data';

/** The variant of a `chat_response`, or undefined for other events. */
export function getResponsePart(element: StreamElement): ResponsePart | undefined {
  if (element.type !== 'chat_response') return undefined;
  if (typeof element.message === 'string') return 'message';
  if (typeof element.reasoning === 'string') return 'reasoning';
  return 'data';
}

/** The counted part of a provider-visible event (spec 14.4), or undefined for other events. */
export function getPayload(
  element: StreamElement,
): { group: PayloadGroup; text: string } | undefined {
  switch (element.type) {
    case 'chat_request':
      return { group: 'messages', text: asText(element.content) };
    case 'chat_response':
      switch (getResponsePart(element)) {
        case 'message':
          return { group: 'messages', text: asText(element.message) };
        case 'reasoning':
          return { group: 'reasoning', text: asText(element.reasoning) };
        default:
          return { group: 'messages', text: stringifyData(element.data) };
      }
    case 'tool_call_request':
      return { group: 'toolRequests', text: stringifyData(element.arguments ?? {}) };
    case 'tool_call_response':
      return { group: 'toolResponses', text: asText(element.content) };
    default:
      return undefined;
  }
}

function asText(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : stringifyData(value);
}

function stringifyData(value: JsonValue | undefined): string {
  return value === undefined ? '' : JSON.stringify(value);
}

const zero = (): Amount => ({ tokens: 0, chars: 0 });
const zeroPair = (): BeforeAfter => ({ before: zero(), after: zero() });

function add(into: Amount, amount: Amount): void {
  into.tokens += amount.tokens;
  into.chars += amount.chars;
}

function minus(a: Amount, b: Amount): Amount {
  return { tokens: a.tokens - b.tokens, chars: a.chars - b.chars };
}

interface RowAccumulator {
  calls: number;
  request: BeforeAfter;
  response: BeforeAfter;
}

/**
 * The report for one conversation.
 *
 * @param before the provider view without any compaction
 * @param after the provider view with every compaction, existing and new
 * @param responseNames each tool response of both views (by object) with
 *   its tool name as the projection paired it (spec 4 step 3, 15.3); a
 *   response it does not hold is counted in the orphan row
 */
export function createReport(
  before: readonly StreamElement[],
  after: readonly StreamElement[],
  responseNames: ReadonlyMap<StreamElement, string | null>,
  counter: TokenCounter,
): Report {
  const rows = new Map<string | null, RowAccumulator>();
  const groups = Object.fromEntries(PAYLOAD_GROUPS.map((g) => [g, zeroPair()])) as Record<
    PayloadGroup,
    BeforeAfter
  >;
  const totals = zeroPair();

  const rowFor = (name: string | null): RowAccumulator => {
    let row = rows.get(name);
    if (!row) {
      row = { calls: 0, request: zeroPair(), response: zeroPair() };
      rows.set(name, row);
    }
    return row;
  };

  const tally = (elements: readonly StreamElement[], side: 'before' | 'after') => {
    for (const element of elements) {
      const payload = getPayload(element);
      if (!payload) continue;
      const amount = { tokens: counter.tokens(payload.text), chars: counter.chars(payload.text) };
      add(groups[payload.group][side], amount);
      add(totals[side], amount);
      if (payload.group === 'toolRequests') {
        const row = rowFor(typeof element.name === 'string' ? element.name : null);
        add(row.request[side], amount);
        if (side === 'before') row.calls++;
      } else if (payload.group === 'toolResponses') {
        // `??`, not `||`: a tool named "" is a name like any other.
        const name = responseNames.get(element) ?? null;
        const row = rowFor(name);
        add(row.response[side], amount);
        if (side === 'before' && name === null) row.calls++;
      }
    }
  };
  tally(before, 'before');
  tally(after, 'after');

  const tools: ToolRow[] = [...rows.entries()].map(([name, row]) => {
    const beforeSum = zero();
    add(beforeSum, row.request.before);
    add(beforeSum, row.response.before);
    const afterSum = zero();
    add(afterSum, row.request.after);
    add(afterSum, row.response.after);
    return { name, ...row, saved: minus(beforeSum, afterSum) };
  });
  return {
    tokenizer: counter.id,
    tools: sortRows(tools),
    totals: { ...totals, saved: minus(totals.before, totals.after) },
    groups,
  };
}

/** By name, the orphan row (`null`) last. */
export function compareToolRowNames(a: string | null, b: string | null): number {
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortRows(rows: ToolRow[]): ToolRow[] {
  return rows.sort((a, b) => compareToolRowNames(a.name, b.name));
}

function addPair(into: BeforeAfter, pair: BeforeAfter): void {
  add(into.before, pair.before);
  add(into.after, pair.after);
}

/** Adds reports of several conversations counted with the same tokenizer. */
export function addReports(reports: readonly Report[], tokenizer: TokenizerId): Report {
  const rows = new Map<string | null, ToolRow>();
  const groups = Object.fromEntries(PAYLOAD_GROUPS.map((g) => [g, zeroPair()])) as Record<
    PayloadGroup,
    BeforeAfter
  >;
  const totals = { ...zeroPair(), saved: zero() };
  for (const report of reports) {
    for (const row of report.tools) {
      let sum = rows.get(row.name);
      if (!sum) {
        sum = {
          name: row.name,
          calls: 0,
          request: zeroPair(),
          response: zeroPair(),
          saved: zero(),
        };
        rows.set(row.name, sum);
      }
      sum.calls += row.calls;
      addPair(sum.request, row.request);
      addPair(sum.response, row.response);
      add(sum.saved, row.saved);
    }
    for (const group of PAYLOAD_GROUPS) addPair(groups[group], report.groups[group]);
    addPair(totals, report.totals);
    add(totals.saved, report.totals.saved);
  }
  return { tokenizer, tools: sortRows([...rows.values()]), totals, groups };
}

/** Saved as a percentage of "before"; 0 when there was nothing before. */
export function savedPercent(saved: number, before: number): number {
  return before === 0 ? 0 : (saved / before) * 100;
}

/**
 * The report in the CLI's public `report --json` shape (without the group
 * split). The orphan row's `name` is `null`.
 */
export function reportToJson(report: Report): JsonValue {
  return {
    tokenizer: report.tokenizer,
    tools: report.tools.map((row) => ({
      name: row.name,
      calls: row.calls,
      request: { before: { ...row.request.before }, after: { ...row.request.after } },
      response: { before: { ...row.response.before }, after: { ...row.response.after } },
      saved: { ...row.saved },
    })),
    totals: {
      before: { ...report.totals.before },
      after: { ...report.totals.after },
      saved: { ...report.totals.saved },
    },
  };
}
