/**
 * The worker's one call (`runReplay`) on the session's inputs, and the
 * `[conversation.compaction.auto]` table the `auto` schedule reads.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { DEFAULT_AUTO_COMPACTION, readAutoCompaction } from './auto-config.ts';
import { runReplay } from './replay.ts';

const STREAM = JSON.stringify([
  { timestamp: '2026-03-01 10:00:00.0', type: 'turn_start' },
  { timestamp: '2026-03-01 10:00:00.0', type: 'chat_request', content: 'qqqqqqqq' },
  { timestamp: '2026-03-01 10:00:05.0', type: 'chat_response', message: 'mmmmmmmm' },
  { timestamp: '2026-03-01 10:00:06.0', type: 'chat_request', content: 'yyyyyyyy' },
  { timestamp: '2026-03-01 10:00:09.0', type: 'chat_response', message: 'nnnnnnnn' },
]);

const INPUT = {
  configText: '',
  streamText: STREAM,
  encoding: 'auto' as const,
  tokenizer: 'chars' as const,
  now: null,
  view: 'sanitized' as const,
  model: null,
  price: 'input=1000000,output=2000000,write=1.25,read=0.1,ttl=300,min=0',
  schedule: 'stored' as const,
};

describe('runReplay', () => {
  it('takes a runtime policy with key=value parameters, and names it in the replay', async () => {
    const result = await runReplay({
      ...INPUT,
      policy: { name: 'openai-agents', set: ['recent_turns=1'] },
    });
    if (result.status !== 'ok') throw new Error(result.message);
    expect(result.replay.policy).toEqual({
      name: 'openai-agents',
      parameters: {
        recent_turns: 1,
        max_output_chars: 500,
        preview_chars: 200,
        trimmable_tools: ['*'],
      },
    });
  });
  it('refuses a bad policy parameter as data, naming the valid ones', async () => {
    const result = await runReplay({ ...INPUT, policy: { name: 'codex', set: ['limit=3'] } });
    expect(result.status === 'invalid' && result.message).toBe(
      'Policy codex: codex has no parameter "limit"; its parameters are tool_output_token_limit, auto_compact, model_auto_compact_token_limit, summary_ratio',
    );
  });
  it('replays the session inputs: 2 tokens, then 6 with 2 read', async () => {
    const result = await runReplay(INPUT);
    if (result.status !== 'ok') throw new Error(result.message);
    // R1: 1.25·2 + 2·2 = 6.5; R2: [q, m, y] = 6, reads [q] 2: 0.2 + 1.25·4 + 2·2 = 9.2.
    expect(result.replay.requests.map((r) => [r.prompt_tokens, r.cache_read])).toEqual([
      [2, 0],
      [6, 2],
    ]);
    expect(result.replay.totals.schedule.cost).toBeCloseTo(15.7, 9);
  });

  it('returns a price that does not read as an error with its column', async () => {
    const result = await runReplay({ ...INPUT, price: 'input=1,output=x' });
    expect(result).toMatchObject({
      status: 'invalid',
      message:
        'Price, column 16: output must be dollars per million output tokens (a number of 0 or more, at most 1e+12), not "x"',
    });
  });

  it('returns a stream that does not read as an error with its position', async () => {
    const result = await runReplay({ ...INPUT, streamText: '[{"type": "turn_start"' });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid')
      expect(result.message).toMatch(/^Event stream line 1, column \d+: /);
  });
});

describe('[conversation.compaction.auto]', () => {
  it("takes the draft's defaults when absent", () => {
    expect(readAutoCompaction('').auto).toEqual(DEFAULT_AUTO_COMPACTION);
  });

  it('reads its keys, and the config reader does not take the table for a typo', () => {
    const text =
      '[conversation.compaction.auto]\ntrigger_ratio = 0.5\nmin_turns = 2\nkeep_last = 1\ntool_calls = "omit"\n';
    const { auto, diagnostics } = readAutoCompaction(text);
    expect(diagnostics).toEqual([]);
    expect(auto).toEqual({
      triggerRatio: 0.5,
      minTurns: 2,
      rule: {
        keep_first: { turns: 1 },
        keep_last: { turns: 1 },
        reasoning: 'strip',
        tool_calls: 'omit',
        summary: null,
      },
    });
    expect(parseConfigToml(text).diagnostics).toEqual([]);
  });

  it('marks a wrong value where it stands', () => {
    const { diagnostics } = readAutoCompaction(
      '[conversation.compaction.auto]\nmin_turns = -1\ntool_calls = "shred"\n',
    );
    expect(diagnostics.map((d) => [d.line, d.column, d.severity])).toEqual([
      [2, 13, 'error'],
      [3, 14, 'error'],
    ]);
    expect(diagnostics[0]?.message).toBe('min_turns must be a whole number of 0 or more');
  });
});
