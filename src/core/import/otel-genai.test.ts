/**
 * OTel GenAI spans repeat the conversation in each call's input. A hand-made
 * pair of calls, each in a trace of its own (as the semantic-conventions
 * sample writes them): the question and the reasoning are imported once, and
 * the tool's result lands in the turn of its call.
 */
import { describe, expect, it } from 'vitest';
import { importTranscript } from './import.ts';

const USER = { role: 'user', parts: [{ type: 'text', content: 'What does lib.rs export?' }] };
const CALL = {
  role: 'assistant',
  parts: [{ type: 'tool_call', id: 'c1', name: 'read_file', arguments: { path: 'lib.rs' } }],
};
const RESULT = {
  role: 'user',
  parts: [{ type: 'tool_call_response', id: 'c1', response: 'fn add' }],
};
const ANSWER = { role: 'assistant', parts: [{ type: 'text', content: 'One function.' }] };

function span(traceId: string, start: string, input: unknown[], output: unknown[]) {
  const value = (text: unknown) => ({ stringValue: JSON.stringify(text) });
  return {
    traceId,
    spanId: `${traceId}-span`,
    name: 'chat',
    startTimeUnixNano: start,
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.input.messages', value: value(input) },
      { key: 'gen_ai.output.messages', value: value(output) },
    ],
  };
}

function spans(...list: ReturnType<typeof span>[]): string {
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: list }] }] });
}

describe('OTel GenAI spans', () => {
  it('imports the repeated history once when each call is a trace of its own', () => {
    const text = spans(
      span('t1', '1800000000000000000', [USER], [{ ...CALL, finish_reason: 'tool_call' }]),
      span('t2', '1800000000002000000', [USER, CALL, RESULT], [ANSWER]),
    );
    const result = importTranscript(text, { from: 'otel-genai' });
    const types = (result.elements ?? []).map((element) => element.type);
    expect(types).toEqual([
      'turn_start',
      'chat_request',
      'tool_call_request',
      'tool_call_response',
      'chat_response',
    ]);
  });
});
