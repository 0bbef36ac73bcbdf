import { describe, expect, it } from 'vitest';
import {
  formatRuleBound,
  mergeRuleLayers,
  type PartialCompactionRule,
  parseRuleBound as parseBound,
  parseCompactionEvent,
  parseRulesLayer,
  parseToolCallsMode,
  type RulesLayer,
  resolveCompactionRules,
  serializeCompactionEvent,
  serializeCompactionRule,
} from './rule-config.ts';

function rule(fields: Partial<PartialCompactionRule>): PartialCompactionRule {
  return {
    keep_first: null,
    keep_last: null,
    reasoning: null,
    tool_calls: null,
    summary: null,
    ...fields,
  };
}

function layer(
  rules: PartialCompactionRule[],
  strategy: RulesLayer['strategy'] = 'append',
  dedup = false,
) {
  return { rules, strategy, dedup };
}

describe('parseRuleBound under base=2026-08 (spec 5 as written)', () => {
  const parseRuleBound = (value: unknown, field?: string) => parseBound(value, field, '2026-08');
  it.each([
    [0, { turns: 0 }],
    [7n, { turns: 7 }],
    ['12', { turns: 12 }],
    ['LAST', { after_last_compaction: true }],
    ['Last-Compaction', { after_last_compaction: true }],
    ['@3', { absolute: 3 }],
    ['-0', { from_end: 0 }],
    ['90m', { duration_secs: 5400 }],
    ['1.5s', { duration_secs: 1.5 }],
    ['250ms', { duration_secs: 0.25 }],
  ])('reads %s', (value, expected) => {
    expect(parseRuleBound(value)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['@0', '1-based'],
    ['@x', 'whole number'],
    ['@', 'whole number'],
    ['-5h', 'durations have no sign'],
    ['-', 'whole number'],
    ['soon', 'accepted: a turn count'],
    ['', 'empty'],
    [-1, 'cannot be negative'],
    [1.5, 'whole number'],
    [true, 'got a boolean'],
    [null, 'got nothing'],
    [{ turns: 1 }, 'got a table'],
  ])('rejects %j with a message that says why', (value, reason) => {
    const result = parseRuleBound(value, 'keep_last');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain('keep_last');
      expect(result.message).toContain(reason);
    }
  });

  it('reads a count as a usize: up to 2^64 - 1, beyond 2^53 too', () => {
    // Past 2^53 the count is the nearest double, which is what JSON gives as well.
    expect(parseRuleBound('9007199254740993')).toEqual({
      ok: true,
      value: { turns: 2 ** 53 },
    });
    expect(parseRuleBound('-18446744073709551615')).toEqual({
      ok: true,
      value: { from_end: Number(2n ** 64n - 1n) },
    });
    expect(parseRuleBound(2 ** 60)).toEqual({ ok: true, value: { turns: 2 ** 60 } });
    expect(parseRuleBound(2n ** 63n - 1n)).toEqual({ ok: true, value: { turns: 2 ** 63 } });
    // Past usize::MAX: not a count, and as a duration a number without a unit.
    expect(parseRuleBound('18446744073709551616').ok).toBe(false);
    expect(parseRuleBound('@18446744073709551616').ok).toBe(false);
    expect(parseRuleBound(2 ** 64).ok).toBe(false);
  });

  it('tries the string forms in the order of spec 5', () => {
    // (base=2026-08: JP main reads "-N" as a position and refuses "@N" and "last", below.)
    // Markers (any case), then `@`, then `-` (final), then a number, then a duration.
    expect(parseRuleBound('LAST')).toEqual({ ok: true, value: { after_last_compaction: true } });
    expect(parseRuleBound('@+3')).toEqual({ ok: true, value: { absolute: 3 } });
    expect(parseRuleBound('-+5')).toEqual({ ok: true, value: { from_end: 5 } });
    expect(parseRuleBound('+5')).toEqual({ ok: true, value: { turns: 5 } });
    for (const text of ['--5', '- 5', '-5 ', '@ 3', '@-1', ' last', 'last compaction']) {
      expect(parseRuleBound(text).ok, text).toBe(false);
    }
    // Not a usize, so a duration: and a number without a unit is an error.
    expect(parseRuleBound(' 5').ok).toBe(false);
    expect(parseRuleBound('5 ').ok).toBe(false);
    expect(parseRuleBound(' 5h ')).toEqual({ ok: true, value: { duration_secs: 18_000 } });
  });
});

describe('parseRuleBound under base=2026-09 (spec 15.4, the default)', () => {
  it('says a negative count is written as the string of the same number (issue 43, item 18)', () => {
    for (const value of [-3, -3n]) {
      const result = parseBound(value, 'keep_last');
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.message).toBe(
          'invalid keep_last -3: a turn count cannot be negative; write "-3" as a string to count from the end',
        );
      }
    }
  });

  it.each([
    ['-1', { from_end: 0 }],
    ['-3', { from_end: 2 }],
    ['-+5', { from_end: 4 }],
    ['LAST-COMPACTION', { after_last_compaction: true }],
    [3, { turns: 3 }],
    ['3', { turns: 3 }],
    ['5h', { duration_secs: 18_000 }],
  ])('reads %j', (value, expected) => {
    expect(parseBound(value)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['-0', '1-based; use `-1` for the last turn'],
    ['last', 'write "last-compaction"'],
    ['Last', 'write "last-compaction"'],
    ['@3', "invalid duration '@3'"],
    ['-5h', 'invalid from-end bound'],
  ])('refuses %j in a config, saying what to write', (value, reason) => {
    const result = parseBound(value, 'keep_last');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });

  it('says keep_first = "@3" is the count 2, the same start', () => {
    const result = parseBound('@3', 'keep_first');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.message).toContain('write 2 (the count 2 starts at the same turn)');
  });

  it('writes bounds back as strings, durations in humantime form', () => {
    expect(formatRuleBound({ duration_secs: 5400 })).toBe('1h 30m');
    expect(formatRuleBound({ duration_secs: 172_800 })).toBe('2days');
    expect(formatRuleBound({ duration_secs: 1.5 })).toBe('1s 500ms');
    expect(formatRuleBound({ duration_secs: 0 })).toBe('0s');
    expect(formatRuleBound({ after_last_compaction: true })).toBe('last-compaction');
  });
});

