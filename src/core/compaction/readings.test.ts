/**
 * Conformance-style cases for D17's alternative readings: hand-made streams,
 * and for each the output the spec's text gives under the ruling and under
 * the alternative, counted by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { planCompactions } from '../playground/playground.ts';
import type { StreamElement } from '../types.ts';
import { project, providerView } from './projection.ts';
import {
  DEFAULT_READINGS,
  getChangedReadings,
  parseReadingAssignments,
  READINGS,
  type Readings,
  withReadings,
} from './readings.ts';

const T0 = '2025-07-01 00:00:00.0';
const T1 = '2025-07-01 01:00:00.0';
const T2 = '2025-07-01 02:00:00.0';
const OMIT = { policy: 'omit' };
const STRIP = { policy: 'strip', request: true, response: true };
const KEEP = { policy: 'strip', request: false, response: false };

/** Three turns; turn 1 has reasoning and a call of `search` and of `fs`. */
function turns(...compactions: StreamElement[]): StreamElement[] {
  return [
    { timestamp: T0, type: 'turn_start' },
    { timestamp: T0, type: 'chat_request', content: 'q0' },
    { timestamp: T0, type: 'turn_start' },
    { timestamp: T0, type: 'chat_request', content: 'q1' },
    { timestamp: T0, type: 'chat_response', reasoning: 'thinking' },
    { timestamp: T0, type: 'tool_call_request', id: 's1', name: 'search', arguments: { q: 'x' } },
    { timestamp: T0, type: 'tool_call_response', id: 's1', content: 'hits', is_error: false },
    { timestamp: T0, type: 'tool_call_request', id: 'f1', name: 'fs', arguments: { p: 'y' } },
    { timestamp: T0, type: 'tool_call_response', id: 'f1', content: 'body', is_error: false },
    { timestamp: T0, type: 'chat_response', message: 'a1' },
    { timestamp: T0, type: 'turn_start' },
    { timestamp: T0, type: 'chat_request', content: 'q2' },
    ...compactions,
  ];
}

/** The provider view as short strings a person can check against the spec by eye. */
function seen(elements: StreamElement[], readings: Partial<Readings> = {}): string[] {
  return providerView(project(elements, withReadings(readings)).elements).map((e) => {
    switch (e.type) {
      case 'chat_request':
        return `user ${String(e.content)}`;
      case 'chat_response':
        return typeof e.message === 'string'
          ? `says ${e.message}`
          : `thinks ${String(e.reasoning)}`;
      case 'tool_call_request':
        return `call ${String(e.name)} ${JSON.stringify(e.arguments)}`;
      default:
        return `reply ${String(e.content)}`;
    }
  });
}

/** The provider view when turn 1's reasoning is gone: `tools`, turn 1's tool events as {@link seen} writes them, between the texts of the turns. */
const turn1With = (...tools: string[]): string[] => [
  'user q0',
  'user q1',
  ...tools,
  'says a1',
  'user q2',
];

const compaction = (timestamp: string, fields: Record<string, unknown>): StreamElement =>
  ({ type: 'compaction', timestamp, from_turn: 1, to_turn: 1, ...fields }) as StreamElement;

// An older tool_calls strip, then a newer reasoning-only compaction that carries an omit hint for search.
const STACKED = turns(
  compaction(T1, { tool_calls: STRIP }),
  compaction(T2, { reasoning: 'strip', tool_overrides: { search: OMIT } }),
);

describe('13.1: overrides where the winning compaction has no tool_calls', () => {
  const reasoningOnly = turns(
    compaction(T1, { reasoning: 'strip', tool_overrides: { search: OMIT } }),
  );

  it('ruling: a reasoning-only compaction leaves every tool event as it is', () => {
    expect(seen(reasoningOnly)).toEqual(
      turn1With('call search {"q":"x"}', 'reply hits', 'call fs {"p":"y"}', 'reply body'),
    );
  });

  it('apply: its omit hint drops search; fs, which it names no policy for, stays', () => {
    expect(seen(reasoningOnly, { noToolCalls: 'apply' })).toEqual(
      turn1With('call fs {"p":"y"}', 'reply body'),
    );
  });

  it('apply: the newer reasoning-only compaction wins the turn, so the older strip no longer reaches fs', () => {
    expect(seen(STACKED)).toEqual(
      turn1With(
        'call search {}',
        'reply [compacted] search: success',
        'call fs {}',
        'reply [compacted] fs: success',
      ),
    );
    expect(seen(STACKED, { noToolCalls: 'apply' })).toEqual(
      turn1With('call fs {"p":"y"}', 'reply body'),
    );
  });
});

