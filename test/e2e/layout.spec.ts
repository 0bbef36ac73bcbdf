/**
 * The page at a phone's, a small laptop's and a desktop's width: every
 * header panel (popover) and dialog opens inside the viewport, the page never scrolls
 * sideways with one open, and on a phone the answer comes first.
 */

import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import {
  expect,
  openAdvanced,
  openPlayground,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';

const WIDTHS = [390, 1024, 1440] as const;

/** The header's popover buttons, by name. */
const POPOVERS = [/^D17 readings/, /^File$/, /^Copy link$/, /^Export/];

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

for (const width of WIDTHS) {
  test(`at ${width} px every header panel opens inside the viewport, and the page does not scroll sideways`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await openPlayground(page);
    // The readings sit under Advanced: open it so their panel is checked too.
    await openAdvanced(page);
    for (const name of POPOVERS) {
      const button = page.getByRole('button', { name }).first();
      if ((await button.count()) === 0) continue;
      await button.scrollIntoViewIfNeeded();
      await button.click();
      const panel = page.locator('.cp-popover-panel');
      await expect(panel).toBeVisible();
      // Placed after it opens: wait for the box to settle inside.
      await expect
        .poll(async () => {
          const box = await panel.boundingBox();
          return box ? box.x >= 0 && box.x + box.width <= width : false;
        }, `${name} panel inside 0…${width}`)
        .toBe(true);
      expect(await horizontalOverflow(page), `sideways scroll with ${name} open`).toBe(0);
      await page.keyboard.press('Escape');
      await expect(panel).toHaveCount(0);
    }
    for (const name of ['About', 'Shortcuts']) {
      await page.getByRole('button', { name, exact: true }).click();
      const dialog = page.locator('.cp-modal');
      await expect(dialog).toBeVisible();
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width, `${name} inside`).toBe(true);
      expect(await horizontalOverflow(page), `sideways scroll with ${name} open`).toBe(0);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    }
  });
}

test('at 390 px the headline is within the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await statusLine(page).boundingBox();
  expect(box, 'the headline is laid out').not.toBeNull();
  expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(844);
});

/**
 * Issue 41: at 1024×768 (and 1440×900) the page is no taller than the
 * window, before and after a real Claude Code transcript opens: the panes
 * scroll inside it, the page itself does not.
 */
for (const [width, height] of [
  [1024, 768],
  [1440, 900],
] as const) {
  test(`at ${width}×${height} the page is no taller than the window, with a transcript open`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await openPlayground(page);
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollHeight - document.documentElement.clientHeight,
      );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page
      .getByLabel('Open events.json')
      .setInputFiles(
        join(SHARED_DIR, 'corpus/agent-transcripts/claude-code/toolpath__convo.jsonl'),
      );
    await waitForResults(page, 60_000);
    // The money line arrives after the figures: measure once it has.
    await expect(page.getByTestId('money-line')).toContainText('This session cost');
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
}
