/**
 * A conversation small enough to count by hand (chars/4 tokens), with
 * timestamps, a cold gap (an hour between turns 1 and 2) and a stored
 * compaction appended before turn 3 that breaks the cached prefix. Every
 * figure below was worked out on paper from the model; the
 * arithmetic is in the comments.
 *
 * Prices: input $1,000,000 and output $2,000,000 per million tokens, so a
 * request costs 1.25·write + 0.1·read + 2·output dollars.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import type { StreamElement } from '../types.ts';
import { DEFAULT_AUTO_COMPACTION } from './auto-config.ts';
import type { ModelPrices } from './prices.ts';
import {
  createReplaySettings,
  type ReplaySettings,
  replayStream,
  type ScheduleId,
} from './replay.ts';

const counter = await loadTokenCounter('chars');

const at = (time: string) => `2026-03-01 ${time}.0`;
const x = (letter: string, length: number) => letter.repeat(length);

/** A call of `read` on path `p`. */
const readCall = (timestamp: string, id: string, p: string): StreamElement => ({
  timestamp,
  type: 'tool_call_request',
  id,
  name: 'read',
  arguments: { p },
});
/** A successful result of a `read` call. */
const readResult = (timestamp: string, id: string, content: string): StreamElement => ({
  timestamp,
  type: 'tool_call_response',
  id,
  content,
  is_error: false,
});

// Tokens (chars/4, rounded up): an 8-letter text 2; '{"p":"a"}' 3, stripped '{}' 1;
// an 80-letter response 20, stripped "[compacted] read: success" (25 chars) 7.
const STREAM: StreamElement[] = [
  { timestamp: at('10:00:00'), type: 'turn_start' }, // 0, turn 0
  { timestamp: at('10:00:00'), type: 'chat_request', content: x('q', 8) }, // 1: 2
  readCall(at('10:00:01'), 'c1', 'a'), // 2: 3 (R1)
  readResult(at('10:00:02'), 'c1', x('r', 80)), // 3: 20
  { timestamp: at('10:00:10'), type: 'chat_response', message: x('m', 8) }, // 4: 2 (R2)
  { timestamp: at('11:00:10'), type: 'turn_start' }, // 5, turn 1
  { timestamp: at('11:00:10'), type: 'chat_request', content: x('y', 8) }, // 6: 2
  { timestamp: at('11:00:20'), type: 'chat_response', message: x('n', 8) }, // 7: 2 (R3, after an hour: cold)
  {
    type: 'compaction',
    timestamp: at('11:00:30'),
    from_turn: 0,
    to_turn: 0,
    tool_calls: { policy: 'strip', request: true, response: true },
  }, // 8: stored, in force from R4 on
  { timestamp: at('11:01:00'), type: 'turn_start' }, // 9, turn 2
  { timestamp: at('11:01:00'), type: 'chat_request', content: x('z', 8) }, // 10: 2
  readCall(at('11:01:05'), 'c2', 'b'), // 11: 3 (R4)
  readResult(at('11:01:06'), 'c2', x('s', 80)), // 12: 20
  { timestamp: at('11:01:10'), type: 'chat_response', message: x('o', 8) }, // 13: 2 (R5)
  { timestamp: at('11:02:00'), type: 'turn_start' }, // 14, turn 3
  { timestamp: at('11:02:00'), type: 'chat_request', content: x('w', 8) }, // 15: 2
  { timestamp: at('11:02:10'), type: 'chat_response', message: x('p', 8) }, // 16: 2 (R6)
];

const MODEL: ModelPrices = {
  name: 'custom',
  provider: 'other',
  write_1h: 1.25,
  write_12h: null,
  tiers: [],
  source: 'the test',
  input: 1_000_000,
  output: 2_000_000,
  write: 1.25,
  read: 0.1,
  ttl_seconds: 300,
  min_prefix_tokens: 0,
  // auto: 0.75 × 40 = 30 tokens, passed only by the prompt of R6.
  context_window_tokens: 40,
  as_of: 'custom',
};

const SETTINGS = (schedule: ScheduleId): ReplaySettings =>
  createReplaySettings(counter, {
    schedule,
    model: MODEL,
    config: parseConfigToml(
      '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 1\ntool_calls = "strip"\n',
    ),
    auto: {
      triggerRatio: 0.75,
      minTurns: 2,
      rule: { ...DEFAULT_AUTO_COMPACTION.rule, keep_first: { turns: 0 }, keep_last: { turns: 1 } },
    },
  });

