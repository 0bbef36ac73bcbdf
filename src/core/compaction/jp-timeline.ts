/**
 * The lines JP's own `jp conversation compact --dry-run` prints, so a reader
 * can match the playground's preview with what JP would say. JP prints one
 * line per rule whose range is not empty, with the stored (0-based,
 * inclusive) turn indices, and `Nothing to compact.` when there is none.
 *
 * JP main (15.8) adds, on the line of a compaction with a threshold or a
 * verbatim summary, what it does (`tool responses over 1MB`, `reasoning over
 * 16KB`, `verbatim summary`), and under a rule with a threshold the items it catches, one
 * per line (`  turn N  NAME  SIZE`), or `  nothing over the threshold.`.
 */
import { formatByteSize, formatByteSizeForPeople } from '../config/byte-size.ts';
import type { JpBase } from '../config/jp-base.ts';
import {
  readStoredReasoning,
  readStoredSummary,
  readStoredToolCalls,
} from '../config/rule-config.ts';
import { isJsonObject } from '../json/values.ts';
import { assignTurns, classifyElement } from '../stream/turns.ts';
import type { CompactionEvent, StreamElement } from '../types.ts';
import { getMeasuredSize, isReasoningResponse, pairToolCalls } from './projection.ts';

/** JP's dry-run line when no rule has a range. */
export const JP_NOTHING_TO_COMPACT = 'Nothing to compact.';

/** JP main's line under a thresholded rule that catches nothing (15.8). */
export const JP_NOTHING_OVER_THRESHOLD = '  nothing over the threshold.';

/** JP's dry-run line for one new compaction. */
export function getJpDryRunLine(event: Pick<CompactionEvent, 'from_turn' | 'to_turn'>): string {
  return `Would compact turns ${event.from_turn}..=${event.to_turn}`;
}

/** Everything JP's dry run prints for these new compactions, one line each. */
export function getJpDryRun(
  events: readonly Pick<CompactionEvent, 'from_turn' | 'to_turn'>[],
): string[] {
  return events.length === 0 ? [JP_NOTHING_TO_COMPACT] : events.map(getJpDryRunLine);
}

/** What a new compaction does, in JP main's words (15.8): `reasoning over 16KB, tool responses`. */
export function describeCompactionPolicies(event: CompactionEvent, base: JpBase): string[] {
  const labels: string[] = [];
  const summary = readStoredSummary(event.summary, base);
  if (summary.ok && summary.value !== null) {
    labels.push(summary.value.source === 'authored' ? 'verbatim summary' : 'summary');
  }
  const reasoning = readStoredReasoning(event.reasoning, base);
  if (reasoning.ok && reasoning.value !== null) {
    labels.push(withOver('reasoning', reasoning.value.over));
  }
  const toolCalls = readStoredToolCalls(event.tool_calls, base);
  if (toolCalls.ok && toolCalls.value !== null) {
    const { policy, over } = toolCalls.value;
    const what =
      policy.policy === 'omit'
        ? 'omitted tool calls'
        : policy.request && policy.response
          ? 'tool calls'
          : policy.request
            ? 'tool requests'
            : policy.response
              ? 'tool responses'
              : 'no tool calls';
    labels.push(withOver(what, over));
  }
  return labels;
}

function withOver(label: string, over: bigint | null): string {
  return over === null ? label : `${label} over ${formatByteSize(over)}`;
}

/**
 * JP main's dry run (15.8): a line per new compaction with what it does,
 * and under a rule with a threshold the items it catches in its range, by
 * raw size (a summary rule is never itemized). Under `2026-08` the lines of
 * {@link getJpDryRun}.
 */
export function getJpMainDryRun(
  elements: readonly StreamElement[],
  events: readonly CompactionEvent[],
  base: JpBase,
): string[] {
  if (base === '2026-08' || events.length === 0) return getJpDryRun(events);
  const turns = assignTurns(elements);
  const tools = pairToolCalls(elements, turns);
  const lines: string[] = [];
  for (const event of events) {
    const reasoning = readStoredReasoning(event.reasoning, base);
    const toolCalls = readStoredToolCalls(event.tool_calls, base);
    const reasoningOver = reasoning.ok ? (reasoning.value?.over ?? null) : null;
    const toolOver = toolCalls.ok ? (toolCalls.value?.over ?? null) : null;
    const authored = isJsonObject(event.summary) && event.summary.source === 'authored';
    // Labels only where JP main adds something (docs/decisions.md): a threshold or verbatim text.
    const labelled = reasoningOver !== null || toolOver !== null || authored;
    const labels = labelled ? describeCompactionPolicies(event, base) : [];
    lines.push(`${getJpDryRunLine(event)}${labels.length > 0 ? `: ${labels.join(', ')}` : ''}`);
    if (event.summary !== undefined) continue;
    if (reasoningOver === null && toolOver === null) continue;
    const caught: string[] = [];
    elements.forEach((element, index) => {
      const turn = turns[index] as number;
      if (turn < event.from_turn || turn > event.to_turn) return;
      if (classifyElement(element) !== 'conversation') return;
      const item = (name: string, size: number) =>
        caught.push(`  turn ${turn + 1}  ${name}  ${formatByteSizeForPeople(BigInt(size))}`);
      if (reasoningOver !== null && isReasoningResponse(element)) {
        const size = getMeasuredSize(element);
        if (BigInt(size) > reasoningOver) item('reasoning', size);
        return;
      }
      const info = tools.get(index);
      if (toolOver === null || info === undefined || !toolCalls.ok || toolCalls.value === null)
        return;
      const policy = toolCalls.value.policy;
      const isRequest = element.type === 'tool_call_request';
      const name = info.name ?? 'unknown';
      if (policy.policy === 'omit') {
        // An omitted pair is listed once, at its request (or at a response with no request).
        const listed = isRequest || info.naming?.kind !== 'paired';
        if (listed && BigInt(info.pair) > toolOver) item(name, info.pair);
        return;
      }
      const half = isRequest ? policy.request : policy.response;
      if (half && BigInt(info.own) > toolOver) {
        item(`${name} (${isRequest ? 'request' : 'response'})`, info.own);
      }
    });
    lines.push(...(caught.length > 0 ? caught : [JP_NOTHING_OVER_THRESHOLD]));
  }
  return lines;
}
