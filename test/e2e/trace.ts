/**
 * Chrome traces of the page's main thread, for the browser tests that
 * measure responsiveness. On a loaded machine the Long Tasks API's wall time
 * includes waiting for the CPU; a trace also gives the CPU time the main
 * thread spent, the part that is the page's own.
 */
import type { CDPSession } from '@playwright/test';

/** One event of a Chrome trace (the fields these tests read). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** A main-thread task, in milliseconds. */
export interface TracedTask {
  /** Its wall-clock duration (what the Long Tasks API reports too). */
  wall: number;
  /** The CPU time the main thread spent in it: on a loaded machine, the part that is ours. */
  cpu: number;
}

/**
 * Starts a trace of the page's tasks and user timing marks; the returned
 * function stops it and gives its events.
 */
export async function startTrace(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: unknown }) => {
    events.push(...(data.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) =>
    cdp.once('Tracing.tracingComplete', () => resolve()),
  );
  await cdp.send('Tracing.start', {
    categories:
      'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  return async () => {
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    return events;
  };
}

/**
 * The longest task on the renderer's main thread, of those overlapping the
 * span from the last `from` mark to the last `to` mark (the whole trace when
 * not given).
 */
export function longestMainThreadTask(
  events: TraceEvent[],
  marks: { from?: string; to?: string } = {},
): TracedTask {
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const lastMark = (name: string | undefined) =>
    name === undefined ? undefined : events.filter((e) => e.name === name).at(-1)?.ts;
  const start = lastMark(marks.from) ?? 0;
  const end = lastMark(marks.to) ?? Number.POSITIVE_INFINITY;
  let longest: TracedTask = { wall: 0, cpu: 0 };
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !main.has(`${e.pid}:${e.tid}`)) continue;
    if (e.ts + (e.dur ?? 0) < start || e.ts >= end) continue;
    const wall = (e.dur ?? 0) / 1000;
    if (wall > longest.wall) longest = { wall, cpu: (e.tdur ?? 0) / 1000 };
  }
  return longest;
}
