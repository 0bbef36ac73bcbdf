/**
 * A folder in money on four replays written by hand: only the fields the
 * money reads are set (the requests' times, the recorded totals, each
 * schedule's cost, the calibration's source). The dollars are whole or
 * halves so every sum is exact; each expected figure is worked out in the
 * comments, not taken from the code.
 */
import { describe, expect, it } from 'vitest';
import {
  describeFolderMoney,
  getConversationDay,
  getConversationMoney,
  sumFolderMoney,
} from './folder-money.ts';
import { DEFAULT_MODEL } from './prices.ts';
import type { ScheduleId } from './schedules.ts';
import type { CalibrationSource, Replay, ReplayRequest } from './types.ts';

/** A replay with `times.length` requests, `recorded` of them with recorded usage costing `bill`. */
function replayOf(options: {
  times: (string | null)[];
  schedules: Partial<Record<ScheduleId, number>>;
  source: CalibrationSource;
  recorded?: { requests: number; bill: number };
}): Replay {
  const requests = options.times.map(
    (time, k) => ({ index: k + 1, time, cost: 0 }) as unknown as ReplayRequest,
  );
  const stored = options.schedules.stored ?? 0;
  return {
    model: DEFAULT_MODEL,
    schedule: 'stored',
    policy: { name: 'jp', parameters: {} },
    tokenizer: 'chars',
    calibration: { source: options.source } as Replay['calibration'],
    requests,
    totals: {
      baseline: { prompt_tokens: 0, cost: options.schedules.none ?? 0 },
      schedule: { prompt_tokens: 0, cost: stored },
      saved: { prompt_tokens: 0, cost: 0, percent: 0 },
    },
    schedules: options.schedules,
    tools: [],
    recorded: options.recorded
      ? ({
          requests: options.recorded.requests,
          cost: options.recorded.bill,
        } as Replay['recorded'])
      : null,
    scale: 1,
    notes: [],
  };
}

// A: every request recorded, so its cost is the bill ($3), not stored ($4). Its
// first request is a second before midnight UTC: the day is the 1st.
const A = replayOf({
  times: ['2026-03-01 23:59:59.5', '2026-03-02 00:00:10.0'],
  schedules: { none: 5, stored: 4, 'every-turn': 2.5, auto: 3.5, idle: 4.5 },
  source: 'recorded',
  recorded: { requests: 2, bill: 3 },
});
// B: no recorded usage, the runtime's defaults: modelled, stored $2.
const B = replayOf({
  times: ['2026-03-02 08:00:00.0'],
  schedules: { none: 3, stored: 2, 'every-turn': 3, auto: 1, idle: 2 },
  source: 'runtime',
});
// C: usage on 1 of 3 requests, fitted on it: calibrated, stored $10; times invented.
const C = replayOf({
  times: ['2026-03-05 00:00:00.0', '2026-03-05 00:00:01.0', '2026-03-05 00:00:02.0'],
  schedules: { none: 12, stored: 10, 'every-turn': 11, auto: 10.5, idle: 9 },
  source: 'recorded',
  recorded: { requests: 1, bill: 0.5 },
});
// D: the file alone; nothing is cheaper than stored ($1).
const D = replayOf({
  times: ['2026-03-01 10:00:00.0'],
  schedules: { none: 2, stored: 1, 'every-turn': 1, auto: 1, idle: 1 },
  source: 'none',
});

describe('getConversationDay', () => {
  it('is the UTC date of the first request', () => {
    expect(getConversationDay(A, false)).toBe('2026-03-01');
  });
  it('is null when the times are invented, unknown, or there is no request', () => {
    expect(getConversationDay(C, true)).toBeNull();
    expect(
      getConversationDay(replayOf({ times: [null], schedules: {}, source: 'none' }), false),
    ).toBeNull();
    expect(
      getConversationDay(replayOf({ times: [], schedules: {}, source: 'none' }), false),
    ).toBeNull();
  });
});

