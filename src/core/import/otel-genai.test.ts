/**
 * OTel GenAI spans repeat the conversation in each call's input. A hand-made
 * pair of calls, each in a trace of its own (as the semantic-conventions
 * sample writes them): the question and the reasoning are imported once, and
 * the tool's result lands in the turn of its call.
 */
import { describe, expect, it } from 'vitest';
import { importTranscript } from './import.ts';
import { accountImport } from './loss-guard.ts';

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

function span(traceId: string, start: string, input: unknown[], output?: unknown[]) {
  const value = (text: unknown) => ({ stringValue: JSON.stringify(text) });
  return {
    traceId,
    spanId: `${traceId}-span`,
    name: 'chat',
    startTimeUnixNano: start,
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.input.messages', value: value(input) },
      // An output not captured has no attribute.
      ...(output === undefined ? [] : [{ key: 'gen_ai.output.messages', value: value(output) }]),
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

function importedCalls(text: string) {
  const result = importTranscript(text, { from: 'otel-genai' });
  const calls = (result.elements ?? []).flatMap((e) =>
    e.type === 'tool_call_request' ? [{ id: e.id, name: e.name }] : [],
  );
  const answered = (result.elements ?? []).flatMap((e) =>
    e.type === 'tool_call_response' ? [{ id: e.id, content: e.content }] : [],
  );
  return { result, calls, answered, account: accountImport(result, false) };
}

describe('OTel GenAI calls the loss guard accounts for', () => {
  it('imports a call without an id (the conventions allow it), answered by the response without one', () => {
    const call = {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: null, name: 'read_file', arguments: {} }],
    };
    const response = {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: null, response: 'fn add' }],
    };
    const { calls, answered, account } = importedCalls(
      spans(
        span('t1', '1800000000000000000', [USER], [call]),
        span('t2', '1800000000002000000', [USER, call, response], [ANSWER]),
      ),
    );
    // The call is the second message of the conversation (index 1), the first without an id.
    expect(calls).toEqual([{ id: 'otel-1-0', name: 'read_file' }]);
    expect(answered).toEqual([{ id: 'otel-1-0', content: 'fn add' }]);
    expect(account.unexplained).toBe(0);
  });

  it('counts a call without a name as left out', () => {
    const call = { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', arguments: {} }] };
    const { calls, account } = importedCalls(
      spans(span('t1', '1800000000000000000', [USER], [call])),
    );
    expect(calls).toEqual([]);
    expect(account.sourceCalls).toBe(1);
    expect(account.leftOut).toEqual([{ code: 'otel-genai/bad-call', calls: 1 }]);
    expect(account.unexplained).toBe(0);
  });

  it('imports a server tool call and its response', () => {
    const answer = {
      role: 'assistant',
      parts: [
        {
          type: 'server_tool_call',
          id: 's1',
          name: 'web_search',
          server_tool_call: { type: 'web_search' },
        },
        {
          type: 'server_tool_call_response',
          id: 's1',
          server_tool_call_response: { type: 'web_search' },
        },
        { type: 'text', content: 'Found.' },
      ],
    };
    const { calls, answered } = importedCalls(
      spans(span('t1', '1800000000000000000', [USER], [answer])),
    );
    expect(calls).toEqual([{ id: 's1', name: 'web_search' }]);
    expect(answered).toEqual([{ id: 's1', content: '{"type":"web_search"}' }]);
  });

  it("reads the calls of an output not captured from the next call's input", () => {
    const { calls, account } = importedCalls(
      spans(
        span('t1', '1800000000000000000', [USER]),
        span('t1', '1800000000002000000', [USER, CALL, RESULT], [ANSWER]),
      ),
    );
    expect(calls).toEqual([{ id: 'c1', name: 'read_file' }]);
    expect(account.unexplained).toBe(0);
  });
});
