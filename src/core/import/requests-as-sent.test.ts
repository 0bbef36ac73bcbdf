/**
 * Issue 40, "requests as they were sent": each import gives the replay one
 * request per API response the runtime sent, each carrying that response's
 * own recorded usage. Expected figures are counted by hand from the files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { createReport } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { isJsonObject } from '../json/values.ts';
import { createReplaySettings, replayStream } from '../replay/replay.ts';
import type { JsonObject, StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';
import { readRecordedBy, readRecordedUsage } from './recorded-usage.ts';

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
  /** What every message line carries besides its message. */
  envelope: (uuid: string, parentUuid: string | null, s: number) => ({
    parentUuid,
    isSidechain: false,
    userType: 'external',
    sessionId: 's',
    version: '2.1.55',
    uuid,
    timestamp: cc.at(s),
  }),
  user(uuid: string, parentUuid: string | null, s: number, content: unknown, extra = {}) {
    return {
      ...cc.envelope(uuid, parentUuid, s),
      type: 'user',
      message: { role: 'user', content },
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
      ...cc.envelope(uuid, parentUuid, s),
      type: 'assistant',
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

describe('Claude Code: responses that share a message.id', () => {
  /**
   * Turn k: the prompt, a response split over two lines (its text, then its
   * call; both repeat its usage), the call's result, then the answer.
   */
  function turn(k: number, callId: string, answerId: string) {
    const base = k * 10;
    return [
      cc.user(`u${base}`, `a${base - 6}`, base, `step ${k}`),
      cc.assistant(
        `a${base + 1}`,
        `u${base}`,
        base + 1,
        callId,
        [cc.text(`Running ${k}.`)],
        k * 1000 + 1,
      ),
      cc.assistant(
        `a${base + 2}`,
        `a${base + 1}`,
        base + 2,
        callId,
        [cc.call(`t${k}`, `step ${k}`)],
        k * 1000 + 1,
      ),
      cc.user(`u${base + 3}`, `a${base + 2}`, base + 3, [cc.result(`t${k}`, `ran ${k}`)]),
      cc.assistant(
        `a${base + 4}`,
        `u${base + 3}`,
        base + 4,
        answerId,
        [cc.text(`Done ${k}.`)],
        k * 1000 + 2,
      ),
    ];
  }
  const session = (ids: [string, string][]) => {
    const records = ids.flatMap(([call, answer], k) => turn(k + 1, call, answer));
    (records[0] as { parentUuid: string | null }).parentUuid = null;
    return importTranscript(cc.lines(...records));
  };
  /** Each call id with the 0-based turn it is imported in. */
  const callTurns = (elements: readonly StreamElement[]) => {
    let turnIndex = -1;
    return elements.flatMap((e) => {
      if (e.type === 'turn_start') turnIndex++;
      return e.type === 'tool_call_request' ? [`${String(e.id)}@${turnIndex}`] : [];
    });
  };

  it('the lines of one response with its results between them are one request, noted as merged', () => {
    // Parallel calls written as Claude Code runs them: call, its result, the next call.
    const text = cc.lines(
      cc.user('u1', null, 1, 'look at both'),
      cc.assistant('a2', 'u1', 2, 'msg_1', [cc.call('t1', 'ls a')], 500),
      cc.user('u3', 'a2', 3, [cc.result('t1', 'a.txt')]),
      cc.assistant('a4', 'u3', 4, 'msg_1', [cc.call('t2', 'ls b')], 500),
      cc.user('u5', 'a4', 5, [cc.result('t2', 'b.txt')]),
      cc.assistant('a6', 'u5', 6, 'msg_2', [cc.text('Both listed.')], 600),
    );
    const result = importTranscript(text);
    const elements = result.elements ?? [];
    expect(
      elements
        .filter((e) => e.type === 'tool_call_request' || e.type === 'tool_call_response')
        .map((e) => `${String(e.type)} ${String(e.id)}`),
    ).toEqual([
      'tool_call_request t1',
      'tool_call_request t2',
      'tool_call_response t1',
      'tool_call_response t2',
    ]);
    expect(replayRequests(elements).map((r) => r.recorded?.prompt_tokens)).toEqual([500, 600]);
    expect(result.notes.find((n) => n.code === 'claude-code/merged-lines')).toMatchObject({
      count: 1,
      line: 2,
    });
  });

  it('an id of "" is no id: every call and prompt kept, one request per response', () => {
    const result = session([
      ['', ''],
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
    const elements = result.elements ?? [];
    expect(callTurns(elements)).toEqual(['t1@0', 't2@1', 't3@2', 't4@3']);
    expect(elements.filter((e) => e.type === 'chat_request').map((e) => e.content)).toEqual([
      'step 1',
      'step 2',
      'step 3',
      'step 4',
    ]);
    // Eight responses (two per turn), the split one's two lines one request with one usage.
    const requests = replayRequests(elements);
    expect(requests.map((r) => [r.turn, r.recorded?.prompt_tokens])).toEqual([
      [0, 1001],
      [0, 1002],
      [1, 2001],
      [1, 2002],
      [2, 3001],
      [2, 3002],
      [3, 4001],
      [3, 4002],
    ]);
  });

  it('an id a server numbers again (chatcmpl-0 in turns 1 and 3): the call stays in turn 3', () => {
    const result = session([
      ['chatcmpl-0', 'chatcmpl-1'],
      ['chatcmpl-2', 'chatcmpl-3'],
      ['chatcmpl-0', 'chatcmpl-4'],
    ]);
    const elements = result.elements ?? [];
    expect(callTurns(elements)).toEqual(['t1@0', 't2@1', 't3@2']);
    expect(elements.filter((e) => e.type === 'chat_request').map((e) => e.content)).toEqual([
      'step 1',
      'step 2',
      'step 3',
    ]);
    expect(replayRequests(elements).map((r) => r.recorded?.prompt_tokens)).toEqual([
      1001, 1002, 2001, 2002, 3001, 3002,
    ]);
    expect(result.notes.find((n) => n.code === 'claude-code/reused-id')).toMatchObject({
      count: 1,
      line: 12,
    });
  });
});

describe('Claude Code corpus: one request per response', () => {
  // Distinct message.id of the assistant lines, sidechains apart, counted from the raw lines.
  it.each([
    ['agent-transcripts-2026/claude-code/kimi-cli__2d__58ad9e0d5c__1__full.jsonl', 14],
    ['agent-transcripts-2026/claude-code/kimi-cli__6f__b0000a4ae0__3__full.jsonl', 8],
    ['agent-transcripts/claude-code/claude-code-log__artifact_tool.jsonl', 5],
    [
      'agent-transcripts/claude-code/claude-code-log__minimal_showcase/55550000-0000-4000-8000-000000000001.jsonl',
      5,
    ],
    ['agent-transcripts/claude-code/claude-code-log__sidechain_integrated.jsonl', 2],
    ['agent-transcripts/claude-code/claude-code-log__system_reminder.jsonl', 1],
    ['agent-transcripts/claude-code/toolpath__convo.jsonl', 20],
  ])('%s: %i requests', (path, responses) => {
    expect(replayRequests(importCorpus(path))).toHaveLength(responses);
  });
});

describe('Claude Code: /compact', () => {
  const summary =
    'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: the user asked an early question and got an early answer.';
  const text = cc.lines(
    cc.user('u1', null, 1, 'early question'),
    cc.assistant('a2', 'u1', 2, 'msg_1', [cc.call('t1', 'ls')], 100),
    cc.user('u3', 'a2', 3, [cc.result('t1', 'a.txt b.txt')]),
    cc.assistant('a4', 'u3', 4, 'msg_2', [cc.text('early answer')], 200),
    {
      parentUuid: null,
      logicalParentUuid: 'a4',
      isSidechain: false,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: cc.at(5),
      uuid: 'b5',
      level: 'info',
      compactMetadata: { trigger: 'manual', preTokens: 300 },
    },
    cc.user('u6', 'b5', 6, summary, { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
    cc.user('u7', 'u6', 7, 'later question'),
    cc.assistant('a8', 'u7', 8, 'msg_3', [cc.text('later answer')], 90),
  );

  it('sends the summary and the new turns only, under the stored compactions', () => {
    const elements = importTranscript(text).elements ?? [];
    expect(elements.filter((e) => e.type === 'chat_request').map((e) => e.content)).toEqual([
      'early question',
      'later question',
    ]);
    const stored = replayRequests(elements);
    const none = replayStream(elements, createReplaySettings(counter, { schedule: 'none' }), {
      schedules: false,
      tools: false,
    }).requests;
    expect(stored.map((r) => r.recorded?.prompt_tokens)).toEqual([100, 200, 90]);
    // Before the boundary nothing changes; after it, the prompt is spec 4's
    // summary turn and the new turn, written here by hand.
    expect(stored.slice(0, 2).map((r) => r.prompt_tokens)).toEqual(
      none.slice(0, 2).map((r) => r.prompt_tokens),
    );
    const sent: StreamElement[] = [
      { timestamp: '2026-02-25 06:29:07.0', type: 'turn_start' },
      {
        timestamp: '2026-02-25 06:29:07.0',
        type: 'chat_request',
        content: '[Summary of previous conversation]',
      },
      { timestamp: '2026-02-25 06:29:07.0', type: 'chat_response', message: summary },
      { timestamp: '2026-02-25 06:29:07.0', type: 'turn_start' },
      { timestamp: '2026-02-25 06:29:07.0', type: 'chat_request', content: 'later question' },
    ];
    const sentTokens = createReport(sent, [], new Map(), counter).totals.before.tokens;
    expect(stored[2]?.prompt_tokens).toBe(sentTokens);
    // Without the stored compaction the whole history is sent.
    expect(none[2]?.prompt_tokens).not.toBe(sentTokens);
  });
});

describe('recorded_by: the runtime and model of each response', () => {
  /** Every agent transcript of both corpus folders (not licences, notices, schemas, expectations). */
  function listTranscripts(folder: string): string[] {
    return readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return name === 'licenses' ? [] : listTranscripts(path);
      if (!/\.jsonl?$/.test(name) || /expected|schema|\.meta\.json$/.test(name)) return [];
      return [path];
    });
  }
  const files = ['agent-transcripts', 'agent-transcripts-2026'].flatMap((folder) =>
    listTranscripts(join(CORPUS, folder)),
  );
  // Amp's --stream-json lines name no model anywhere (FORMATS.md; the thread export does).
  const NO_MODEL_RECORDED = ['amp/toolpath__stream.jsonl'];

  it('finds the corpus files', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(files.map((path) => [path.slice(CORPUS.length + 1), path]))(
    '%s: every response with usage says its runtime (the format) and model',
    (_name, path) => {
      const result = importTranscript(readFileSync(path, 'utf8'));
      for (const element of result.elements ?? []) {
        if (readRecordedUsage(element.metadata) === undefined) continue;
        const by = readRecordedBy(element.metadata);
        expect(by?.runtime).toBe(result.format);
        if (!NO_MODEL_RECORDED.some((file) => path.endsWith(file)))
          expect(by?.model, String(element.timestamp)).toBeTypeOf('string');
      }
    },
  );

  it('says so where the usage is stripped from the file', () => {
    const strip = (path: string, keep: (record: JsonObject) => JsonObject | undefined) =>
      readFileSync(join(CORPUS, path), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .flatMap((l) => {
          const kept = keep(JSON.parse(l) as JsonObject);
          return kept === undefined ? [] : [JSON.stringify(kept)];
        })
        .join('\n');
    const models = (text: string) =>
      (importTranscript(text).elements ?? []).flatMap((e) => {
        const by = readRecordedBy(e.metadata);
        return by ? [`${by.runtime} ${by.version ?? '-'} ${by.model ?? '-'}`] : [];
      });
    // Claude Code: message.usage removed from every line; 20 responses (distinct message.id).
    const claude = strip('agent-transcripts/claude-code/toolpath__convo.jsonl', (record) => {
      if (isJsonObject(record.message)) delete record.message.usage;
      return record;
    });
    expect(models(claude)).toEqual(Array(20).fill('claude-code 2.1.132 claude-opus-4-7'));
    // Codex: the token_count lines dropped; model from turn_context (line 32), version from session_meta.
    const codex = strip('agent-transcripts/codex/toolpath__convo.jsonl', (record) =>
      isJsonObject(record.payload) && record.payload.type === 'token_count' ? undefined : record,
    );
    // Without the counts the event_msg answers of lines 9–28 are one response, then lines 38–39 and 43.
    expect(models(codex)).toEqual(Array(3).fill('codex 0.128.0 gpt-5.5'));
  });
});

describe('OpenClaw: the run summary (api "cli")', () => {
  it('toolpath__convo.jsonl is 10 requests, one per response with usage: the summary repeats the final reply', () => {
    const path = 'agent-transcripts-2026/openclaw/toolpath__convo.jsonl';
    const lines = readFileSync(join(CORPUS, path), 'utf8').split('\n').filter(Boolean);
    // Counted from the file: the assistant messages other than the api "cli" one.
    const responses = lines
      .map((line) => JSON.parse(line) as JsonObject)
      .filter((entry) => {
        const message = entry.message;
        return isJsonObject(message) && message.role === 'assistant' && message.api !== 'cli';
      });
    expect(responses).toHaveLength(10);
    const requests = replayRequests(importCorpus(path));
    expect(requests).toHaveLength(10);
    expect(requests.every((request) => request.recorded !== null)).toBe(true);
  });
});
