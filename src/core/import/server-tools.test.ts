/**
 * Issue 20, classes 3, 4, 5 and 8: server-side tools are calls, an unknown
 * item is a note, another agent's file is not an API body, and a file that
 * is not a conversation is refused by name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import type { StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';
import { readAnyStream } from './read-stream.ts';

const pairs = (elements: readonly StreamElement[] | undefined) =>
  (elements ?? []).flatMap((e) =>
    e.type === 'tool_call_request'
      ? [`call ${String(e.id)} ${String(e.name)}`]
      : e.type === 'tool_call_response'
        ? [`result ${String(e.id)}${e.is_error ? ' error' : ''} ${String(e.content).length}`]
        : [],
  );

describe('server-side tools are tool calls with their results (class 3)', () => {
  it('reads Anthropic server_tool_use, every *_tool_result and mcp_tool_use under their own names', () => {
    const results = [
      {
        type: 'web_search_result',
        url: 'https://example.invalid',
        title: 'Fake',
        encrypted_content: 'x'.repeat(500),
      },
    ];
    const body = {
      model: 'claude-fake',
      messages: [
        { role: 'user', content: 'search' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'fake' } },
            { type: 'web_search_tool_result', tool_use_id: 's1', content: results },
            { type: 'server_tool_use', id: 's2', name: 'code_execution', input: { code: '1' } },
            {
              type: 'code_execution_tool_result',
              tool_use_id: 's2',
              content: { type: 'code_execution_tool_result_error', error_code: 'unavailable' },
            },
            { type: 'server_tool_use', id: 's3', name: 'bash_code_execution', input: {} },
            {
              type: 'bash_code_execution_tool_result',
              tool_use_id: 's3',
              content: { stdout: 'ok' },
            },
            { type: 'server_tool_use', id: 's4', name: 'tool_search_tool_regex', input: {} },
            {
              type: 'tool_search_tool_result',
              tool_use_id: 's4',
              content: { tool_references: [] },
            },
            { type: 'mcp_tool_use', id: 'm1', name: 'fake_lookup', server_name: 'fake', input: {} },
            {
              type: 'mcp_tool_result',
              tool_use_id: 'm1',
              is_error: false,
              content: [{ type: 'text', text: 'found' }],
            },
          ],
        },
      ],
    };
    const result = importTranscript(JSON.stringify(body));
    expect(result.format).toBe('anthropic-messages');
    expect(pairs(result.elements)).toEqual([
      'call s1 web_search',
      `result s1 ${JSON.stringify(results).length}`,
      'call s2 code_execution',
      `result s2 error ${JSON.stringify({ type: 'code_execution_tool_result_error', error_code: 'unavailable' }).length}`,
      'call s3 bash_code_execution',
      `result s3 ${JSON.stringify({ stdout: 'ok' }).length}`,
      'call s4 tool_search_tool_regex',
      `result s4 ${JSON.stringify({ tool_references: [] }).length}`,
      'call m1 fake_lookup',
      'result m1 5',
    ]);
    expect(result.sourceCalls).toBe(5);
  });

  it('reads OpenAI Responses hosted items under their item type (mcp_call under its name)', () => {
    const input = [
      { type: 'message', role: 'user', content: 'go' },
      {
        type: 'web_search_call',
        id: 'ws1',
        status: 'completed',
        action: { type: 'search', query: 'fake' },
      },
      {
        type: 'file_search_call',
        id: 'fs1',
        status: 'completed',
        queries: ['q'],
        results: [{ text: 'hit' }],
      },
      {
        type: 'code_interpreter_call',
        id: 'ci1',
        code: 'print(1)',
        container_id: 'c',
        outputs: [{ type: 'logs', logs: '1' }],
      },
      {
        type: 'mcp_call',
        id: 'mc1',
        name: 'fake_tool',
        server_label: 'fake',
        arguments: '{"a":1}',
        output: 'done',
        error: null,
      },
      { type: 'tool_search_call', id: 'tsc1', arguments: '{}', results: 'none' },
      { type: 'image_generation_call', id: 'ig1', status: 'completed', result: 'aGVsbG8=' },
      {
        type: 'computer_call',
        id: 'cc-item',
        call_id: 'cc1',
        action: { type: 'click', x: 1, y: 2 },
      },
      {
        type: 'computer_call_output',
        call_id: 'cc1',
        output: { type: 'computer_screenshot', image_url: 'data:' },
      },
    ];
    const result = importTranscript(JSON.stringify({ model: 'gpt-fake', input }));
    expect(result.format).toBe('openai-responses');
    expect(pairs(result.elements)).toEqual([
      'call ws1 web_search_call',
      'result ws1 0',
      'call fs1 file_search_call',
      `result fs1 ${JSON.stringify({ results: [{ text: 'hit' }] }).length}`,
      'call ci1 code_interpreter_call',
      `result ci1 ${JSON.stringify({ outputs: [{ type: 'logs', logs: '1' }] }).length}`,
      'call mc1 fake_tool',
      `result mc1 ${JSON.stringify({ output: 'done', error: null }).length}`,
      'call tsc1 tool_search_call',
      'result tsc1 4',
      'call ig1 image_generation_call',
      'result ig1 8',
      'call cc1 computer_call',
      `result cc1 ${JSON.stringify({ type: 'computer_screenshot', image_url: 'data:' }).length}`,
    ]);
  });
});

describe('an unknown item type is a note with its line, never a refusal (class 4)', () => {
  const text = `{"input": [
  {"type": "message", "role": "user", "content": "go"},
  {"type": "tool_search_call", "id": "t1", "arguments": "{}"},
  {"type": "brand_new_call", "id": "n1"}
]}`;
  for (const options of [{}, { from: 'openai-responses' as const }]) {
    it(`imports the rest ${options.from ? 'when forced' : 'when detected'}`, () => {
      const result = importTranscript(text, options);
      expect(result.format).toBe('openai-responses');
      expect(pairs(result.elements)).toEqual(['call t1 tool_search_call', 'result t1 0']);
      expect(
        result.notes.find((n) => n.code === 'openai-responses/item-brand_new_call'),
      ).toMatchObject({ line: 4, count: 1, calls: 1 });
    });
  }
});

describe("another agent's file is not an API body (class 5)", () => {
  const amp = readFileSync(
    join(SHARED_DIR, 'corpus', 'agent-transcripts-2026', 'amp', 'toolpath__convo.json'),
    'utf8',
  );
  it('refuses an Amp thread as Anthropic Messages, detected or forced', () => {
    const forced = importTranscript(amp, { from: 'anthropic-messages' });
    expect(forced.elements).toBeUndefined();
    expect(forced.diagnostics[0]?.message).toMatch(
      /has the key "\w+"; Messages API messages have only/,
    );
    const detected = importTranscript(amp);
    expect(detected.format === 'anthropic-messages').toBe(false);
  });

  it('says which format it chose, and why, when a text fits two', () => {
    const body = {
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }],
        },
      ],
    };
    const result = importTranscript(JSON.stringify(body));
    expect(result.format).toBe('anthropic-messages');
    expect(result.notes[0]?.code).toBe('import/also-fits');
    expect(result.notes[0]?.message).toMatch(
      /also of OpenAI Chat Completions.*read as Anthropic Messages/,
    );
  });
});

describe('a file that is not a conversation is refused by name (class 8)', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a Gemini CLI checkpoint',
      JSON.stringify([
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
      ]),
      /Gemini CLI checkpoint/,
    ],
    [
      "Gemini's logs.json",
      JSON.stringify([
        {
          sessionId: 's',
          messageId: 0,
          type: 'user',
          message: 'hi',
          timestamp: '2025-07-01T00:00:00.000Z',
        },
      ]),
      /Gemini CLI's logs\.json/,
    ],
    [
      'a LangChain message dump',
      JSON.stringify([
        { type: 'human', data: { content: 'hi' } },
        { type: 'ai', data: { content: 'hello' } },
      ]),
      /LangChain message dump/,
    ],
    [
      'a Goose session',
      `${JSON.stringify({ working_dir: '/fake', description: 'fake', message_count: 1 })}\n${JSON.stringify({ role: 'user', created: 1, content: [{ type: 'text', text: 'hi' }] })}`,
      /looks like a Goose session: not supported yet/,
    ],
  ];
  for (const [name, text, message] of cases) {
    it(`refuses ${name}, as the events reader would not`, () => {
      const read = readAnyStream(text, { encoding: 'auto' });
      expect(read.parsed.elements).toBeUndefined();
      expect(read.parsed.diagnostics[0]?.message).toMatch(message);
    });
  }
  it('names Gemini when a Gemini checkpoint is forced as Chat Completions', () => {
    const result = importTranscript(String(cases[0]?.[1]), { from: 'openai-chat' });
    expect(result.elements).toBeUndefined();
    expect(result.diagnostics[0]?.message).toMatch(
      /"parts" instead of "content".*Gemini CLI checkpoint/,
    );
  });
});
