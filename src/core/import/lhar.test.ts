import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { CORPUS_2026 } from '../../test/fixtures/agent-transcripts-2026.ts';
import { importTranscript } from './import.ts';
import { accountImport } from './loss-guard.ts';
import { readRecordedUsage } from './recorded-usage.ts';

const FIXTURE = join(import.meta.dirname, '../../test/fixtures/lhar/openclaw-convo.lhar');
// The sample is tools/lhar-sample's rendering of this session (checked there).
const SOURCE = join(SHARED_DIR, 'corpus/agent-transcripts-2026/openclaw/toolpath__convo.jsonl');
const EXPECTED = JSON.parse(
  readFileSync(join(SHARED_DIR, 'corpus/agent-transcripts-2026/expected-tool-calls.json'), 'utf8'),
) as Record<string, Record<string, number>>;

function calls(text: string) {
  const result = importTranscript(text);
  const perTool: Record<string, number> = {};
  for (const e of result.elements ?? []) {
    if (e.type === 'tool_call_request')
      perTool[String(e.name)] = (perTool[String(e.name)] ?? 0) + 1;
  }
  return { result, perTool };
}

describe('Context Lens LHAR recordings', () => {
  const text = readFileSync(FIXTURE, 'utf8');

  it('imports one response per entry: the calls of the session it was made from, each result once', () => {
    const { result, perTool } = calls(text);
    expect(result.format).toBe('lhar');
    expect(result.diagnostics).toEqual([]);
    expect(perTool).toEqual(EXPECTED['openclaw/toolpath__convo.jsonl']);
    const answered = (result.elements ?? []).filter((e) => e.type === 'tool_call_response');
    // The last call's result (sessions_yield) went into no later request: the recording ends before it.
    expect(answered).toHaveLength(10);
    expect(new Set(answered.map((e) => e.id)).size).toBe(10);
  });

  it("keeps each entry's usage and cache figures on its response, as the session recorded them", () => {
    const kept = (importTranscript(text).elements ?? []).flatMap((e) => {
      const usage = readRecordedUsage(e.metadata);
      return usage ? [usage] : [];
    });
    const source = CORPUS_2026.find((e) => e.path === 'openclaw/toolpath__convo.jsonl');
    // The sample records `thinking_tokens: 0` for every call (the session ran with thinking off).
    const recorded = source?.usage?.(readFileSync(SOURCE, 'utf8')).map((u) => ({
      ...u,
      reasoning_tokens: 0,
    }));
    expect(kept).toEqual(recorded);
    expect(kept).toHaveLength(10);
  });

  it('reads the wrapped .lhar.json form the same way', () => {
    const [session, ...entries] = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { type: _type, ...sessionFields } = session as Record<string, unknown>;
    const wrapped = JSON.stringify({
      lhar: {
        version: '0.1',
        creator: { name: 'context-lens', version: 'x' },
        sessions: [sessionFields],
        entries,
      },
    });
    const { result, perTool } = calls(wrapped);
    expect(result.format).toBe('lhar');
    expect(perTool).toEqual(EXPECTED['openclaw/toolpath__convo.jsonl']);
  });

  it('says that entries recorded without bodies hold no messages', () => {
    const lines = text.trim().split('\n');
    const entry = JSON.parse(lines[1] as string) as { raw: unknown };
    entry.raw = { request_body: null, response_body: null };
    const result = importTranscript([lines[0], JSON.stringify(entry)].join('\n'));
    expect(result.format).toBe('lhar');
    expect(result.elements).toEqual([]);
    expect(result.notes.map((n) => n.code)).toContain('lhar/no-bodies');
  });
});

/** A recording of hand-made entries: the session line, then one entry per call. */
function recording(...entries: { request: unknown; response: unknown }[]): string {
  const trace = 'f'.repeat(32);
  const lines: unknown[] = [
    { type: 'session', trace_id: trace, started_at: '2026-03-01T10:00:00.000Z', tool: 'fake' },
  ];
  for (const [index, { request, response }] of entries.entries()) {
    lines.push({
      type: 'entry',
      id: `entry-${index + 1}`,
      trace_id: trace,
      timestamp: `2026-03-01T10:00:0${index + 1}.000Z`,
      sequence: index + 1,
      source: { tool: 'fake', agent_role: 'main' },
      gen_ai: { usage: { input_tokens: 1, output_tokens: 1 } },
      raw: { request_body: request, response_body: response },
    });
  }
  return lines.map((line) => JSON.stringify(line)).join('\n');
}

const ASK = { role: 'user', content: [{ type: 'text', text: 'List the files.' }] };

function importedCalls(text: string) {
  const result = importTranscript(text);
  const calls = (result.elements ?? []).flatMap((e) =>
    e.type === 'tool_call_request' ? [{ id: e.id, name: e.name, arguments: e.arguments }] : [],
  );
  return { result, calls, account: accountImport(result, false) };
}

describe('LHAR calls the loss guard accounts for', () => {
  it('imports a hosted tool of a Responses answer as a call with its result', () => {
    const { result, calls, account } = importedCalls(
      recording({
        request: { model: 'fake', input: 'Search the web.' },
        response: {
          output: [
            { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { query: 'q' } },
            {
              type: 'message',
              role: 'assistant',
              content: [{ type: 'output_text', text: 'Found.' }],
            },
          ],
        },
      }),
    );
    expect(calls).toEqual([
      { id: 'ws_1', name: 'web_search_call', arguments: { action: { query: 'q' } } },
    ]);
    expect(result.elements?.filter((e) => e.type === 'tool_call_response')).toHaveLength(1);
    expect(account.unexplained).toBe(0);
  });

  it('reads a response kept as its event stream', () => {
    const events = [
      { type: 'message_start', message: { role: 'assistant', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Listing.' } },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"command"' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: ':"ls"}' },
      },
      { type: 'message_stop' },
    ];
    const stream = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    const { result, calls } = importedCalls(
      recording({ request: { model: 'fake', messages: [ASK], stream: true }, response: stream }),
    );
    expect(calls).toEqual([{ id: 'toolu_1', name: 'Bash', arguments: { command: 'ls' } }]);
    expect(result.elements?.find((e) => e.type === 'chat_response')?.message).toBe('Listing.');
  });

  it('reads an answer whose response was not recorded from the next request, which repeats it', () => {
    const answer = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }],
    };
    const result = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.md' }],
    };
    const { calls, account } = importedCalls(
      recording(
        { request: { model: 'fake', messages: [ASK] }, response: null },
        {
          request: { model: 'fake', messages: [ASK, answer, result] },
          response: { content: [{ type: 'text', text: 'One file.' }] },
        },
      ),
    );
    expect(calls.map((c) => c.id)).toEqual(['toolu_1']);
    expect(account.unexplained).toBe(0);
  });

  it('counts a call without a name as left out, with its line', () => {
    const { calls, account, result } = importedCalls(
      recording({
        request: { model: 'fake', messages: [ASK] },
        response: { content: [{ type: 'tool_use', id: 'toolu_1', input: {} }] },
      }),
    );
    expect(calls).toEqual([]);
    expect(account.sourceCalls).toBe(1);
    expect(account.leftOut).toEqual([{ code: 'lhar/bad-call', calls: 1 }]);
    expect(account.unexplained).toBe(0);
    expect(result.diagnostics[0]?.message).toMatch(/^Line 2: /);
  });
});
