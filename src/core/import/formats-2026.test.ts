import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { importTranscript } from './import.ts';
import { readRecordedUsage } from './recorded-usage.ts';
import type { ImportResult } from './types.ts';

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');

/** [event type, its recorded usage] for every event that carries one. */
function usages(result: ImportResult): [string, unknown][] {
  return (result.elements ?? []).flatMap((e) => {
    const usage = readRecordedUsage(e.metadata);
    return usage ? [[String(e.type), usage] as [string, unknown]] : [];
  });
}

const codex = (type: string, payload: object, s = 0, extra: object = {}) => ({
  timestamp: `2026-03-02T03:04:${String(s).padStart(2, '0')}.000Z`,
  type,
  payload,
  ...extra,
});
const userItem = (text: string) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
const answer = (text: string) => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});

describe('Codex rollouts of 2026', () => {
  it('reads the new line types without refusing the file, and a response_item with a metadata sibling', () => {
    const text = jsonl([
      codex('session_meta', { id: 's' }),
      codex('world_state', {}),
      codex('response_item', userItem('hi'), 1, {
        ordinal: 3,
        metadata: { client_authored: false },
      }),
      codex('inter_agent_communication', {}),
      codex('response_item', answer('hello'), 2, { metadata: {} }),
      codex('compacted', {
        message: 'summary',
        replacement_history: [userItem('hi')],
        window_number: 1,
        retained_context: { user_messages: [{ order: 0, text: 'hi', complete: true }] },
      }),
      codex('retained_context', { user_messages: [] }),
      codex('security_risk_score', {}),
      codex('realtime_item', {}),
    ]);
    const result = importTranscript(text);
    expect(result.format).toBe('codex');
    expect(result.diagnostics).toEqual([]);
    expect(result.elements?.map((e) => e.content ?? e.message ?? e.type)).toEqual([
      'turn_start',
      'hi',
      'hello',
    ]);
    const codes = result.notes.map((n) => n.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'codex/compacted',
        'codex/retained_context',
        'codex/world_state',
        'codex/inter_agent_communication',
        'codex/security_risk_score',
        'codex/realtime_item',
      ]),
    );
    expect(codes.some((code) => code.startsWith('codex/unknown-'))).toBe(false);
  });

  it('keeps token_count usage on the first event of its response, once per response', () => {
    const last = (input: number, cached: number, output: number, reasoning: number) => ({
      input_tokens: input,
      cached_input_tokens: cached,
      output_tokens: output,
      reasoning_output_tokens: reasoning,
      total_tokens: input + output,
    });
    const count = (lastUsage: object, total: number) => ({
      type: 'token_count',
      info: { last_token_usage: lastUsage, total_token_usage: { total_tokens: total } },
    });
    const text = jsonl([
      codex('response_item', userItem('list files'), 1),
      codex(
        'response_item',
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }] },
        2,
      ),
      codex(
        'response_item',
        { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' },
        3,
      ),
      codex('event_msg', count(last(1000, 800, 50, 20), 1050), 4),
      // Codex writes an unchanged count again when only its rate limits change.
      codex('event_msg', count(last(1000, 800, 50, 20), 1050), 4),
      codex('response_item', { type: 'function_call_output', call_id: 'c1', output: 'a b' }, 5),
      codex('response_item', answer('two files'), 6),
      codex('event_msg', count(last(1100, 1000, 10, 0), 2160), 7),
    ]);
    const result = importTranscript(text);
    expect(usages(result)).toEqual([
      [
        'chat_response',
        {
          prompt_tokens: 1000,
          cache_read_tokens: 800,
          cache_write_tokens: 0,
          output_tokens: 50,
          reasoning_tokens: 20,
        },
      ],
      [
        'chat_response',
        {
          prompt_tokens: 1100,
          cache_read_tokens: 1000,
          cache_write_tokens: 0,
          output_tokens: 10,
          reasoning_tokens: 0,
        },
      ],
    ]);
    // The first usage is on the reasoning (the response's first event), not on its call.
    expect(result.elements?.find((e) => e.metadata)?.reasoning).toBe('plan');
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'codex/token-count-repeated', count: 1, line: 5 }),
    );
  });

  it('imports a web search as a call of "web_search_call" with an empty result (Codex records no results)', () => {
    const text = jsonl([
      codex('response_item', userItem('find the docs'), 1),
      codex(
        'response_item',
        {
          type: 'web_search_call',
          id: 'ws_1',
          status: 'completed',
          action: { type: 'search', query: 'jp docs' },
        },
        2,
      ),
      codex('response_item', answer('found'), 3),
    ]);
    const result = importTranscript(text);
    expect(result.elements?.filter((e) => String(e.type).startsWith('tool_call'))).toMatchObject([
      {
        type: 'tool_call_request',
        id: 'ws_1',
        name: 'web_search_call',
        arguments: { query: 'jp docs' },
      },
      { type: 'tool_call_response', id: 'ws_1', content: '', is_error: false },
    ]);
  });

  it('takes usage from token_usage_record lines when the file has them, not twice from token_count', () => {
    const usage = {
      input_tokens: 500,
      cached_input_tokens: 100,
      cache_write_input_tokens: 200,
      output_tokens: 7,
      reasoning_output_tokens: 0,
      total_tokens: 507,
    };
    const text = jsonl([
      codex('response_item', userItem('go'), 1),
      codex('response_item', answer('done'), 2),
      codex('token_usage_record', { response_id: 'r1', usage, thread_token_usage: usage }, 3),
      codex(
        'event_msg',
        { type: 'token_count', info: { last_token_usage: usage, total_token_usage: usage } },
        3,
      ),
    ]);
    expect(usages(importTranscript(text))).toEqual([
      [
        'chat_response',
        {
          prompt_tokens: 500,
          cache_read_tokens: 100,
          cache_write_tokens: 200,
          output_tokens: 7,
          reasoning_tokens: 0,
        },
      ],
    ]);
  });
});

