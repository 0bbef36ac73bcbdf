import { describe, expect, it } from 'vitest';
import { importTranscript } from './import.ts';

const line = (type: string, payload: object, s = 0) =>
  JSON.stringify({
    timestamp: `2026-01-02T03:04:${String(s).padStart(2, '0')}.000Z`,
    type,
    payload,
  });

describe('Codex rollouts', () => {
  it('skips event_msg copies of response items and the context Codex injects', () => {
    const text = [
      line('session_meta', { id: 'x', cwd: '/w' }),
      line('response_item', {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>…' }],
      }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/w</cwd>' }],
      }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'count words' }],
      }),
      line('event_msg', { type: 'user_message', message: 'count words' }),
      line('event_msg', { type: 'token_count', info: null }),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: '11 words' }],
      }),
      line('event_msg', { type: 'agent_message', message: '11 words' }),
    ].join('\n');
    const result = importTranscript(text);
    expect(result.format).toBe('codex');
    expect(result.elements?.map((e) => e.content ?? e.message ?? e.type)).toEqual([
      'turn_start',
      'count words',
      '11 words',
    ]);
    const notes = Object.fromEntries(result.notes.map((n) => [n.code, n.count]));
    expect(notes).toMatchObject({
      'codex/developer-message': 1,
      'codex/injected-context': 1,
      'codex/event-duplicate': 2,
      'codex/event': 1,
    });
  });

  it('maps function, custom and local shell calls; encrypted reasoning has no text', () => {
    const text = [
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'go' }],
      }),
      line('response_item', { type: 'reasoning', summary: [], encrypted_content: 'gAAAA' }),
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"ls"}',
        call_id: 'c1',
      }),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'a.txt' }),
      line('response_item', {
        type: 'custom_tool_call',
        name: 'apply_patch',
        input: '*** Begin Patch',
        call_id: 'c2',
      }),
      line('response_item', {
        type: 'custom_tool_call_output',
        call_id: 'c2',
        output: [{ type: 'output_text', text: 'Done!' }],
      }),
      line('response_item', {
        type: 'local_shell_call',
        call_id: 'c3',
        status: 'completed',
        action: { type: 'exec', command: ['ls'] },
      }),
      line('response_item', { type: 'function_call_output', call_id: 'c3', output: 'b.txt' }),
    ].join('\n');
    const result = importTranscript(text);
    const calls = result.elements?.filter((e) => e.type === 'tool_call_request');
    expect(calls?.map((e) => [e.name, e.arguments])).toEqual([
      ['exec_command', { cmd: 'ls' }],
      ['apply_patch', { input: '*** Begin Patch' }],
      ['local_shell', { type: 'exec', command: ['ls'] }],
    ]);
    const results = result.elements?.filter((e) => e.type === 'tool_call_response');
    expect(results?.map((e) => [e.content, e.is_error])).toEqual([
      ['a.txt', false],
      ['Done!', false],
      ['b.txt', false],
    ]);
    expect(result.elements?.some((e) => 'reasoning' in e)).toBe(false);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'codex/encrypted-reasoning', line: 2 }),
    );
  });

  it('imports a user message recorded only as an event_msg, and says so', () => {
    const text = [
      line('session_meta', { id: 'x' }),
      line('event_msg', { type: 'user_message', message: 'only here' }),
    ].join('\n');
    const result = importTranscript(text);
    expect(result.elements?.map((e) => e.content ?? e.type)).toEqual(['turn_start', 'only here']);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'codex/event-only', line: 2 }),
    );
  });
});