describe('getConversationMoney', () => {
  it('takes the bill where every request was recorded, and the cheapest schedule against stored', () => {
    // every-turn $2.5 against stored $4: saved $1.5, 1.5 / 4 = 37.5 %.
    expect(getConversationMoney('a', A, false)).toEqual({
      name: 'a',
      day: '2026-03-01',
      requests: 2,
      cost: 3,
      basis: 'recorded',
      recorded_requests: 2,
      schedules: { none: 5, stored: 4, 'every-turn': 2.5, auto: 3.5, idle: 4.5 },
      cheapest: { name: 'every-turn', cost: 2.5, saved: 1.5, percent: 37.5 },
    });
  });
  it('takes stored, labelled by its basis, where the bill is partial or absent', () => {
    const c = getConversationMoney('c', C, true);
    // Partial usage (1 of 3): stored $10, calibrated; idle $9 saves $1 = 10 %.
    expect([c.cost, c.basis, c.recorded_requests, c.day]).toEqual([10, 'calibrated', 1, null]);
    expect(c.cheapest).toEqual({ name: 'idle', cost: 9, saved: 1, percent: 10 });
    const b = getConversationMoney('b', B, false);
    expect([b.cost, b.basis, b.recorded_requests]).toEqual([2, 'modelled', 0]);
    expect(getConversationMoney('d', D, false).cheapest).toBeNull();
  });
});

describe('sumFolderMoney', () => {
  const rows = [
    getConversationMoney('a', A, false),
    getConversationMoney('b', B, false),
    getConversationMoney('c', C, true),
    getConversationMoney('d', D, false),
  ];
  const money = sumFolderMoney(rows);

  it('adds each conversation’s cost per day, oldest first, the unknown day last', () => {
    // The 1st: A $3 + D $1; the 2nd: B $2; unknown: C $10.
    expect(money.days).toEqual([
      { day: '2026-03-01', conversations: 2, cost: 4 },
      { day: '2026-03-02', conversations: 1, cost: 2 },
      { day: null, conversations: 1, cost: 10 },
    ]);
    expect(money.conversations.map((row) => row.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('totals the cost, the bases, and the one cheapest schedule over the folder', () => {
    // cost 3 + 2 + 10 + 1 = 16; stored 4 + 2 + 10 + 1 = 17.
    // none 5+3+12+2 = 22; every-turn 2.5+3+11+1 = 17.5; auto 3.5+1+10.5+1 = 16;
    // idle 4.5+2+9+1 = 16.5. Cheapest auto: saves 17 − 16 = 1, 1/17 = 5.88 %
    // (each conversation's own cheapest would save 1.5 + 1 + 1 + 0 = 3.5: not one setting).
    expect(money.total).toEqual({
      cost: 16,
      conversations: 4,
      recorded: 1,
      modelled: 3,
      stored: 17,
      schedules: { none: 22, stored: 17, 'every-turn': 17.5, auto: 16, idle: 16.5 },
      cheapest: {
        schedule: 'auto',
        cost: 16,
        saved: 1,
        percent: expect.closeTo(5.882, 3),
        against: 'against the session as it ran',
      },
    });
  });

  it('says it in the money line’s words', () => {
    expect(describeFolderMoney(money)).toEqual({
      total: 'These 4 conversations cost about $16.0000 (1 recorded, 3 modelled).',
      cheapest:
        'Cheapest schedule over the folder: auto at $16.0000, saving $1.0000 (5.9%) against the session as it ran ($17.0000 modelled).',
    });
  });

  it('sums only the schedules every conversation computed', () => {
    const partial = getConversationMoney('p', B, false);
    delete partial.schedules.auto;
    // Without auto, over A and the partial B: every-turn 2.5 + 3 = 5.5, idle 4.5 + 2 = 6.5,
    // none 8, stored 6: every-turn saves 0.5.
    const total = sumFolderMoney([rows[0] as (typeof rows)[0], partial]).total;
    expect(total.schedules).toEqual({ none: 8, stored: 6, 'every-turn': 5.5, idle: 6.5 });
    expect(total.cheapest?.schedule).toBe('every-turn');
    expect(total.cheapest?.saved).toBe(0.5);
  });

  it('is nothing for an empty folder, and no cheapest when stored is cheapest', () => {
    const empty = sumFolderMoney([]);
    expect(empty.days).toEqual([]);
    expect(empty.total).toMatchObject({ cost: 0, conversations: 0, stored: 0, cheapest: null });
    const d = sumFolderMoney([rows[3] as (typeof rows)[0]]);
    expect(d.total.cheapest).toBeNull();
    expect(describeFolderMoney(d)).toEqual({
      total: 'This conversation cost about $1.0000 (every one modelled).',
      cheapest:
        'No schedule is cheaper over the folder than the sessions as they ran ($1.0000 modelled).',
    });
  });
});
