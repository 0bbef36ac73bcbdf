/**
 * The requests of a conversation (issue 21): one before each run of
 * assistant output, that is, of consecutive provider-visible
 * `chat_response` and `tool_call_request` events, split only by another
 * provider-visible event (a `chat_request` or a `tool_call_response`), not
 * by turn starts, config deltas or compactions. A request's prompt is the
 * stream cut just before its run; its output is the run.
 *
 * Importers mark each API response's first event (`metadata.recorded_by`,
 * and its recorded usage when there is any), so an output event that
 * starts a response of its own starts a new request when the run already
 * holds one: a history the transcript kept without the inputs between its
 * responses (a Codex rollout's `event_msg` items) is still one request per
 * response the bill counts, with or without its usage.
 */
import type { RecordedBy } from '../import/recorded-usage.ts';
import { canonicalTimestamp, type Instant, parseTimestamp } from '../stream/timestamp.ts';
import type { StreamElement } from '../types.ts';
import type { ElementFacts } from './element-facts.ts';
import { addRecordedUsage, type RecordedUsage } from './recorded-usage.ts';

/** One request, found in the stream as given. */
export interface ReplayRequestSite {
  /** The index of the run's first event: the prompt is the stream before it. */
  cut: number;
  /** The index of the run's last event. */
  last: number;
  /** The run's first event's timestamp (canonical), or null when it does not read. */
  time: string | null;
  instant: Instant | undefined;
  /** The raw 0-based turn (spec 2) of the run's first event. */
  turn: number;
  /** Whether it is the first request of its turn. */
  firstOfTurn: boolean;
  /** Payload tokens of the run (spec 14.4's counter). */
  outputTokens: number;
  /** The sum of the run's events' recorded usage, or null when none carries any. */
  recorded: RecordedUsage | null;
  /** What recorded the response (runtime, version, model), when its events say so. */
  recordedBy: RecordedBy | null;
  /** Whether an event of the run is marked as a response's first (recorded_by or usage). */
  holdsResponseStart: boolean;
}

/** What reading the requests found beside them. */
export interface RequestScan {
  requests: ReplayRequestSite[];
  /** Turn of every element of the stream (spec 2). */
  turns: number[];
  /** Events whose `metadata.recorded_usage` is not valid: index and reason. */
  invalidRecorded: { index: number; message: string }[];
}

/**
 * Finds every request of the stream, in order, from its facts (read once:
 * element-facts.ts); of the element objects it reads only each run's first
 * timestamp.
 */
export function findRequests(elements: readonly StreamElement[], facts: ElementFacts): RequestScan {
  const { turns } = facts;
  const requests: ReplayRequestSite[] = [];
  const invalidRecorded: { index: number; message: string }[] = [];
  let open: ReplayRequestSite | undefined;
  for (let index = 0; index < elements.length; index++) {
    const usage = facts.recorded.size === 0 ? undefined : facts.recorded.get(index);
    if (usage && !usage.ok) invalidRecorded.push({ index, message: usage.message });
    if (!facts.visible[index]) {
      // Recorded usage on an event inside a run (between its output events) still belongs to it.
      if (open && usage?.ok) open.recorded = sum(open.recorded, usage.value);
      continue;
    }
    if (!facts.output[index]) {
      open = undefined;
      continue;
    }
    // Another response starts: the bill counts a request of its own.
    const startsResponse = usage?.ok === true || facts.recordedBy.has(index);
    if (open && startsResponse && open.holdsResponseStart) open = undefined;
    if (!open) {
      const stamp = (elements[index] as StreamElement).timestamp;
      const text = typeof stamp === 'string' ? stamp : undefined;
      const instant = text === undefined ? undefined : parseTimestamp(text);
      const turn = turns[index] as number;
      open = {
        cut: index,
        last: index,
        time: instant === undefined || text === undefined ? null : canonicalTimestamp(text),
        instant,
        turn,
        firstOfTurn: requests.length === 0 || requests[requests.length - 1]?.turn !== turn,
        outputTokens: 0,
        recorded: null,
        recordedBy: null,
        holdsResponseStart: false,
      };
      requests.push(open);
    }
    if (startsResponse) open.holdsResponseStart = true;
    open.last = index;
    open.outputTokens += facts.tokens[index] as number;
    open.recordedBy ??= facts.recordedBy.get(index) ?? null;
    if (usage?.ok) open.recorded = sum(open.recorded, usage.value);
  }
  return { requests, turns, invalidRecorded };
}

function sum(total: RecordedUsage | null, usage: RecordedUsage): RecordedUsage {
  return total === null ? { ...usage } : addRecordedUsage(total, usage);
}
