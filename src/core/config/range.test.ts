import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Instant, parseTimestamp } from '../stream/timestamp.ts';
import type { CompactionRule, RuleBound, StreamElement } from '../types.ts';
import {
  describeEmptyRange,
  type ExistingCompaction,
  explainRange,
  extendSummaryRange,
  formatTurnRange,
  getExistingCompactions,
  getRangeContext,
  keepFirstToBound,
  keepLastToBound,
  type RangeContext,
  resolveRange,
  resolveRuleRange,
  resolveRuleRanges,
} from './range.ts';

const at = (text: string): Instant => parseTimestamp(text) as Instant;

/** A context of `count` turns, one per hour from 08:00, with now at 12:00. */
function hourlyContext(count: number, existing: ExistingCompaction[] = []): RangeContext {
  const turnStarts = Array.from({ length: count }, (_, turn) =>
    at(`2026-01-01 ${String(8 + turn).padStart(2, '0')}:00:00.0`),
  );
  return {
    turnCount: count,
    turnStarts,
    now: at('2026-01-01 12:00:00.0'),
    existingCompactions: existing,
  };
}

function rule(keep_first: RuleBound, keep_last: RuleBound, summary = false): CompactionRule {
  return {
    keep_first,
    keep_last,
    reasoning: 'strip',
    tool_calls: null,
    summary: summary ? {} : null,
  };
}

describe('resolveRange (spec 6.1)', () => {
  it('gives no range on an empty stream whatever the bounds', () => {
    expect(resolveRange(0, [], null, null)).toBeNull();
    expect(explainRange(0, [], { absolute: 0 }, null).reason).toEqual({ kind: 'no-turns' });
  });

  it('clamps an absolute end and rejects an absolute start past the last turn', () => {
    expect(resolveRange(3, [], { absolute: 1 }, { absolute: 50 })).toEqual({
      from_turn: 1,
      to_turn: 2,
    });
    expect(explainRange(3, [], { absolute: 3 }, null).reason).toEqual({
      kind: 'start-after-last-turn',
      start: 3,
      turnCount: 3,
    });
  });

  it('saturates a from_end start but not a from_end end', () => {
    expect(resolveRange(3, [], { from_end: 9 }, null)).toEqual({ from_turn: 0, to_turn: 2 });
    expect(resolveRange(3, [], null, { from_end: 2 })).toEqual({ from_turn: 0, to_turn: 0 });
    expect(explainRange(3, [], null, { from_end: 3 }).reason).toEqual({
      kind: 'end-before-first-turn',
      fromEnd: 3,
      turnCount: 3,
    });
  });

  it('uses max(to_turn)+1 over all compactions for after_last_compaction', () => {
    const existing = [
      { from_turn: 0, to_turn: 4 },
      { from_turn: 2, to_turn: 3 },
    ];
    const afterLast = { after_last_compaction: true } as const;
    expect(resolveRange(8, existing, afterLast, null)).toEqual({ from_turn: 5, to_turn: 7 });
    expect(resolveRange(8, existing, null, afterLast)).toEqual({ from_turn: 0, to_turn: 5 });
    expect(resolveRange(5, existing, afterLast, null)).toBeNull();
    expect(resolveRange(5, existing, null, afterLast)).toEqual({ from_turn: 0, to_turn: 4 });
  });

  it('reports an inverted range', () => {
    expect(explainRange(2, [], { absolute: 1 }, { from_end: 1 }).reason).toEqual({
      kind: 'start-after-end',
      start: 1,
      end: 0,
    });
  });

  it('always returns an inclusive range inside the stream (property)', () => {
    const bound = fc.oneof(
      fc.constant(null),
      fc.nat(30).map((absolute) => ({ absolute })),
      fc.nat(30).map((from_end) => ({ from_end })),
      fc.constant({ after_last_compaction: true as const }),
    );
    const compaction = fc
      .tuple(fc.nat(30), fc.nat(30))
      .map(([a, b]) => ({ from_turn: Math.min(a, b), to_turn: Math.max(a, b) }));
    fc.assert(
      fc.property(
        fc.nat(25),
        fc.array(compaction, { maxLength: 4 }),
        bound,
        bound,
        (count, existing, from, to) => {
          const result = explainRange(count, existing, from, to);
          if (result.range === null) {
            expect(describeEmptyRange(result.reason)).not.toBe('');
            return;
          }
          expect(result.range.from_turn).toBeGreaterThanOrEqual(0);
          expect(result.range.from_turn).toBeLessThanOrEqual(result.range.to_turn);
          expect(result.range.to_turn).toBeLessThan(count);
        },
      ),
    );
  });
});

