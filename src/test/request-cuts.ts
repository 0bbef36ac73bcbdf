/**
 * Where each request of a stream starts, found for the replay's tests
 * without the replay's code: a request is sent before each run of assistant
 * output (provider-visible `chat_response` and `tool_call_request` events),
 * and only another provider-visible event ends a run (issue 21).
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
  elements.forEach((element, index) => {
    if (typeof element.type !== 'string' || !VISIBLE.has(element.type)) return;
    const output = element.type === 'chat_response' || element.type === 'tool_call_request';
    if (output && !inRun) cuts.push(index);
    inRun = output;
  });
  return cuts;
}
