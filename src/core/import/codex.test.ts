import { describe, expect, it } from 'vitest';
import { importTranscript } from './import.ts';
import { readRecordedUsage } from './recorded-usage.ts';

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
    // The developer and injected messages before the prompt are the system prompt (config_delta).
    expect(result.elements?.map((e) => e.content ?? e.message ?? e.type)).toEqual([
      'config_delta',
      'turn_start',
      'count words',
      '11 words',
    ]);
    const notes = Object.fromEntries(result.notes.map((n) => [n.code, n.count]));
    expect(notes).toMatchObject({
      'codex/system-prompt': 1,
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

describe('Codex usage per response', () => {
  const usage = (input: number, cached: number, output: number, total: number) =>
    line('event_msg', {
      type: 'token_count',
      info: {
        total_token_usage: { total_tokens: total },
        last_token_usage: {
          input_tokens: input,
          cached_input_tokens: cached,
          output_tokens: output,
          reasoning_output_tokens: 0,
          total_tokens: input + output,
        },
      },
    });

  it('keeps usage written after the tool output on the response that made the call', () => {
    // As a rollout writes it: the call, its output, then the call's token_count;
    // then the answer and its token_count.
    const text = [
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'count words' }],
      }),
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"wc -w notes.md"}',
        call_id: 'c1',
      }),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: '11 notes.md' }),
      usage(12_882, 9_600, 496, 13_378),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: '11 words' }],
      }),
      usage(13_430, 9_600, 13, 26_821),
    ].join('\n');
    const result = importTranscript(text);
    const carriers = (result.elements ?? []).flatMap((e) => {
      const kept = readRecordedUsage(e.metadata);
      return kept ? [[e.type, kept.prompt_tokens, kept.output_tokens]] : [];
    });
    expect(carriers).toEqual([
      ['tool_call_request', 12_882, 496],
      ['chat_response', 13_430, 13],
    ]);
    expect(result.notes.map((n) => n.code)).not.toContain('codex/usage-without-response');
  });

  it('keeps no usage that no response waits for, and says why', () => {
    // A second count with a new total and no item of the model between.
    const text = [
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'hi' }],
      }),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'hello' }],
      }),
      usage(100, 0, 5, 105),
      usage(200, 0, 5, 310),
    ].join('\n');
    const result = importTranscript(text);
    const kept = (result.elements ?? []).filter((e) => readRecordedUsage(e.metadata));
    expect(kept.map((e) => e.message)).toEqual(['hello']);
    const note = result.notes.find((n) => n.code === 'codex/usage-without-response');
    expect(note).toMatchObject({ count: 1, line: 4 });
    expect(note?.message).toContain('no response is waiting for it');
  });
});

describe('Codex: what it sends ahead of the conversation', () => {
  const message = (role: string, text: string, s = 0) =>
    line('response_item', { type: 'message', role, content: [{ type: 'input_text', text }] }, s);

  it('is one config_delta at the start: base instructions, developer and injected messages before the prompt', () => {
    const text = [
      line('session_meta', {
        id: 'x',
        cli_version: '0.128.0',
        base_instructions: { text: 'You are Codex.' },
      }),
      message('developer', '<permissions instructions>\nsandbox</permissions instructions>', 1),
      message('user', '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>', 1),
      message('user', 'count words', 2),
      message('assistant', '11 words', 3),
      // The next turn repeats the context: not a second system prompt.
      message('developer', '<permissions instructions>\nsandbox</permissions instructions>', 4),
      message('user', '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>', 4),
      message('user', 'and lines?', 5),
    ].join('\n');
    const result = importTranscript(text);
    const elements = result.elements ?? [];
    expect(elements[0]).toEqual({
      timestamp: '2026-01-02 03:04:00.0',
      type: 'config_delta',
      delta: {
        assistant: {
          system_prompt:
            'You are Codex.\n\n<permissions instructions>\nsandbox</permissions instructions>\n\n<environment_context>\n  <cwd>/w</cwd>\n</environment_context>',
        },
      },
    });
    expect(elements.filter((e) => e.type === 'config_delta')).toHaveLength(1);
    expect(elements.filter((e) => e.type === 'chat_request').map((e) => e.content)).toEqual([
      'count words',
      'and lines?',
    ]);
    const note = result.notes.find((n) => n.code === 'codex/system-prompt');
    expect(note?.message).toContain(
      "the session's base_instructions, 1 developer message and 1 injected context message",
    );
  });

  it('is absent when the rollout records none of it', () => {
    const result = importTranscript(
      [line('session_meta', { id: 'x' }), message('user', 'hi')].join('\n'),
    );
    expect(result.elements?.map((e) => e.type)).toEqual(['turn_start', 'chat_request']);
  });
});
