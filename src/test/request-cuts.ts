/**
 * Where each request of a stream starts, found for the replay's tests
 * without the replay's code: a request is sent before each run of assistant
 * output (provider-visible `chat_response` and `tool_call_request` events),
 * and only another provider-visible event ends a run (issue 21), or, when
 * the run already holds a response's first event (marked by the import with
 * `metadata.recorded_by` or `recorded_usage`), another response's first
 * event (issue 40: one request per response the bill counts).
 */
import type { StreamElement } from '../core/types.ts';

const VISIBLE = new Set([
  'chat_request',
  'chat_response',
  'tool_call_request',
  'tool_call_response',
]);

/** Stream indices where a run of assistant output starts. */
export function findRequestCuts(elements: readonly StreamElement[]): number[] {
  const cuts: number[] = [];
  let inRun = false;
  let runHasUsage = false;
  elements.forEach((element, index) => {
    if (typeof element.type !== 'string' || !VISIBLE.has(element.type)) return;
    const output = element.type === 'chat_response' || element.type === 'tool_call_request';
    const usage = startsResponse(element);
    if (output && (!inRun || (usage && runHasUsage))) {
      cuts.push(index);
      runHasUsage = false;
    }
    if (output && usage) runHasUsage = true;
    inRun = output;
  });
  return cuts;
}

function startsResponse(element: StreamElement): boolean {
  const metadata = element.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return false;
  const isObject = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const fields = metadata as Record<string, unknown>;
  return isObject(fields.recorded_usage) || isObject(fields.recorded_by);
}