describe('keep_first / keep_last conversion (spec 6.2)', () => {
  const context = hourlyContext(4); // turns start 08:00, 09:00, 10:00, 11:00; now 12:00

  it('turns a keep_first count into the index of the first compacted turn', () => {
    expect(keepFirstToBound(context, { turns: 2 })).toEqual({ bound: { absolute: 2 } });
    expect(keepFirstToBound(context, { absolute: 2 })).toEqual({ bound: { absolute: 1 } });
    expect(keepFirstToBound(context, { from_end: 2 })).toEqual({ bound: { from_end: 2 } });
    expect(keepFirstToBound(context, { after_last_compaction: true })).toEqual({
      bound: { after_last_compaction: true },
    });
  });

  it('starts after the turn active at the end of a keep_first duration', () => {
    // 08:00 + 90 minutes = 09:30, during turn 1: compaction starts at turn 2.
    expect(keepFirstToBound(context, { duration_secs: 5400 })).toEqual({ bound: { absolute: 2 } });
    expect(keepFirstToBound(hourlyContext(0), { duration_secs: 60 })).toEqual({
      empty: { kind: 'no-turns' },
    });
    const unreadable = { ...context, turnStarts: [undefined, ...context.turnStarts.slice(1)] };
    expect(keepFirstToBound(unreadable, { duration_secs: 60 })).toEqual({
      empty: { kind: 'first-turn-time-unknown' },
    });
  });

  it('turns keep_last into an end bound', () => {
    expect(keepLastToBound(context, { turns: 2 })).toEqual({ bound: { from_end: 2 } });
    expect(keepLastToBound(context, { from_end: 2 })).toEqual({ bound: { from_end: 2 } });
    expect(keepLastToBound(context, { absolute: 3 })).toEqual({ bound: { absolute: 2 } });
    expect(keepLastToBound(context, { after_last_compaction: true })).toEqual({ bound: null });
  });

  it('ends a keep_last duration at the turn active at the cutoff, or keeps everything', () => {
    // 12:00 - 2.5h = 09:30, during turn 1.
    expect(keepLastToBound(context, { duration_secs: 9000 })).toEqual({ bound: { absolute: 1 } });
    const cutoff = at('2026-01-01 07:00:00.0');
    expect(keepLastToBound(context, { duration_secs: 5 * 3600 })).toEqual({
      empty: { kind: 'window-covers-all', cutoff },
    });
  });

  it('gives the spec 6.2 examples for the default rule', () => {
    const defaults = rule({ turns: 1 }, { turns: 1 });
    expect(resolveRuleRange(hourlyContext(9), defaults).range).toEqual({
      from_turn: 1,
      to_turn: 7,
    });
    expect(resolveRuleRange(hourlyContext(2), defaults).range).toBeNull();
    expect(resolveRuleRange(hourlyContext(1), defaults).range).toBeNull();
    expect(resolveRuleRange(hourlyContext(9), rule({ turns: 0 }, { turns: 0 })).range).toEqual({
      from_turn: 0,
      to_turn: 8,
    });
  });

  it('lets overrides replace either side of every rule', () => {
    const defaults = rule({ turns: 1 }, { turns: 1 });
    const ctx = hourlyContext(6);
    expect(resolveRuleRange(ctx, defaults, { from: { at: { absolute: 0 } } }).range).toEqual({
      from_turn: 0,
      to_turn: 4,
    });
    expect(resolveRuleRange(ctx, defaults, { to: { at: { from_end: 0 } } }).range).toEqual({
      from_turn: 1,
      to_turn: 5,
    });
    expect(resolveRuleRange(ctx, defaults, { to: { empty: true } }).reason).toEqual({
      kind: 'override-empty',
      side: 'to',
    });
    expect(resolveRuleRange(ctx, defaults, { from: { default: true } }).range).toEqual({
      from_turn: 1,
      to_turn: 4,
    });
  });
});

describe('extendSummaryRange (spec 7)', () => {
  it('extends on any intersection, containment included, but not adjacency', () => {
    const existing = [
      { from_turn: 0, to_turn: 2, summary: true },
      { from_turn: 4, to_turn: 4, summary: true },
      { from_turn: 6, to_turn: 9, summary: false },
    ];
    expect(extendSummaryRange(existing, { from_turn: 3, to_turn: 3 })).toEqual({
      from_turn: 3,
      to_turn: 3,
    });
    expect(extendSummaryRange(existing, { from_turn: 2, to_turn: 5 })).toEqual({
      from_turn: 0,
      to_turn: 5,
    });
    expect(extendSummaryRange(existing, { from_turn: 7, to_turn: 7 })).toEqual({
      from_turn: 7,
      to_turn: 7,
    });
  });

  it('reaches a fixed point: every summary ends up disjoint from or inside the range (property)', () => {
    const summary = fc.tuple(fc.nat(20), fc.nat(20), fc.boolean()).map(([a, b, isSummary]) => ({
      from_turn: Math.min(a, b),
      to_turn: Math.max(a, b),
      summary: isSummary,
    }));
    const range = fc
      .tuple(fc.nat(20), fc.nat(20))
      .map(([a, b]) => ({ from_turn: Math.min(a, b), to_turn: Math.max(a, b) }));
    fc.assert(
      fc.property(fc.array(summary, { maxLength: 6 }), range, (existing, start) => {
        const extended = extendSummaryRange(existing, start);
        expect(extended.from_turn).toBeLessThanOrEqual(start.from_turn);
        expect(extended.to_turn).toBeGreaterThanOrEqual(start.to_turn);
        for (const c of existing) {
          if (!c.summary) continue;
          const disjoint = c.to_turn < extended.from_turn || c.from_turn > extended.to_turn;
          const inside = c.from_turn >= extended.from_turn && c.to_turn <= extended.to_turn;
          expect(disjoint || inside).toBe(true);
        }
        expect(extendSummaryRange(existing, extended)).toEqual(extended);
      }),
    );
  });
});

