import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../stream/codec.ts';
import { importTranscript } from './import.ts';
import { readAnyStream } from './read-stream.ts';

describe('Gemini CLI sessions', () => {
  it('imports a message appended again under its id once, as last written; a failed call is an error', () => {
    const text = [
      { sessionId: 's', projectHash: 'p', startTime: '2026-05-07T18:28:01.404Z' },
      {
        id: 'u',
        type: 'user',
        timestamp: '2026-05-07T18:28:02.000Z',
        content: [{ text: 'read it' }],
      },
      { $set: { lastUpdated: '2026-05-07T18:28:02.000Z' } },
      {
        id: 'g',
        type: 'gemini',
        timestamp: '2026-05-07T18:28:03.000Z',
        content: 'reading',
        thoughts: [],
      },
      {
        id: 'g',
        type: 'gemini',
        timestamp: '2026-05-07T18:28:03.000Z',
        content: 'reading',
        thoughts: [{ subject: 'Plan', description: 'read the file' }],
        toolCalls: [
          {
            id: 'r1',
            name: 'read_file',
            args: { file_path: 'x' },
            status: 'error',
            result: [
              {
                functionResponse: {
                  id: 'r1',
                  name: 'read_file',
                  response: { error: 'File not found' },
                },
              },
            ],
          },
        ],
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const result = importTranscript(text);
    expect(result.format).toBe('gemini-cli');
    expect(result.elements?.map((e) => e.type)).toEqual([
      'turn_start',
      'chat_request',
      'chat_response',
      'chat_response',
      'tool_call_request',
      'tool_call_response',
    ]);
    expect(result.elements?.[2]?.reasoning).toBe('Plan\n\nread the file');
    expect(result.elements?.[5]).toMatchObject({
      id: 'r1',
      content: 'File not found',
      is_error: true,
    });
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'gemini-cli/reappended', count: 1, line: 5 }),
    );
  });
});

describe('OpenCode exports', () => {
  it('maps tool parts by state and notes a pruned result (time.compacted)', () => {
    const part = (type: string, extra: object) => ({ id: `p${Math.random()}`, type, ...extra });
    const text = JSON.stringify(
      {
        info: { id: 'ses', title: 't' },
        messages: [
          {
            info: { role: 'user', id: 'm1', time: { created: 1778178631267 } },
            parts: [part('text', { text: 'go' })],
          },
          {
            info: { role: 'assistant', id: 'm2', time: { created: 1778178631300 } },
            parts: [
              part('step-start', {}),
              part('tool', {
                tool: 'read',
                callID: 'c1',
                state: {
                  status: 'completed',
                  input: { filePath: 'a' },
                  output: 'A',
                  time: { start: 1778178632000, end: 1778178632100, compacted: 1778178690000 },
                },
              }),
              part('tool', {
                tool: 'read',
                callID: 'c2',
                state: {
                  status: 'error',
                  input: {},
                  error: 'missing',
                  time: { start: 1778178633000, end: 1778178633001 },
                },
              }),
            ],
          },
        ],
      },
      null,
      2,
    );
    const result = importTranscript(text);
    expect(result.format).toBe('opencode');
    const responses = result.elements?.filter((e) => e.type === 'tool_call_response');
    expect(responses?.map((e) => [e.id, e.content, e.is_error])).toEqual([
      ['c1', 'A', false],
      ['c2', 'missing', true],
    ]);
    expect(result.elements?.[0]?.timestamp).toBe('2026-05-07 18:30:31.267');
    const compacted = result.notes.find((n) => n.code === 'opencode/compacted');
    expect(compacted?.count).toBe(1);
    // The line of the tool part's opening brace: three lines above its "tool" key (id, type).
    const toolKeyLine = text.split('\n').findIndex((l) => l.includes('"tool": "read"')) + 1;
    expect(compacted?.line).toBe(toolKeyLine - 3);
  });
});

describe('API transcripts', () => {
  it('reads an Anthropic request body; redacted thinking is a note, not text', () => {
    const body = {
      model: 'claude',
      system: 'be brief',
      messages: [
        { role: 'user', content: 'run it' },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'EmwKAhgB' },
            { type: 'tool_use', id: 't1', name: 'run_me', input: { x: 1 } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'failed', is_error: true }],
        },
      ],
    };
    const result = importTranscript(JSON.stringify(body, null, 2));
    expect(result.format).toBe('anthropic-messages');
    expect(result.elements?.map((e) => e.type)).toEqual([
      'turn_start',
      'chat_request',
      'tool_call_request',
      'tool_call_response',
    ]);
    expect(result.elements?.[3]?.is_error).toBe(true);
    const codes = result.notes.map((n) => n.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'anthropic-messages/system',
        'anthropic-messages/redacted-thinking',
        'import/no-timestamp',
      ]),
    );
  });

  it('numbers events without timestamps one second apart from 2026-01-01', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ];
    const result = importTranscript(JSON.stringify(messages));
    expect(result.format).toBe('openai-chat');
    expect(result.elements?.map((e) => e.timestamp)).toEqual([
      '2026-01-01 00:00:00.0',
      '2026-01-01 00:00:00.0',
      '2026-01-01 00:00:01.0',
      '2026-01-01 00:00:02.0',
    ]);
    expect(result.elements?.[2]?.arguments).toEqual({ a: 1 });
  });

  it('reads Responses input items with an encrypted reasoning item noted', () => {
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'reasoning', summary: [], encrypted_content: 'gAAA' },
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: 'ok' },
    ];
    const result = importTranscript(JSON.stringify({ input }));
    expect(result.format).toBe('openai-responses');
    expect(result.elements?.map((e) => e.type)).toEqual([
      'turn_start',
      'chat_request',
      'tool_call_request',
      'tool_call_response',
    ]);
    expect(result.notes.map((n) => n.code)).toContain('openai-responses/encrypted-reasoning');
  });
});

describe('detection', () => {
  it('names every format tried and why each did not fit', () => {
    const result = importTranscript('{"hello": "world"}\n');
    expect(result.elements).toBeUndefined();
    const message = result.diagnostics[0]?.message ?? '';
    for (const label of [
      'JP events.json',
      'Claude Code session',
      'Codex CLI rollout',
      'Gemini CLI session',
      'OpenCode session export',
      'OpenAI Chat Completions',
      'OpenAI Responses',
      'Anthropic Messages',
    ]) {
      expect(message).toContain(label);
    }
    expect(message).toContain('line 1 has no "type"');
  });

  it('gives the position of the first bad line of a text that is not JSON at all', () => {
    const result = importTranscript('hello there\n');
    expect(result.diagnostics[0]).toMatchObject({ line: 1, column: 1, code: 'import/not-json' });
  });

  it('leaves a JP events.json, valid or half-typed, to the events codec', () => {
    const good = '[{"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start"}]';
    expect(readAnyStream(good, { encoding: 'auto' }).format).toBe('jp');
    const broken = '[{"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start"},]';
    const read = readAnyStream(broken, { encoding: 'auto' });
    expect(read.format).toBe('jp');
    expect(read.parsed.diagnostics).toEqual(parseEventsText(broken, 'auto').diagnostics);
  });

  it('refuses a forced format that does not fit, saying why', () => {
    const result = importTranscript('[{"role": "user", "content": "hi"}]', { from: 'codex' });
    expect(result.diagnostics[0]?.message).toContain('not a Codex CLI rollout');
  });
});
