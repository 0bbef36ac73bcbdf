/**
 * A measure, not a check: how much faster the worker pool counts the corpus
 * folder (20 conversations, cold: new workers each time) than one worker
 * (`?workers=1`). Printed, never asserted: it depends on the cores and on
 * what else the machine runs. Runs after the other specs, alone
 * (playwright.config.ts); by itself:
 *
 *     npx vite build && npx playwright test workspace-perf --no-deps
 */
import { loadavg } from 'node:os';
import { expect, test, waitForResults } from './helpers.ts';
import { countingDone, openCorpusFolder, watchCounting } from './workspace-helpers.ts';

test('PERF: the pool against one worker on the corpus folder', async ({ page }) => {
  test.setTimeout(180_000);
  const ROUNDS = 3;
  const times: Record<'one' | 'pool', number[]> = { one: [], pool: [] };
  let poolSize = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['one', 'pool'] as const) {
      // A fresh page each time: new workers, counting cold.
      await page.goto(kind === 'one' ? '/?workers=1' : '/');
      await waitForResults(page);
      poolSize ||= await page.evaluate(() =>
        Math.min(4, Math.max(1, navigator.hardwareConcurrency)),
      );
      await page.evaluate(watchCounting);
      await openCorpusFolder(page);
      const counted = await page.evaluate(countingDone);
      expect(counted.status, 'how the count ended').toBe('done');
      times[kind].push(counted.ms);
    }
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
  };
  const one = median(times.one);
  const pool = median(times.pool);
  console.log(
    `WORKSPACE pool speed-up on the corpus folder (20 conversations, cold, median of ${ROUNDS}, interleaved): ` +
      `one worker ${one} ms, pool of ${poolSize} ${pool} ms: ${(one / pool).toFixed(2)}× faster ` +
      `(runs: one ${times.one.map(Math.round).join('/')}, pool ${times.pool.map(Math.round).join('/')} ms; ` +
      `load average ${loadavg()[0]?.toFixed(1) ?? '?'})`,
  );
});