describe('Gemini CLI JSON Lines sessions of 2026', () => {
  const header = { sessionId: 's', projectHash: 'p', startTime: '2026-05-07T18:28:01.404Z' };
  const user = (id: string, text: string, s: number) => ({
    id,
    type: 'user',
    timestamp: `2026-05-07T18:28:${String(s).padStart(2, '0')}.000Z`,
    content: [{ text }],
  });
  const gemini = (id: string, text: string, s: number, tokens?: object) => ({
    id,
    type: 'gemini',
    timestamp: `2026-05-07T18:28:${String(s).padStart(2, '0')}.000Z`,
    content: text,
    ...(tokens ? { tokens } : {}),
  });

  it('drops the message a $rewindTo names and every later one, then goes on', () => {
    const text = jsonl([
      header,
      user('u1', 'first', 1),
      gemini('g1', 'one', 2),
      user('u2', 'second', 3),
      gemini('g2', 'two', 4),
      { $set: { lastUpdated: '2026-05-07T18:28:05.000Z' } },
      { $rewindTo: 'u2' },
      user('u3', 'second, again', 6),
      gemini('g3', 'three', 7),
    ]);
    const result = importTranscript(text);
    expect(result.format).toBe('gemini-cli');
    expect(result.elements?.map((e) => e.content ?? e.message ?? e.type)).toEqual([
      'turn_start',
      'first',
      'one',
      'turn_start',
      'second, again',
      'three',
    ]);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'gemini-cli/rewind', count: 1, line: 7 }),
    );
  });

  it('drops every message when a $rewindTo names an unknown id', () => {
    const text = jsonl([
      header,
      user('u1', 'first', 1),
      { $rewindTo: 'nope' },
      user('u2', 'again', 3),
    ]);
    expect(importTranscript(text).elements?.map((e) => e.content ?? e.type)).toEqual([
      'turn_start',
      'again',
    ]);
  });

  it("keeps each response's tokens on its first event (thoughts are output, tool prompts input)", () => {
    const text = jsonl([
      header,
      user('u1', 'hi', 1),
      gemini('g1', 'hello', 2, {
        input: 900,
        output: 30,
        cached: 600,
        thoughts: 12,
        tool: 5,
        total: 947,
      }),
    ]);
    expect(usages(importTranscript(text))).toEqual([
      [
        'chat_response',
        {
          prompt_tokens: 905,
          cache_read_tokens: 600,
          cache_write_tokens: 0,
          output_tokens: 42,
          reasoning_tokens: 12,
        },
      ],
    ]);
  });
});