describe('parseToolCallsMode', () => {
  it('says what is accepted and suggests the closest spelling', () => {
    const result = parseToolCallsMode('strip-request');
    expect(result).toEqual({
      ok: false,
      message:
        'invalid tool_calls "strip-request": expected one of strip, strip-requests, strip-responses, omit ' +
        '(aliases: s, sreq, sres, o, strip_requests, strip_responses); did you mean "strip-requests"?',
    });
  });
});

describe('rule layers', () => {
  const a = rule({ keep_last: { turns: 2 } });
  const b = rule({ reasoning: 'strip' });
  const c = rule({ tool_calls: 'omit' });

  it('appends, prepends and replaces', () => {
    expect(mergeRuleLayers([layer([a]), layer([b])])).toEqual([a, b]);
    expect(mergeRuleLayers([layer([a]), layer([b], 'prepend')])).toEqual([b, a]);
    expect(mergeRuleLayers([layer([a, b]), layer([c], 'replace')])).toEqual([c]);
  });

  it('drops later duplicates when dedup is set, keeping the first', () => {
    expect(
      mergeRuleLayers([
        layer([a, b]),
        layer([rule({ keep_last: { turns: 2 } }), c], 'append', true),
      ]),
    ).toEqual([a, b, c]);
    expect(mergeRuleLayers([layer([a]), layer([a])])).toEqual([a, a]);
  });

  it('falls back to the built-in rule when the merged list is empty', () => {
    const builtin = resolveCompactionRules([layer([a]), layer([], 'replace')]);
    expect(builtin).toHaveLength(1);
    expect(builtin[0]).toMatchObject({ reasoning: 'strip', tool_calls: 'strip' });
  });

  it('reads the merge-table form and rejects a bad strategy', () => {
    expect(parseRulesLayer({ strategy: 'prepend' })).toEqual({
      ok: true,
      value: { rules: [], strategy: 'prepend', dedup: false },
    });
    const bad = parseRulesLayer({ value: [], strategy: 'merge' });
    expect(bad.ok).toBe(false);
    expect(parseRulesLayer({ value: [{ keep_first: '@0' }] }).ok).toBe(false);
    expect(parseRulesLayer('strip').ok).toBe(false);
  });

  it('writes a rule with unset fields omitted, in JP key order', () => {
    const written = serializeCompactionRule(
      rule({ summary: {}, tool_calls: 'strip-requests', keep_first: { absolute: 2 } }),
    );
    expect(Object.entries(written)).toEqual([
      ['keep_first', '@2'],
      ['tool_calls', 'strip-requests'],
      ['summary', {}],
    ]);
  });
});

describe('compaction events', () => {
  it('writes keys in JP order, overrides sorted, empty overrides omitted', () => {
    const written = serializeCompactionEvent({
      tool_overrides: {
        zeta: { policy: 'omit' },
        alpha: { policy: 'strip', request: true, response: false },
      },
      tool_calls: { policy: 'omit' },
      reasoning: 'strip',
      summary: { summary: 'text' },
      to_turn: 3,
      from_turn: 1,
      timestamp: '2025-07-01 12:00:00.0',
    });
    expect(Object.keys(written)).toEqual([
      'type',
      'timestamp',
      'from_turn',
      'to_turn',
      'summary',
      'reasoning',
      'tool_calls',
      'tool_overrides',
    ]);
    expect(Object.keys(written.tool_overrides as object)).toEqual(['alpha', 'zeta']);
    expect(
      serializeCompactionEvent({ timestamp: 't', from_turn: 0, to_turn: 0, tool_overrides: {} }),
    ).toEqual({ type: 'compaction', timestamp: 't', from_turn: 0, to_turn: 0 });
  });

  it('reads an event back, and rejects broken ones without throwing', () => {
    const event = {
      type: 'compaction',
      timestamp: '2025-07-01T12:00:00Z',
      from_turn: 0,
      to_turn: 2,
      reasoning: 'strip',
    };
    expect(parseCompactionEvent(event)).toEqual({
      ok: true,
      value: {
        // Kept as written (spec 1.2 ruling).
        timestamp: '2025-07-01T12:00:00Z',
        from_turn: 0,
        to_turn: 2,
        summary: null,
        reasoning: 'strip',
        tool_calls: null,
        tool_overrides: {},
      },
    });
    for (const broken of [
      null,
      [],
      { ...event, from_turn: -1 },
      { ...event, type: 'turn_start' },
      { ...event, tool_calls: { policy: 'strip' } },
      { ...event, tool_overrides: { a: 'omit' } },
      { ...event, summary: 'text' },
      // A timestamp JP cannot read makes the compaction invalid (spec 1.2).
      { ...event, timestamp: 't' },
      { ...event, timestamp: '2025-02-30 00:00:00.0' },
      // D17's serde default covers a missing map only; null is not a map.
      { ...event, tool_overrides: null },
    ]) {
      expect(parseCompactionEvent(broken).ok).toBe(false);
    }
  });
});
