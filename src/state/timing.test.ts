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

  it('runs a zero delay once the current code is done, before a timer queued earlier, once', async () => {
    const order: string[] = [];
    const debounce = createDebounce(() => order.push('run'));
    setTimeout(() => order.push('timer'), 0);
    debounce.schedule(0);
    debounce.schedule(0);
    expect(order).toEqual([]);
    expect(debounce.pending).toBe(true);
    await Promise.resolve();
    expect(order).toEqual(['run']);
    expect(debounce.pending).toBe(false);
    debounce.schedule(0);
    debounce.cancel();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['run', 'timer']);
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
