import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebounce, createLatestWins } from './timing.ts';

describe('createDebounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, the delay after the last schedule; cancel drops it', () => {
    let runs = 0;
    const debounce = createDebounce(() => runs++);
    debounce.schedule(100);
    vi.advanceTimersByTime(90);
    debounce.schedule(100);
    vi.advanceTimersByTime(90);
    expect(runs).toBe(0);
    expect(debounce.pending).toBe(true);
    vi.advanceTimersByTime(10);
    expect(runs).toBe(1);
    expect(debounce.pending).toBe(false);
    debounce.schedule(100);
    debounce.cancel();
    vi.advanceTimersByTime(1_000);
    expect(runs).toBe(1);
  });
});

describe('createLatestWins', () => {
  it('lets only the newest job write, and none after a supersede', () => {
    const jobs = createLatestWins();
    const first = jobs.start();
    const second = jobs.start();
    expect([jobs.isCurrent(first), jobs.isCurrent(second)]).toEqual([false, true]);
    expect(jobs.latest).toBe(second);
    jobs.supersede();
    expect(jobs.isCurrent(second)).toBe(false);
  });
});
