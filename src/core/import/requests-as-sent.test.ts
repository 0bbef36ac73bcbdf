/**
 * Issue 40, "requests as they were sent": each import gives the replay one
 * request per API response the runtime sent, each carrying that response's
 * own recorded usage. Expected figures are counted by hand from the files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { createReplaySettings, replayStream } from '../replay/replay.ts';
import type { JsonObject, StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';

const CORPUS = join(SHARED_DIR, 'corpus');
const counter = await loadTokenCounter('chars');

function replayRequests(elements: readonly StreamElement[]) {
  return replayStream(elements, createReplaySettings(counter), { schedules: false, tools: false })
    .requests;
}

function importCorpus(path: string): StreamElement[] {
  return importTranscript(readFileSync(join(CORPUS, path), 'utf8')).elements ?? [];
}

describe('Codex: a history kept only as event_msg items', () => {
  it('toolpath__convo.jsonl is 11 requests, each with its own token_count', () => {
    const requests = replayRequests(importCorpus('agent-transcripts/codex/toolpath__convo.jsonl'));
    // Lines 10–27: nine token_count last_token_usage input figures (line 23's
    // and 24's agent messages are one response, counted at line 25); line 35
    // repeats line 27's total. Then the second turn's two responses (lines 40, 44).
    expect(requests.map((r) => r.recorded?.prompt_tokens)).toEqual([
      13_973, 14_636, 14_849, 15_030, 15_142, 15_323, 15_829, 16_105, 16_285, 12_882, 13_430,
    ]);
    expect(requests.map((r) => r.recorded?.output_tokens)).toEqual([
      623, 176, 122, 75, 131, 267, 216, 143, 103, 496, 13,
    ]);
  });
});

describe('Codex: what it sends ahead of the conversation', () => {
  it('toolpath__convo.jsonl: base instructions (line 1), developer (line 4) and context (line 5) as one system prompt', () => {
    const path = 'agent-transcripts/codex/toolpath__convo.jsonl';
    const raw = readFileSync(join(CORPUS, path), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as JsonObject).payload as JsonObject);
    const texts = (payload: JsonObject) =>
      (payload.content as JsonObject[]).map((part) => part.text as string);
    const expected = [
      ((raw[0] as JsonObject).base_instructions as JsonObject).text as string,
      // Line 4's two parts: the permissions and the skills instructions.
      ...texts(raw[3] as JsonObject),
      ...texts(raw[4] as JsonObject),
    ].join('\n\n');
    const elements = importCorpus(path);
    expect(elements[0]).toMatchObject({
      type: 'config_delta',
      timestamp: '2026-05-07 18:27:42.128',
      delta: { assistant: { system_prompt: expected } },
    });
    expect(elements.filter((e) => e.type === 'config_delta')).toHaveLength(1);
  });
});

describe('Gemini CLI: parallel calls of one message', () => {
  const call = (id: string, name: string, output: string, s: number) => ({
    id,
    name,
    args: { file_path: `${name}.md` },
    result: [{ functionResponse: { id, name, response: { output } } }],
    status: 'success',
    timestamp: `2026-05-07T18:28:1${s}.000Z`,
  });

  it('are one request: the calls together, then their results', () => {
    const text = [
      { sessionId: 's', projectHash: 'h', startTime: '2026-05-07T18:28:01.404Z', kind: 'main' },
      {
        id: 'u1',
        timestamp: '2026-05-07T18:28:02.000Z',
        type: 'user',
        content: [{ text: 'read the three notes' }],
      },
      {
        id: 'g1',
        timestamp: '2026-05-07T18:28:05.000Z',
        type: 'gemini',
        content: 'Reading all three at once.',
        thoughts: [],
        tokens: { input: 8702, output: 36, cached: 0, thoughts: 0, tool: 0, total: 8738 },
        model: 'gemini-3-flash-preview',
        toolCalls: [
          call('r1', 'a', 'one', 1),
          call('r2', 'b', 'two', 2),
          call('r3', 'c', 'three', 3),
        ],
      },
      {
        id: 'g2',
        timestamp: '2026-05-07T18:28:20.000Z',
        type: 'gemini',
        content: 'They say one, two, three.',
        tokens: { input: 8800, output: 9, cached: 7000, thoughts: 0, tool: 0, total: 8809 },
        model: 'gemini-3-flash-preview',
      },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');
    const result = importTranscript(text);
    expect(result.format).toBe('gemini-cli');
    expect(
      (result.elements ?? [])
        .filter((e) => e.type === 'tool_call_request' || e.type === 'tool_call_response')
        .map((e) => `${e.type === 'tool_call_request' ? 'call' : 'result'} ${String(e.id)}`),
    ).toEqual(['call r1', 'call r2', 'call r3', 'result r1', 'result r2', 'result r3']);
    // One request for the three calls (not three), then the answer's.
    const requests = replayRequests(result.elements ?? []);
    expect(requests.map((r) => r.recorded?.prompt_tokens)).toEqual([8702, 8800]);
  });

  it('toolpath__convo.jsonl: one request per gemini message with tokens (11, counted by id)', () => {
    const requests = replayRequests(
      importCorpus('agent-transcripts/gemini-cli/toolpath__convo.jsonl'),
    );
    // The 11 distinct gemini message ids, lines 4 to 34, each with its tokens.input.
    expect(requests.map((r) => r.recorded?.prompt_tokens)).toEqual([
      8702, 9133, 9284, 9351, 9509, 9684, 9777, 9895, 10_098, 10_180, 10_289,
    ]);
  });
});

/** Claude Code lines as 2.1.x writes them: a `parentUuid` chain, `version`, `message.model`, `usage`. */
const cc = {
  at: (s: number) => `2026-02-25T06:29:${String(s).padStart(2, '0')}.000Z`,
  user(uuid: string, parentUuid: string | null, s: number, content: unknown, extra = {}) {
    return {
      parentUuid,
      isSidechain: false,
      userType: 'external',
      sessionId: 's',
      version: '2.1.55',
      type: 'user',
      message: { role: 'user', content },
      uuid,
      timestamp: cc.at(s),
      ...extra,
    };
  },
  assistant(
    uuid: string,
    parentUuid: string,
    s: number,
    id: string,
    content: unknown[],
    input = 0,
  ) {
    return {
      parentUuid,
      isSidechain: false,
      userType: 'external',
      sessionId: 's',
      version: '2.1.55',
      message: {
        model: 'claude-opus-4-6',
        id,
        type: 'message',
        role: 'assistant',
        content,
        stop_reason: null,
        usage: {
          input_tokens: input,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 9,
        },
      },
      type: 'assistant',
      uuid,
      timestamp: cc.at(s),
    };
  },
  text: (text: string) => ({ type: 'text', text }),
  call: (id: string, command: string) => ({
    type: 'tool_use',
    id,
    name: 'Bash',
    input: { command },
  }),
  result: (id: string, content: string) => ({
    type: 'tool_result',
    tool_use_id: id,
    content,
    is_error: false,
  }),
  lines: (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n'),
};

describe('Claude Code: <synthetic> lines', () => {
  it('are no request and carry no usage: Claude Code wrote them without calling the API', () => {
    const synthetic = cc.assistant('a4', 'u3', 4, 'a4-synthetic', [
      cc.text('No response requested.'),
    ]);
    synthetic.message.model = '<synthetic>';
    const text = cc.lines(
      cc.user('u1', null, 1, 'hello'),
      cc.assistant('a2', 'u1', 2, 'msg_1', [cc.text('Hi.')], 100),
      cc.user('u3', 'a2', 3, '[Request interrupted by user]'),
      synthetic,
      cc.user('u5', 'a4', 5, 'go on'),
      cc.assistant('a6', 'u5', 6, 'msg_2', [cc.text('Going on.')], 200),
    );
    const result = importTranscript(text);
    const elements = result.elements ?? [];
    expect(elements.some((e) => e.message === 'No response requested.')).toBe(false);
    expect(replayRequests(elements).map((r) => r.recorded?.prompt_tokens)).toEqual([100, 200]);
    // The chain passes through the skipped line: no gap, every prompt kept.
    expect(elements.filter((e) => e.type === 'chat_request').map((e) => e.content)).toEqual([
      'hello',
      '[Request interrupted by user]',
      'go on',
    ]);
    expect(result.notes.map((n) => n.code)).toContain('claude-code/synthetic');
    expect(result.notes.map((n) => n.code)).not.toContain('claude-code/gap');
  });
});