/** What the hand computation says each schedule gives, request by request. */
interface Expected {
  prompt: number[];
  read: number[];
  cost: number[];
  created: number[];
  broken: boolean[];
  total: number;
}

const EXPECTED: Record<ScheduleId, Expected> = {
  // Prompts: R1 [q]=2; R2 +call 3 +response 20 = 25; R3 +m +y = 29; R4 +n +z = 33;
  // R5 +call 3 +response 20 = 56; R6 +o +w = 60. Read: the previous prompt, except
  // R1 (first) and R3 (3,610 s after R2: cold). Costs: R1 1.25·2+2·3 = 8.5;
  // R2 0.1·2+1.25·23+2·2 = 32.95; R3 1.25·29+2·2 = 40.25; R4 0.1·29+1.25·4+2·3 = 13.9;
  // R5 0.1·33+1.25·23+2·2 = 36.05; R6 0.1·56+1.25·4+2·2 = 14.6.
  none: {
    prompt: [2, 25, 29, 33, 56, 60],
    read: [0, 2, 0, 29, 33, 56],
    cost: [8.5, 32.95, 40.25, 13.9, 36.05, 14.6],
    created: [0, 0, 0, 0, 0, 0],
    broken: [false, false, false, false, false, false],
    total: 146.25,
  },
  // The stored compaction strips turn 0's call (3 → 1) and response (20 → 7) from R4
  // on: R4 = 2+1+7+2+2+2+2 = 18, sharing only [q] (2) with R3: 0.1·2+1.25·16+2·3 = 26.2.
  // R5 = 18+3+20 = 41: 0.1·18+1.25·23+2·2 = 34.55; R6 = 45: 0.1·41+1.25·4+2·2 = 13.1.
  stored: {
    prompt: [2, 25, 29, 18, 41, 45],
    read: [0, 2, 0, 2, 18, 41],
    cost: [8.5, 32.95, 40.25, 26.2, 34.55, 13.1],
    created: [0, 0, 0, 0, 0, 0],
    broken: [false, false, false, true, false, false],
    total: 155.55,
  },
  // Rules at each turn's first request: R1 nothing (one turn); R3 strips turn 0
  // (prompt 14, cold anyway: 1.25·14+2·2 = 21.5); R4 strips turns 0..1 (18, reads
  // R3's 14: 0.1·14+1.25·4+2·3 = 12.4); R6 strips turns 0..2 (2+1+7+2+2+2+2+1+7+2+2
  // = 30), breaking the warm prefix after [.., z] (18): 0.1·18+1.25·12+2·2 = 20.8.
  'every-turn': {
    prompt: [2, 25, 14, 18, 41, 30],
    read: [0, 2, 0, 14, 18, 18],
    cost: [8.5, 32.95, 21.5, 12.4, 34.55, 20.8],
    created: [0, 0, 1, 1, 0, 1],
    broken: [false, false, true, false, false, true],
    total: 130.7,
  },
  // The prompt passes 30 tokens only before R6 (45 under stored): one compaction of
  // turns 0..2 there, as every-turn's R6. Before it, stored's figures.
  auto: {
    prompt: [2, 25, 29, 18, 41, 30],
    read: [0, 2, 0, 2, 18, 18],
    cost: [8.5, 32.95, 40.25, 26.2, 34.55, 20.8],
    created: [0, 0, 0, 0, 0, 1],
    broken: [false, false, false, true, false, true],
    total: 163.25,
  },
  // Rules only at R3, after the cold gap: turn 0 stripped while nothing is cached;
  // the stored compaction then changes nothing more (the same policy), so no break.
  idle: {
    prompt: [2, 25, 14, 18, 41, 45],
    read: [0, 2, 0, 14, 18, 41],
    cost: [8.5, 32.95, 21.5, 12.4, 34.55, 13.1],
    created: [0, 0, 1, 0, 0, 0],
    broken: [false, false, true, false, false, false],
    total: 123,
  },
};