describe('resolveRuleRanges (spec 6.4)', () => {
  it('resolves after_last_compaction against the stream at invocation start', () => {
    const ctx = hourlyContext(10, [{ from_turn: 0, to_turn: 2, summary: false }]);
    const afterLast = rule({ after_last_compaction: true }, { turns: 1 });
    const plans = resolveRuleRanges(ctx, [afterLast, afterLast]);
    expect(plans.map((plan) => plan.range)).toEqual([
      { from_turn: 3, to_turn: 8 },
      { from_turn: 3, to_turn: 8 },
    ]);
  });

  it('extends a summary over existing summaries and this run’s earlier summaries', () => {
    const ctx = hourlyContext(12, [{ from_turn: 0, to_turn: 3, summary: true }]);
    const plans = resolveRuleRanges(ctx, [
      rule({ absolute: 4 }, { absolute: 6 }, true), // 3..5, touches the existing 0..3
      rule({ absolute: 6 }, { absolute: 8 }, true), // 5..7, touches this run's 0..5
      rule({ absolute: 6 }, { absolute: 8 }), // mechanical: never extended
    ]);
    expect(plans.map(({ range, extended }) => ({ range, extended }))).toEqual([
      { range: { from_turn: 0, to_turn: 5 }, extended: true },
      { range: { from_turn: 0, to_turn: 7 }, extended: true },
      { range: { from_turn: 5, to_turn: 7 }, extended: false },
    ]);
    expect(plans[1]?.resolution.range).toEqual({ from_turn: 5, to_turn: 7 });
  });

  it('does not let an empty summary rule take part in extension', () => {
    const ctx = hourlyContext(3);
    const plans = resolveRuleRanges(ctx, [
      rule({ turns: 2 }, { turns: 2 }, true),
      rule({ absolute: 2 }, { absolute: 2 }, true),
    ]);
    expect(plans.map((plan) => plan.range)).toEqual([null, { from_turn: 1, to_turn: 1 }]);
  });
});

describe('getRangeContext', () => {
  it('reads turns and compactions from a stream, skipping malformed compactions', () => {
    const elements: StreamElement[] = [
      { type: 'chat_request', timestamp: '2026-01-01 08:00:00.0', content: 'implicit turn 0' },
      { type: 'turn_start', timestamp: '2026-01-01 09:00:00.0' },
      {
        type: 'compaction',
        timestamp: '2026-01-01 10:00:00.0',
        from_turn: 0,
        to_turn: 0,
        summary: null,
      },
      {
        type: 'compaction',
        timestamp: '2026-01-01 10:00:00.0',
        from_turn: 0,
        to_turn: 1,
        summary: { summary: 'x' },
      },
      { type: 'compaction', timestamp: '2026-01-01 10:00:00.0', from_turn: -1, to_turn: 'a' },
    ];
    expect(getExistingCompactions(elements)).toEqual([
      { from_turn: 0, to_turn: 0, summary: false },
      { from_turn: 0, to_turn: 1, summary: true },
    ]);
    const context = getRangeContext(elements, at('2026-01-01 12:00:00.0'));
    expect(context.turnCount).toBe(2);
    expect(context.turnStarts).toEqual([at('2026-01-01 08:00:00.0'), at('2026-01-01 09:00:00.0')]);
  });
});

describe('describing ranges', () => {
  it('speaks 1-based turns', () => {
    expect(formatTurnRange({ from_turn: 1, to_turn: 7 })).toBe('turns 2..8');
    expect(formatTurnRange({ from_turn: 2, to_turn: 2 })).toBe('turn 3');
    expect(describeEmptyRange({ kind: 'start-after-end', start: 1, end: 0 })).toBe(
      'The range would start at turn 2 and end at turn 1: the turns kept at the start and at the end cover everything.',
    );
  });
});