describe('Gemini CLI single-file sessions (the older form)', () => {
  it("still reads them, with each response's tokens kept", () => {
    const text = JSON.stringify({
      sessionId: 's',
      projectHash: 'p',
      startTime: '2026-01-07T10:00:00.000Z',
      messages: [
        { id: 'u', type: 'user', timestamp: '2026-01-07T10:00:01.000Z', content: 'hi' },
        {
          id: 'g',
          type: 'gemini',
          timestamp: '2026-01-07T10:00:02.000Z',
          content: 'hello',
          tokens: { input: 100, output: 5, cached: 0, thoughts: 0, tool: 0, total: 105 },
        },
      ],
    });
    const result = importTranscript(text);
    expect(result.format).toBe('gemini-cli');
    expect(usages(result)).toEqual([
      [
        'chat_response',
        {
          prompt_tokens: 100,
          cache_read_tokens: 0,
          cache_write_tokens: 0,
          output_tokens: 5,
          reasoning_tokens: 0,
        },
      ],
    ]);
  });
});

describe('OpenCode 2.0 exports', () => {
  it('reads session_v2 / session_message, the shell tool and output in state.content blocks, with step usage', () => {
    const text = JSON.stringify({
      session_v2: { id: 'ses_2', title: 'two' },
      session_message: [
        {
          id: 'm1',
          role: 'user',
          time: { created: 1_780_000_000_000 },
          parts: [{ id: 'p1', type: 'text', text: 'list it' }],
        },
        {
          id: 'm2',
          role: 'assistant',
          time: { created: 1_780_000_001_000 },
          parts: [
            { id: 'p2', type: 'step-start' },
            {
              id: 'p3',
              type: 'tool',
              tool: 'shell',
              callID: 'c1',
              state: {
                status: 'completed',
                input: { command: 'ls' },
                content: [
                  { type: 'text', text: 'a.txt' },
                  { type: 'text', text: 'b.txt' },
                ],
                time: { start: 1_780_000_001_500, end: 1_780_000_001_600 },
              },
            },
            {
              id: 'p4',
              type: 'step-finish',
              tokens: { input: 40, output: 9, reasoning: 3, cache: { read: 1000, write: 60 } },
            },
          ],
        },
      ],
    });
    const result = importTranscript(text);
    expect(result.format).toBe('opencode');
    const call = result.elements?.find((e) => e.type === 'tool_call_request');
    expect(call).toMatchObject({ name: 'shell', id: 'c1', arguments: { command: 'ls' } });
    expect(result.elements?.find((e) => e.type === 'tool_call_response')).toMatchObject({
      id: 'c1',
      content: 'a.txt\nb.txt',
      is_error: false,
    });
    expect(usages(result)).toEqual([
      [
        'tool_call_request',
        {
          prompt_tokens: 1100,
          cache_read_tokens: 1000,
          cache_write_tokens: 60,
          output_tokens: 12,
          reasoning_tokens: 3,
        },
      ],
    ]);
  });

  it('still reads a 1.x export, its state.output kept', () => {
    const text = JSON.stringify({
      info: { id: 'ses_1' },
      messages: [
        { info: { role: 'user' }, parts: [{ type: 'text', text: 'run' }] },
        {
          info: { role: 'assistant' },
          parts: [
            {
              type: 'tool',
              tool: 'bash',
              callID: 'c',
              state: { status: 'completed', input: { command: 'ls' }, output: 'x' },
            },
          ],
        },
      ],
    });
    const result = importTranscript(text);
    expect(result.elements?.filter((e) => String(e.type).startsWith('tool'))).toMatchObject([
      { name: 'bash' },
      { content: 'x' },
    ]);
  });
});

