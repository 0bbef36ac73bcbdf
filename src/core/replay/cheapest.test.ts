import { describe, expect, it } from 'vitest';
import { findCheapest, getSaving } from './cheapest.ts';

describe('the cheapest of a set', () => {
  it('is the least cost, the first on a tie, and none of nothing', () => {
    const items = [
      { name: 'a', cost: 3 },
      { name: 'b', cost: 1 },
      { name: 'c', cost: 1 },
    ];
    expect(findCheapest(items, (item) => item.cost)?.name).toBe('b');
    expect(findCheapest([], () => 0)).toBeUndefined();
  });

  it('saves against the session as it ran only when it costs less: $4 against $5 is $1, 20 %', () => {
    expect(getSaving(5, 4)).toEqual({ saved: 1, percent: 20 });
    expect(getSaving(5, 5)).toBeNull();
    expect(getSaving(5, 6)).toBeNull();
    expect(getSaving(0, -1)).toEqual({ saved: 1, percent: 0 });
  });
});
