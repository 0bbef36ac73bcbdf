/**
 * The cost pane draws a 3,000-request conversation without a main-thread
 * task over 100 ms (issue 21's Done-when): from the moment the pane is
 * brought into view until its chart is drawn, the replay's answer arriving
 * and the pane rendering included. Runs in the `alone` project (its name
 * ends in perf.spec.ts): a task's wall time is only meaningful when no other
 * test shares the CPU.
 */

import {
  expect,
  openPlayground,
  README_CONFIG_TOML,
  setEditorText,
  test,
  waitForResults,
} from './helpers.ts';
import { buildConversation, costPane } from './replay-helpers.ts';
import { longestMainThreadTask, startTrace } from './trace.ts';

const REQUESTS = 3000;

// TODO(issue 21): fails today: one run traced a 58 s main-thread task (55 s CPU) in this span; cause not yet found.
test.fixme('the cost pane draws 3,000 requests without a main-thread task over 100 ms', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // 30 turns of 100 requests (99 tool calls and a reply each).
  const stream = buildConversation(30, REQUESTS / 30);
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', README_CONFIG_TOML);
  await waitForResults(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name: 'events.json',
    mimeType: 'application/json',
    buffer: Buffer.from(stream),
  });
  await waitForResults(page, 120_000);

  const cdp = await page.context().newCDPSession(page);
  const stopTrace = await startTrace(cdp);
  await page.evaluate(() => performance.mark('cost-start'));
  const pane = costPane(page);
  await pane.scrollIntoViewIfNeeded();
  await expect(pane.locator('.cost-chart')).toHaveAttribute('data-drawn', String(REQUESTS), {
    timeout: 240_000,
  });
  await expect(pane.locator('.extra-pane')).toHaveAttribute('aria-busy', 'false');
  await page.evaluate(() => performance.mark('cost-done'));
  const longest = longestMainThreadTask(await stopTrace(), { from: 'cost-start', to: 'cost-done' });
  console.log(
    `PERF cost pane, ${REQUESTS} requests: longest main-thread task ${Math.round(longest.wall)} ms, ${Math.round(longest.cpu)} ms of it CPU (target ≤ 100)`,
  );
  expect(longest.wall).toBeLessThanOrEqual(100);
});
