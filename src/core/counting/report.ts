/**
 * The per-tool savings report (spec 14.4): what each tool's requests and
 * responses cost before and after compaction, and the totals split into tool
 * requests, tool responses, reasoning and messages.
 */

import type { JsonValue, StreamElement } from '../types.ts';
import type { TokenCounter, TokenizerId } from './tokens.ts';

/** The row name for responses whose request is nowhere in the stream. */
export const UNKNOWN_TOOL_ROW = '(unknown)';

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
  name: string;
  /** Requests of this tool in the "before" view (responses, for the unknown row). */
  calls: number;
  request: BeforeAfter;
  response: BeforeAfter;
  saved: Amount;
}

/** The whole report over one or more conversations. */
export interface Report {
  tokenizer: TokenizerId;
  /** Sorted by tool name, the unknown row last. */
  tools: ToolRow[];
  totals: BeforeAfter & { saved: Amount };
  groups: Record<PayloadGroup, BeforeAfter>;
}

/** The counted part of a provider-visible event (spec 14.4), or undefined for other events. */
export function getPayload(
  element: StreamElement,
): { group: PayloadGroup; text: string } | undefined {
  switch (element.type) {
    case 'chat_request':
      return { group: 'messages', text: asText(element.content) };
    case 'chat_response':
      if (typeof element.message === 'string') return { group: 'messages', text: element.message };
      if (typeof element.reasoning === 'string') {
        return { group: 'reasoning', text: element.reasoning };
      }
      return { group: 'messages', text: stringifyData(element.data) };
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
 * @param toolNames id → tool name over the whole stream (spec 4 step 3)
 */
export function createReport(
  before: readonly StreamElement[],
  after: readonly StreamElement[],
  toolNames: ReadonlyMap<string, string>,
  counter: TokenCounter,
): Report {
  const rows = new Map<string, RowAccumulator>();
  const groups = Object.fromEntries(PAYLOAD_GROUPS.map((g) => [g, zeroPair()])) as Record<
    PayloadGroup,
    BeforeAfter
  >;
  const totals = zeroPair();

  const rowFor = (name: string): RowAccumulator => {
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
        const row = rowFor(typeof element.name === 'string' ? element.name : UNKNOWN_TOOL_ROW);
        add(row.request[side], amount);
        if (side === 'before') row.calls++;
      } else if (payload.group === 'toolResponses') {
        const id = typeof element.id === 'string' ? element.id : undefined;
        const name = (id !== undefined && toolNames.get(id)) || UNKNOWN_TOOL_ROW;
        const row = rowFor(name);
        add(row.response[side], amount);
        if (side === 'before' && name === UNKNOWN_TOOL_ROW) row.calls++;
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

function sortRows(rows: ToolRow[]): ToolRow[] {
  return rows.sort((a, b) => {
    if (a.name === UNKNOWN_TOOL_ROW) return 1;
    if (b.name === UNKNOWN_TOOL_ROW) return -1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

function addPair(into: BeforeAfter, pair: BeforeAfter): void {
  add(into.before, pair.before);
  add(into.after, pair.after);
}

/** Adds reports of several conversations counted with the same tokenizer. */
export function addReports(reports: readonly Report[], tokenizer: TokenizerId): Report {
  const rows = new Map<string, ToolRow>();
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

/** The report in the CLI's public `report --json` shape (without the group split). */
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
