import { describe, expect, it } from 'vitest';
import { formatTimestamp, type Instant, parseTimestamp } from '../stream/timestamp.ts';
import type { CompactionRule, StreamElement, ToolCallPolicy } from '../types.ts';
import {
  appendCompactions,
  createCompactionEvents,
  getDefaultNow,
  getSummaryPlaceholder,
  previewStream,
  resetCompactions,
} from './creation.ts';

const at = (text: string): Instant => parseTimestamp(text) as Instant;

/** `count` turns, one a minute from 10:00, each a turn_start and a request. */
function stream(count: number): StreamElement[] {
  return Array.from({ length: count }, (_, turn): StreamElement[] => {
    const timestamp = `2026-03-01 10:${String(turn).padStart(2, '0')}:00.0`;
    return [
      { timestamp, type: 'turn_start' },
      { timestamp, type: 'chat_request', content: `question ${turn + 1}` },
    ];
  }).flat();
}

const defaultRule: CompactionRule = {
  keep_first: { turns: 1 },
  keep_last: { turns: 1 },
  reasoning: 'strip',
  tool_calls: 'strip',
  summary: null,
};
const summaryRule: CompactionRule = {
  keep_first: { turns: 0 },
  keep_last: { from_end: 2 },
  reasoning: null,
  tool_calls: 'omit',
  summary: { instructions: 'short' },
};
const now = at('2026-03-01 12:00:00.5');

describe('getDefaultNow (spec 14.2)', () => {
  it('is one second after the latest readable timestamp of any element', () => {
    const elements: StreamElement[] = [
      ...stream(2),
      { type: 'compaction', timestamp: '2026-03-01 11:00:00.25', from_turn: 0, to_turn: 0 },
      { type: 'config_delta', timestamp: 'not a time', delta: {} },
      { type: 'mystery', timestamp: '2026-03-01T10:30:00Z' },
      { type: 'turn_start' },
    ];
    expect(formatTimestamp(getDefaultNow(elements))).toBe('2026-03-01 11:00:01.25');
  });

  it('never passes the latest time JP reads, so what it stamps reads back (issue 43, item 3)', () => {
    const last = (timestamp: string): StreamElement[] => [
      { timestamp: '2025-07-01 00:00:00.0', type: 'turn_start' },
      { timestamp, type: 'chat_request', content: 'fake' },
    ];
    const latest = '+262142-12-31 23:59:59.999999999';
    for (const timestamp of ['+262142-12-31 23:59:59.5', latest]) {
      const text = formatTimestamp(getDefaultNow(last(timestamp)));
      expect(text).toBe(latest);
      expect(parseTimestamp(text)).toBeDefined();
    }
    expect(formatTimestamp(getDefaultNow(last('+262142-12-31 23:59:58.5')))).toBe(
      '+262142-12-31 23:59:59.5',
    );
  });

  it('falls back to 2026-01-01 when nothing reads', () => {
    expect(formatTimestamp(getDefaultNow([]))).toBe('2026-01-01 00:00:00.0');
    expect(formatTimestamp(getDefaultNow([{ type: 'turn_start', timestamp: 'x' }]))).toBe(
      '2026-01-01 00:00:00.0',
    );
  });
});

