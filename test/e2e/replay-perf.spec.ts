/**
 * The cost pane draws a 3,000-request conversation without a main-thread
 * task over 100 ms (issue 21's Done-when), measured twice: from choosing a
 * schedule until the chart has drawn the 3,000 requests again, and (last)
 * from opening another 3,000-request conversation with the pane in view
 * until its chart is drawn. The first: from choosing a schedule until the
 * chart has drawn the 3,000 requests again and the figures show that
 * schedule, the replay's answer arriving, the pane rendering and uPlot's draw
 * included. Runs in the `alone` project (its name ends in perf.spec.ts): a
 * task's wall time is only meaningful when no other test shares the CPU.
 *
 * The panes above it are brought into view and left to settle first: they
 * compute their own extras on the same conversation (the diff's editors
 * build a 3,000-request transcript), and that is not this pane's work; nor
 * is collecting the garbage they left, so the spec collects it first.
 *
 * Things of Playwright's run in the page's main thread and would be counted
 * as the page's tasks, so this spec avoids them in the measured span (one
 * such task, 58 s, is what this spec once traced): its trace snapshots
 * (tracing is off here); the aria snapshot of the whole page an `expect`
 * takes each time its locator finds no element (the waits below are
 * `waitForFunction`s, and the `expect`s come after the span); a locator's
 * search (the select is found before the span); and a wait that checks on
 * every animation frame (which makes the page draw one each time).
 */

import type { CDPSession, Page } from '@playwright/test';
import { expect, README_CONFIG_TOML, showPane, test } from './helpers.ts';
import { buildConversation, costPane, openStream, writeTemporary } from './replay-helpers.ts';
import { longestMainThreadTask, startTrace, type TracedTask } from './trace.ts';

const REQUESTS = 3000;

test.use({ trace: 'off' });

test('the cost pane draws 3,000 requests without a main-thread task over 100 ms', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // 30 turns of 100 requests (99 tool calls and a reply each).
  await openStream(page, buildConversation(30, REQUESTS / 30), README_CONFIG_TOML, 120_000);
  // The worker replays every schedule (the policies side by side and the per-tool
  // what-if are sections left closed here, so never asked for): off the main
  // thread (docs/speed.md). What is measured here is the main thread while it draws.
  for (const id of ['design', 'diff', 'explain', 'timeline', 'cost']) {
    await showPane(page, id, 240_000);
  }
  // Monaco's diff of this long transcript is applied on the main thread when
  // its worker has it (seconds later): that is the diff pane's task, not the
  // cost pane's, so the measure starts once the diff is done.
  await expect(page.locator('#pane-diff [data-current="true"] .cp-transcript')).toHaveAttribute(
    'data-state',
    'done',
    { timeout: 240_000 },
  );
  const pane = costPane(page);
  await expect(pane.locator('.cost-chart')).toHaveAttribute('data-drawn', String(REQUESTS));

  const cdp = await page.context().newCDPSession(page);
  // Found before the span: finding a label among this page's 77,000 elements
  // is about 130 ms of Playwright's script in the page's main thread.
  const schedule = await pane.getByLabel('Schedule', { exact: true }).elementHandle();
  if (!schedule) throw new Error('no schedule control');
  // Until the chart has drawn again and the figures are idle's.
  const longest = await timeChartDraw(
    page,
    cdp,
    () => schedule.selectOption('idle'),
    'tr[data-chosen="true"][data-schedule="idle"]',
  );

  // What a person sees: the chart of every request, and idle's figures over all of them.
  await expect(pane.locator('.cost-chart')).toHaveAttribute('data-drawn', String(REQUESTS));
  await expect(pane.locator('.cost-chart canvas')).toBeVisible();
  await expect(pane.getByTestId('cost-headline')).toContainText(`idle $`);
  await expect(pane.getByTestId('cost-headline')).toContainText('over 3,000 requests');
  console.log(
    `PERF cost pane, ${REQUESTS} requests: longest main-thread task ${Math.round(longest.wall)} ms, ${Math.round(longest.cpu)} ms of it CPU (target ≤ 100; ${longest.wall <= 100 ? 'within' : 'OVER'})`,
  );

  // A conversation opened with the pane in view: its replay, the pane's render and the chart's
  // first draw of the new conversation's 3,000 requests, and everything else the page's thread
  // does from choosing the file on (reading it, the figures). In a window 400 px high the pane
  // fills the view and the diff pane is out of it (a pane computes within a screen's height of
  // the view), so the diff's Monaco editors, the diff pane's own work, stay out of the span.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport?.width ?? 1280, height: 400 });
  const costRoot = await pane.elementHandle();
  await costRoot?.scrollIntoViewIfNeeded();
  await expect(page.locator('#pane-diff')).toHaveAttribute('data-in-view', 'false');
  const fileInput = await page.getByLabel('Open events.json').elementHandle();
  if (!fileInput) throw new Error('no file input');
  // From a file on disk: given bytes, Playwright builds the File in the page's main thread (a
  // task of 120 ms and a collection in a profile), which no person's file choice does.
  const other = writeTemporary('events.json', buildConversation(25, REQUESTS / 25));
  const opened = await timeChartDraw(
    page,
    cdp,
    () => fileInput.setInputFiles(other),
    `.cost-chart[data-drawn="${REQUESTS}"]`,
  );
  await expect(page.locator('#pane-diff')).toHaveAttribute('data-in-view', 'false');
  if (viewport) await page.setViewportSize(viewport);
  console.log(
    `PERF cost pane, another ${REQUESTS}-request conversation opened with the pane in view, until its chart is drawn: longest main-thread task ${Math.round(opened.wall)} ms, ${Math.round(opened.cpu)} ms of it CPU (target ≤ 100; ${opened.wall <= 100 ? 'within' : 'OVER'})`,
  );
  // Printed against the target, not asserted, as the other perf specs do: a
  // wall time on a loaded 2-core machine (the worker computing beside the
  // page) is not a measurement; docs/speed.md has the quiet runs.
});

/**
 * The longest main-thread task from `act` until the cost chart has drawn
 * again (CostChart marks each draw), the pane is not busy and `ready` (a
 * selector in the pane) matches. The garbage of what came before is
 * collected first: a major collection of the page's heap (some 90 MB here,
 * the diff's transcripts above all) finishing inside the span was once its
 * longest task (~160 ms CPU), before this pane had done anything.
 * The wait is a function in the page polled on a timer: an `expect` runs
 * Playwright's script in the page's thread, and polling each frame makes
 * the page draw one each time.
 */
async function timeChartDraw(
  page: Page,
  cdp: CDPSession,
  act: () => Promise<unknown>,
  ready: string,
): Promise<TracedTask> {
  await cdp.send('HeapProfiler.collectGarbage');
  const stopTrace = await startTrace(cdp);
  const draws = await page.evaluate(() => {
    performance.mark('draw-start');
    return performance.getEntriesByName('replay-chart-drawn').length;
  });
  await act();
  await page.waitForFunction(
    ({ before, selector }) => {
      const root = document.querySelector('#pane-cost');
      return (
        performance.getEntriesByName('replay-chart-drawn').length > before &&
        root?.querySelector('.extra-pane')?.getAttribute('aria-busy') === 'false' &&
        root.querySelector(selector) !== null
      );
    },
    { before: draws, selector: ready },
    { timeout: 240_000, polling: 100 },
  );
  await page.evaluate(() => performance.mark('draw-done'));
  return longestMainThreadTask(await stopTrace(), { from: 'draw-start', to: 'draw-done' });
}
