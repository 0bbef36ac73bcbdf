import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { CORPUS_2026 } from '../../test/fixtures/agent-transcripts-2026.ts';
import { importTranscript } from './import.ts';
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