describe('13.2: stacking per tool', () => {
  it('per-tool: search goes by the newer override, fs by the older tool_calls', () => {
    expect(seen(STACKED, { stacking: 'per-tool' })).toEqual(
      turn1With('call fs {}', 'reply [compacted] fs: success'),
    );
  });

  it('per-tool agrees with the ruling when every compaction has tool_calls (13.2)', () => {
    const both = turns(
      compaction(T1, { tool_calls: OMIT, tool_overrides: { fs: KEEP } }),
      compaction(T2, { tool_calls: STRIP }),
    );
    expect(seen(both, { stacking: 'per-tool' })).toEqual(seen(both));
  });
});

describe('13.8: a summary over a keep tool', () => {
  const summarized = turns(
    compaction(T1, { summary: { summary: 'S' }, tool_overrides: { search: KEEP, fs: STRIP } }),
  );

  it('ruling: the summary replaces the whole turn', () => {
    expect(seen(summarized)).toEqual([
      'user q0',
      'user [Summary of previous conversation]',
      'says S',
      'user q2',
    ]);
  });

  it('keep-survives: search, marked keep, stays after the summary; fs does not', () => {
    expect(seen(summarized, { summaryOverKeep: 'keep-survives' })).toEqual([
      'user q0',
      'user [Summary of previous conversation]',
      'says S',
      'call search {"q":"x"}',
      'reply hits',
      'user q2',
    ]);
  });
});

describe('JP today: hints ignored', () => {
  const hinted = turns(compaction(T1, { tool_calls: STRIP, tool_overrides: { search: KEEP } }));

  it('projection drops tool_overrides on read: search is stripped like fs', () => {
    expect(seen(hinted).slice(3, 7)).toEqual([
      'call search {"q":"x"}',
      'reply hits',
      'call fs {}',
      'reply [compacted] fs: success',
    ]);
    expect(seen(hinted, { jp: 'today' }).slice(3, 7)).toEqual([
      'call search {}',
      'reply [compacted] search: success',
      'call fs {}',
      'reply [compacted] fs: success',
    ]);
  });

  it('makes the alternatives about overrides moot', () => {
    const today = { jp: 'today' } as const;
    for (const changed of [
      { noToolCalls: 'apply' },
      { stacking: 'per-tool' },
      { summaryOverKeep: 'keep-survives' },
    ] as const) {
      expect(seen(STACKED, { ...today, ...changed })).toEqual(seen(STACKED, today));
    }
  });

  it('new compactions carry no tool_overrides', () => {
    const config = parseConfigToml('[conversation.tools.search]\ncompaction = "keep"\n');
    const ruling = planCompactions(turns(), config, null).created.events;
    const today = planCompactions(turns(), config, null, withReadings({ jp: 'today' })).created
      .events;
    expect(ruling[0]?.tool_overrides).toEqual({ search: KEEP });
    expect(today).toHaveLength(1);
    expect(today[0]).not.toHaveProperty('tool_overrides');
    expect(today[0]?.tool_calls).toEqual(STRIP);
  });
});

describe("14.1: which tools '*' reaches", () => {
  const config = parseConfigToml(
    '[conversation.tools.\'*\']\ncompaction = "omit"\n[conversation.tools.fs]\nsource = "builtin"\n',
  );

  it('ruling: every tool the stream calls as well as the configured ones', () => {
    const [event] = planCompactions(turns(), config, null).created.events;
    expect(event?.tool_overrides).toEqual({ fs: OMIT, search: OMIT });
  });

  it('configured-only: search, which no config names, inherits the rule', () => {
    const readings = withReadings({ star: 'configured-only' });
    const [event] = planCompactions(turns(), config, null, readings).created.events;
    expect(event?.tool_overrides).toEqual({ fs: OMIT });
  });
});

describe('readings as options', () => {
  it('the default is every ruling, and only changed readings are listed', () => {
    expect(withReadings()).toEqual(DEFAULT_READINGS);
    expect(getChangedReadings(withReadings({ star: 'configured-only' }))).toEqual({
      star: 'configured-only',
    });
    for (const info of READINGS) expect(info.values[0].value).toBe(DEFAULT_READINGS[info.name]);
  });

  it('reads --reading KEY=VALUE and says what a bad one should be', () => {
    expect(parseReadingAssignments(['stacking=per-tool', 'jp=today'])).toEqual({
      ok: true,
      value: { ...DEFAULT_READINGS, stacking: 'per-tool', jp: 'today' },
    });
    const unknown = parseReadingAssignments(['stack=per-tool']);
    expect(unknown.ok ? '' : unknown.message).toMatch(/unknown reading "stack".*no-tool-calls/);
    const value = parseReadingAssignments(['star=everything']);
    expect(value.ok ? '' : value.message).toMatch(
      /"everything" is not one of stream-tools, configured-only/,
    );
    const shape = parseReadingAssignments(['jp']);
    expect(shape.ok ? '' : shape.message).toMatch(/KEY=VALUE/);
  });
});