describe('the agents added in 2026, told apart by their whole envelope', () => {
  const corpus = (path: string) =>
    readFileSync(join(SHARED_DIR, 'corpus/agent-transcripts-2026', path), 'utf8');

  it('reads an Amp thread as Amp, not as Anthropic Messages, with every result by its toolUseID', () => {
    const result = importTranscript(corpus('amp/toolpath__convo.json'));
    expect(result.format).toBe('amp');
    const calls = (result.elements ?? []).filter((e) => e.type === 'tool_call_request');
    const results = (result.elements ?? []).filter((e) => e.type === 'tool_call_response');
    expect(calls).toHaveLength(11);
    expect(results.map((e) => e.id).sort()).toEqual(calls.map((e) => e.id).sort());
  });

  it('calls an Amp shell command that exited non-zero an error (Amp records no error flag)', () => {
    const thread = {
      v: 1,
      id: 'T-0000',
      created: 1,
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'cat x' }],
          meta: { sentAt: 1_785_177_255_723 },
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'TU-1', name: 'shell_command', input: { command: 'cat x' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseID: 'TU-1',
              run: { status: 'done', result: { output: 'No such file', exitCode: 1 } },
            },
          ],
        },
      ],
    };
    const result = importTranscript(JSON.stringify(thread));
    expect(result.format).toBe('amp');
    expect(result.elements?.find((e) => e.type === 'tool_call_response')).toMatchObject({
      id: 'TU-1',
      content: 'No such file',
      is_error: true,
    });
  });

  it('tells an OpenClaw session from a Pi session by the entries only OpenClaw writes', () => {
    const openclaw = corpus('openclaw/toolpath__telegram-dm.jsonl');
    expect(importTranscript(openclaw).format).toBe('openclaw');
    const withoutMarks = openclaw
      .split('\n')
      .filter((line) => !line.includes('"customType"'))
      .join('\n');
    expect(importTranscript(withoutMarks).format).toBe('pi');
    const forced = importTranscript(openclaw, { from: 'pi' });
    expect(forced.elements).toBeUndefined();
    expect(forced.diagnostics[0]?.message).toMatch(/OpenClaw/);
  });

  it('counts a Copilot call once when both toolRequests and tool.execution_start announce it', () => {
    const event = (id: string, type: string, data: object) =>
      JSON.stringify({ type, id, timestamp: '2026-06-30T10:00:00.000Z', data });
    const text = [
      event('e1', 'session.start', { sessionId: 's' }),
      event('e2', 'user.message', { content: 'list' }),
      event('e3', 'assistant.message', {
        content: '',
        toolRequests: [{ toolCallId: 'c1', name: 'bash', arguments: { command: 'ls' } }],
      }),
      event('e4', 'tool.execution_start', { toolCallId: 'c1', toolName: 'bash', arguments: {} }),
      event('e5', 'tool.execution_complete', {
        toolCallId: 'c1',
        success: false,
        result: { content: 'denied', detailedContent: 'denied (shown)' },
      }),
    ].join('\n');
    const result = importTranscript(text);
    expect(result.format).toBe('copilot-cli');
    expect(result.elements?.filter((e) => e.type === 'tool_call_request')).toMatchObject([
      { id: 'c1', name: 'bash', arguments: { command: 'ls' } },
    ]);
    expect(result.elements?.find((e) => e.type === 'tool_call_response')).toMatchObject({
      content: 'denied',
      is_error: true,
    });
  });

  it("reads chat-like JSON Lines as Kimi CLI only with Kimi's bookkeeping lines", () => {
    const chat = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ];
    expect(importTranscript(jsonl(chat)).format).not.toBe('kimi-cli');
    expect(importTranscript(jsonl([{ role: '_checkpoint', id: 0 }, ...chat])).format).toBe(
      'kimi-cli',
    );
  });

  it('names a Kimi CLI line past detection without a role, or with a role it does not know, for what it is', () => {
    // Detection reads the first 50 lines: the lines after them can be anything.
    const head = [
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'go' },
      ...Array.from({ length: 50 }, (_, i) => ({ role: '_usage', token_count: i })),
    ];
    const result = importTranscript(
      jsonl([...head, { content: 'no role' }, { role: 'critic', content: 'x' }, [1]]),
    );
    expect(result.format).toBe('kimi-cli');
    const codes = result.notes.map((note) => note.code);
    expect(codes).toContain('kimi-cli/no-role');
    expect(codes).toContain('kimi-cli/role-critic');
    expect(codes.some((code) => code.includes('undefined'))).toBe(false);
    expect(result.diagnostics).toMatchObject([{ line: 55, code: 'kimi-cli/not-object' }]);
  });

  it('imports a Kimi Code journal whose turns were cancelled with no call', () => {
    const result = importTranscript(corpus('kimi-code/agent-sessions__kimi__small.jsonl'));
    expect(result.format).toBe('kimi-code');
    expect(result.elements?.filter((e) => e.type === 'tool_call_request')).toEqual([]);
    expect(result.elements?.filter((e) => e.type === 'chat_request').length).toBeGreaterThan(0);
  });
});