describe('createCompactionEvents (spec 10, 11, 14.5)', () => {
  it('creates one event per rule with a non-empty range, in JP key order', () => {
    const overrides: Record<string, ToolCallPolicy> = {
      zeta: { policy: 'omit' },
      alpha: { response: true, request: false, policy: 'strip' } as ToolCallPolicy,
    };
    const { events, plans } = createCompactionEvents({
      elements: stream(6),
      rules: [defaultRule, { ...defaultRule, keep_first: { turns: 9 } }, summaryRule],
      toolOverrides: overrides,
      now,
    });
    expect(events).toEqual([
      {
        type: 'compaction',
        timestamp: '2026-03-01 12:00:00.5',
        from_turn: 1,
        to_turn: 4,
        reasoning: 'strip',
        tool_calls: { policy: 'strip', request: true, response: true },
        tool_overrides: {
          alpha: { policy: 'strip', request: false, response: true },
          zeta: { policy: 'omit' },
        },
      },
      {
        type: 'compaction',
        timestamp: '2026-03-01 12:00:00.5',
        from_turn: 0,
        to_turn: 3,
        summary: { summary: '[summary of turns 1..4]' },
        tool_calls: { policy: 'omit' },
        tool_overrides: {
          alpha: { policy: 'strip', request: false, response: true },
          zeta: { policy: 'omit' },
        },
      },
    ]);
    expect(Object.keys(events[1] ?? {})).toEqual([
      'type',
      'timestamp',
      'from_turn',
      'to_turn',
      'summary',
      'tool_calls',
      'tool_overrides',
    ]);
    expect(Object.keys(events[0]?.tool_overrides ?? {})).toEqual(['alpha', 'zeta']);
    const written = events[0]?.tool_overrides as Record<string, object>;
    expect(Object.keys(written.alpha ?? {})).toEqual(['policy', 'request', 'response']);
    expect(plans.map((plan) => plan.eventIndex)).toEqual([0, null, 1]);
    expect(plans[0]?.explanation).toBe('Compacts turns 2..5.');
    expect(plans[0]?.dsl).toBe('r+t');
    expect(plans[1]?.range).toBeNull();
    expect(plans[1]?.emptyReason).toEqual({
      kind: 'start-after-last-turn',
      start: 9,
      turnCount: 6,
    });
    expect(plans[1]?.explanation).toBe(
      'Nothing to compact. The range would start at turn 10, but the stream has only 6 turns: the turns kept at the start are all of them.',
    );
    expect(plans[2]?.dsl).toBeUndefined();
  });

  it('omits tool_overrides when empty and never shares objects between events', () => {
    const { events } = createCompactionEvents({
      elements: stream(4),
      rules: [defaultRule],
      toolOverrides: {},
      now,
    });
    expect(events[0]).not.toHaveProperty('tool_overrides');
    const overrides = { a: { policy: 'omit' } as ToolCallPolicy };
    const twice = createCompactionEvents({
      elements: stream(4),
      rules: [defaultRule, defaultRule],
      toolOverrides: overrides,
      now,
    });
    expect(twice.events[0]?.tool_overrides).not.toBe(twice.events[1]?.tool_overrides);
    expect(twice.events[0]?.tool_overrides).not.toBe(overrides);
  });

  it('names the extended range in the summary placeholder', () => {
    const elements: StreamElement[] = [
      ...stream(8),
      {
        type: 'compaction',
        timestamp: '2026-03-01 11:00:00.0',
        from_turn: 1,
        to_turn: 4,
        summary: { summary: 'old' },
      },
    ];
    const rule: CompactionRule = {
      ...summaryRule,
      keep_first: { absolute: 4 },
      keep_last: { absolute: 6 },
    };
    const { events, plans } = createCompactionEvents({
      elements,
      rules: [rule],
      toolOverrides: {},
      now,
    });
    expect(events[0]).toMatchObject({
      from_turn: 1,
      to_turn: 5,
      summary: { summary: '[summary of turns 2..6]' },
    });
    expect(plans[0]).toMatchObject({ extended: true, resolvedRange: { from_turn: 3, to_turn: 5 } });
    expect(plans[0]?.explanation).toContain('The rule selects turns 4..6');
    expect(getSummaryPlaceholder({ from_turn: 1, to_turn: 4 })).toBe('[summary of turns 2..5]');
  });

  it('uses the given summary text, for all summaries or per rule', () => {
    const rules = [summaryRule, { ...summaryRule, keep_last: { from_end: 1 } }];
    const input = { elements: stream(5), rules, toolOverrides: {}, now };
    const shared = createCompactionEvents({ ...input, summaryText: 'edited' }).events;
    expect(shared.map((event) => event.summary)).toEqual([
      { summary: 'edited' },
      { summary: 'edited' },
    ]);
    const perRule = createCompactionEvents({ ...input, summaryText: [null, 'second'] }).events;
    expect(perRule.map((event) => event.summary)).toEqual([
      { summary: '[summary of turns 1..3]' },
      { summary: 'second' },
    ]);
  });

  it('applies range overrides to every rule', () => {
    const { events } = createCompactionEvents({
      elements: stream(6),
      rules: [defaultRule],
      toolOverrides: {},
      now,
      overrides: { from: { at: { absolute: 0 } } },
    });
    expect(events[0]).toMatchObject({ from_turn: 0, to_turn: 4 });
  });

  it('creates nothing on an empty stream, and says why', () => {
    const { events, plans } = createCompactionEvents({
      elements: [],
      rules: [defaultRule],
      toolOverrides: {},
      now,
    });
    expect(events).toEqual([]);
    expect(plans[0]?.explanation).toBe('Nothing to compact. The stream has no turns yet.');
  });
});

describe('Compact, preview and Reset (spec 14.5)', () => {
  const compaction = (n: number): StreamElement => ({
    type: 'compaction',
    timestamp: '2026-03-01 11:00:00.0',
    from_turn: 0,
    to_turn: n,
  });
  const elements: StreamElement[] = [...stream(3), compaction(0), { type: 'x' }, compaction(1)];

  it('appends events without touching the input', () => {
    const { events } = createCompactionEvents({
      elements,
      rules: [defaultRule],
      toolOverrides: {},
      now,
    });
    const appended = appendCompactions(elements, events);
    expect(appended).toEqual([...elements, ...events]);
    expect(previewStream(elements, events)).toEqual(appended);
    expect(elements).toHaveLength(9);
  });

  it('resets every compaction or only the K-th', () => {
    expect(resetCompactions(elements)).toEqual({
      ok: true,
      value: [...stream(3), { type: 'x' }],
      removed: 2,
    });
    expect(resetCompactions(elements, 2)).toEqual({
      ok: true,
      value: [...stream(3), compaction(0), { type: 'x' }],
      removed: 1,
    });
  });

  it('reports a K that names no compaction instead of throwing', () => {
    expect(resetCompactions(elements, 3)).toEqual({
      ok: false,
      message: 'There is no compaction #3: the stream has #1 to #2.',
    });
    expect(resetCompactions(elements, 0)).toMatchObject({ ok: false });
    expect(resetCompactions(elements, 1.5)).toMatchObject({ ok: false });
    expect(resetCompactions(stream(2), 1)).toEqual({
      ok: false,
      message: 'There is no compaction #1: the stream has none.',
    });
    expect(resetCompactions(stream(2))).toEqual({ ok: true, value: stream(2), removed: 0 });
  });
});