describe('replay of a conversation counted by hand', () => {
  it.each(Object.keys(EXPECTED) as ScheduleId[])('%s', (schedule) => {
    const replay = replayStream(STREAM, SETTINGS(schedule));
    const expected = EXPECTED[schedule];
    expect(replay.requests.map((r) => r.prompt_tokens)).toEqual(expected.prompt);
    expect(replay.requests.map((r) => r.cache_read)).toEqual(expected.read);
    expect(replay.requests.map((r) => r.compactions_created)).toEqual(expected.created);
    expect(replay.requests.map((r) => r.prefix_broken)).toEqual(expected.broken);
    replay.requests.forEach((request, k) => {
      expect(request.cost, `R${k + 1}`).toBeCloseTo(expected.cost[k] as number, 9);
    });
    expect(replay.totals.schedule.cost).toBeCloseTo(expected.total, 9);
    expect(replay.totals.baseline.cost).toBeCloseTo(EXPECTED.none.total, 9);
    for (const [other, figures] of Object.entries(EXPECTED)) {
      expect(replay.schedules[other as ScheduleId], other).toBeCloseTo(figures.total, 9);
    }
  });

  it('gives each schedule its own figures when one config is replayed under choice after choice', () => {
    // The pane's way: one parsed config per input, the schedule changed again and again.
    const settings = SETTINGS('none');
    for (const schedule of ['idle', 'none', 'every-turn', 'auto', 'stored', 'idle'] as const) {
      const replay = replayStream(STREAM, { ...settings, schedule });
      expect(
        replay.requests.map((r) => r.prompt_tokens),
        schedule,
      ).toEqual(EXPECTED[schedule].prompt);
      expect(
        replay.requests.map((r) => r.compactions_created),
        schedule,
      ).toEqual(EXPECTED[schedule].created);
      expect(replay.totals.schedule.cost, schedule).toBeCloseTo(EXPECTED[schedule].total, 9);
    }
    // A cache that lives past the hour's gap: nothing goes cold, so idle creates
    // nothing and its prompts are stored's.
    const warm = replayStream(STREAM, {
      ...settings,
      schedule: 'idle',
      model: { ...MODEL, ttl_seconds: 4000 },
    });
    expect(warm.requests.map((r) => r.compactions_created)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(warm.requests.map((r) => r.prompt_tokens)).toEqual(EXPECTED.stored.prompt);
  });

  it('times each request by its run, with the gaps, the turns and the cold requests', () => {
    const replay = replayStream(STREAM, SETTINGS('none'));
    expect(replay.requests.map((r) => r.time)).toEqual([
      at('10:00:01'),
      at('10:00:10'),
      at('11:00:20'),
      at('11:01:05'),
      at('11:01:10'),
      at('11:02:10'),
    ]);
    expect(replay.requests.map((r) => r.gap_seconds)).toEqual([null, 9, 3610, 45, 5, 60]);
    expect(replay.requests.map((r) => r.turn)).toEqual([0, 0, 1, 2, 2, 3]);
    expect(replay.requests.map((r) => r.cold)).toEqual([true, false, true, false, false, false]);
    expect(replay.requests.map((r) => r.output_tokens)).toEqual([3, 2, 2, 3, 2, 2]);
  });

  it('marks a warm request that shares less than the minimum under_minimum, not cold, and says how many', () => {
    const settings = SETTINGS('none');
    const replay = replayStream(STREAM, {
      ...settings,
      model: { ...MODEL, min_prefix_tokens: 30 },
    });
    // By hand (the none table): the warm requests share 2, 29, 33 and 56 tokens; R2 (2)
    // and R4 (29) are under 30 and read nothing; R3 is cold, not under the minimum.
    expect(replay.requests.map((r) => r.cache_read)).toEqual([0, 0, 0, 0, 33, 56]);
    expect(replay.requests.map((r) => r.cold)).toEqual([true, false, true, false, false, false]);
    expect(replay.requests.map((r) => r.under_minimum === true)).toEqual([
      false,
      true,
      false,
      true,
      false,
      false,
    ]);
    expect(replay.notes).toContain(
      "2 of 6 requests read nothing from a warm cache: what each shares with the request before is under custom's minimum of 30 tokens to cache (marked under_minimum, not cold).",
    );
  });

  it('saves, against none, what idle saves: 146.25 − 123 = 23.25 dollars, 15.9%', () => {
    const replay = replayStream(STREAM, SETTINGS('idle'));
    expect(replay.totals.saved.cost).toBeCloseTo(23.25, 9);
    expect(replay.totals.saved.percent).toBeCloseTo((23.25 / 146.25) * 100, 9);
    // Prompt tokens: none 2+25+29+33+56+60 = 205, idle 2+25+14+18+41+45 = 145.
    expect(replay.totals.saved.prompt_tokens).toBe(205 - 145);
  });

  it('prices each hint for the tool under idle, the stored compaction winning from R4 on', () => {
    // Only R3's compaction carries the hint; from R4 the stored one (later) strips turn 0.
    // keep: R3 29 cold 40.25, R4 reads only [q]: 26.2 → 155.55. strip-requests: R3 2+1+20+2+2
    // = 27: 37.75, R4 reads [q, call] 3: 0.3+1.25·15+6 = 25.05 → 151.9. strip-responses: R3 16:
    // 24, R4 26.2 → 139.3. omit: R3 [q, m, y] 6: 11.5, R4 26.2 → 126.8. strip: idle's 123.
    const replay = replayStream(STREAM, SETTINGS('idle'));
    const tool = replay.tools[0];
    expect(tool?.name).toBe('read');
    expect(tool?.hint).toBe('inherit');
    const expected = {
      inherit: 123,
      keep: 155.55,
      strip: 123,
      'strip-requests': 151.9,
      'strip-responses': 139.3,
      omit: 126.8,
    };
    for (const [choice, cost] of Object.entries(expected)) {
      expect(tool?.what_if_cost[choice as keyof typeof expected], choice).toBeCloseTo(cost, 9);
    }
    expect(tool?.cheapest).toBe('inherit');
  });

  it('follows the config and the timing when the same stream is replayed again', () => {
    // The page replays one decoded stream on every edit; what it prepared for the stream must
    // not carry one edit's config, or one timing, into the next replay.
    const stream = [...STREAM];
    const noRules = { ...SETTINGS('idle'), config: parseConfigToml('') };
    expect(replayStream(stream, noRules).totals.schedule.cost).toBeCloseTo(
      EXPECTED.stored.total,
      9,
    );
    expect(replayStream(stream, SETTINGS('idle')).totals.schedule.cost).toBeCloseTo(
      EXPECTED.idle.total,
      9,
    );
    const untimed = replayStream(stream, { ...SETTINGS('idle'), untimed: true });
    expect(untimed.requests.map((r) => r.time)).toEqual([null, null, null, null, null, null]);
    expect(untimed.requests.map((r) => r.cold)).toEqual([true, false, false, false, false, false]);
    const timed = replayStream(stream, SETTINGS('idle'));
    expect(timed.requests.map((r) => r.gap_seconds)).toEqual([null, 9, 3610, 45, 5, 60]);
    expect(timed.totals.schedule.cost).toBeCloseTo(EXPECTED.idle.total, 9);
  });

  it('says that hints change nothing under stored', () => {
    const replay = replayStream(STREAM, SETTINGS('stored'));
    expect(replay.notes.join(' ')).toContain('Hints change nothing under stored');
    expect(replay.tools.map((tool) => tool.name)).toEqual(['read']);
    for (const cost of Object.values(replay.tools[0]?.what_if_cost ?? {})) {
      expect(cost).toBeCloseTo(155.55, 9);
    }
  });
});

describe('recorded usage', () => {
  const usage = (prompt: number, read: number, write: number, output: number) => ({
    recorded_usage: {
      prompt_tokens: prompt,
      cache_read_tokens: read,
      cache_write_tokens: write,
      output_tokens: output,
    },
  });
  // R2's run is one response; R1's run carries two responses' usage (a tool call then its text).
  const recorded: StreamElement[] = STREAM.slice(0, 8).map((element) => ({ ...element }));
  (recorded[2] as StreamElement).metadata = usage(40, 0, 40, 5);
  (recorded[4] as StreamElement).metadata = usage(100, 40, 60, 4);
  (recorded[7] as StreamElement).metadata = { recorded_usage: { prompt_tokens: 'many' } };

  it('sums each request run, totals them beside stored, and gives the ratio', () => {
    const replay = replayStream(recorded, SETTINGS('stored'));
    expect(replay.requests.map((r) => r.recorded)).toEqual([
      { prompt_tokens: 40, cache_read_tokens: 0, cache_write_tokens: 40, output_tokens: 5 },
      { prompt_tokens: 100, cache_read_tokens: 40, cache_write_tokens: 60, output_tokens: 4 },
      null,
    ]);
    // Stored models 2 + 25 = 27 input tokens on those two requests: 140 / 27.
    expect(replay.recorded).toMatchObject({
      prompt_tokens: 140,
      cache_read_tokens: 40,
      cache_write_tokens: 100,
      output_tokens: 9,
      requests: 2,
      modelled_prompt_tokens: 27,
    });
    expect(replay.recorded?.ratio).toBeCloseTo(140 / 27, 12);
    expect(replay.notes.join(' ')).toContain(
      'Element 8: recorded_usage.prompt_tokens must be a whole number',
    );
  });
});
