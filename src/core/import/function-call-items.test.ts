/**
 * Codex rollouts and Responses inputs hold the same `function_call` items;
 * one reader (`importFunctionCall`) reads them in both, so a malformed call
 * is counted the same, arguments that are not an object are noted the same,
 * and a hosted tool's item (`tool_search_call`) is a call in both.
 */
import { describe, expect, it } from 'vitest';
import { importTranscript } from './import.ts';
import { accountImport } from './loss-guard.ts';

const items = [
  { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{"path":"a"}' },
  { type: 'function_call_output', call_id: 'c1', output: 'alpha' },
  { type: 'function_call', call_id: 'c2', name: 'read', arguments: '[1,2]' },
  { type: 'function_call_output', call_id: 'c2', output: 'beta' },
  { type: 'function_call', name: 'read', arguments: '{}' },
  { type: 'tool_search_call', id: 'ts1', arguments: '{"query":"fs"}', results: 'read, write' },
];

function asCodex(): string {
  const lines = [
    { type: 'session_meta', payload: { id: 'x', cwd: '/w' } },
    {
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
    },
    ...items.map((payload) => ({ type: 'response_item', payload })),
  ];
  return lines
    .map((entry, i) =>
      JSON.stringify({
        timestamp: `2026-01-02T03:04:${String(i).padStart(2, '0')}.000Z`,
        ...entry,
      }),
    )
    .join('\n');
}

function asResponses(): string {
  return JSON.stringify({ input: [{ type: 'message', role: 'user', content: 'go' }, ...items] });
}

describe.each([
  ['codex', asCodex],
  ['openai-responses', asResponses],
])('function_call items in %s', (format, write) => {
  const result = importTranscript(write());
  const calls = (result.elements ?? [])
    .filter((e) => e.type === 'tool_call_request')
    .map((e) => `${String(e.id)} ${String(e.name)}`);
  const notes = new Map(result.notes.map((note) => [note.code, note]));

  it('reads the well-formed calls and the tool search, by hand: c1, c2, ts1', () => {
    expect(result.format).toBe(format);
    expect(calls).toEqual(['c1 read', 'c2 read', 'ts1 tool_search_call']);
  });

  it('keeps arguments that are not an object under "input", and says so', () => {
    const c2 = result.elements?.find((e) => e.type === 'tool_call_request' && e.id === 'c2');
    expect(c2?.arguments).toEqual({ input: [1, 2] });
    expect(notes.get(`${format}/arguments-not-object`)?.count).toBe(1);
  });

  it('counts the call without a call_id as one left out: 4 in the file, 3 read, nothing unexplained', () => {
    expect(notes.get(`${format}/bad-call`)?.calls).toBe(1);
    const account = accountImport(result);
    expect(account.sourceCalls).toBe(4);
    expect(account.importedCalls).toBe(3);
    expect(account.unexplained).toBe(0);
  });
});
