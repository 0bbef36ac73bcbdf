/**
 * Writes the README's screenshot (docs/playground.png): the production build
 * at 1280x800, light, on the default example. Not a test: no project in
 * playwright.config.ts includes this file unless UPDATE_SCREENSHOT is set,
 * so a normal run neither runs it nor reports it as skipped. To write it:
 *
 *     npx vite build && UPDATE_SCREENSHOT=1 npx playwright test screenshot --no-deps
 */
import { expect, openPlayground, test, waitForDiff } from './helpers.ts';

test('the README screenshot', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPlayground(page);
  await waitForDiff(page);
  // Waiting for the diff scrolled the results to it: back to the answer, once the money line is in.
  await expect(page.getByTestId('money-line')).toContainText('This session cost');
  await page.evaluate(() => {
    for (const element of document.querySelectorAll('*')) element.scrollTop = 0;
  });
  // Monaco shows its scrollbars for a moment after a layout; wait for them to fade.
  await expect(page.locator('.monaco-editor .scrollbar.visible')).toHaveCount(0);
  await page.screenshot({ path: 'docs/playground.png' });
});
