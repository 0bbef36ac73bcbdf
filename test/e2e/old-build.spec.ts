/**
 * A tab left open on an older build after a deploy: the old build's lazy
 * chunks (hashed file names) are gone from the server. The test makes them
 * 404, as the server then does; the page must say the tab is on an older
 * version and offer the reload, never show a raw module URL.
 */
import { test as baseTest } from '@playwright/test';
import {
  expect,
  openPlayground,
  recordConsoleErrors,
  results,
  statusLine,
  test,
  waitForEditors,
  waitForResults,
} from './helpers.ts';

test('a tokenizer chunk gone from the server: the tab says it is on an older version and offers the reload', async ({
  page,
}) => {
  // The worker's requests go through the context's routes.
  await page
    .context()
    .route(/\/assets\/cl100k_base-[^/]+\.js$/, (route) =>
      route.fulfill({ status: 404, body: 'Not found' }),
    );
  await openPlayground(page);
  await page.getByLabel('Tokenizer').selectOption('cl100k');
  await waitForResults(page);
  await expect(results(page)).toHaveAttribute('data-status', 'error');
  const notice = page.getByTestId('outdated-notice');
  await expect(notice).toContainText('This tab is on an older version of the playground');
  await expect(statusLine(page)).toContainText('older version of the playground');
  // No module URL anywhere the person reads.
  await expect(page.locator('body')).not.toContainText('/assets/');
  await expect(page.locator('body')).not.toContainText('dynamically imported module');

  // The reload gets the new version (here: the chunk is back) and the work is kept.
  await page.context().unrouteAll();
  await notice.getByRole('button', { name: 'Reload' }).click();
  await waitForEditors(page);
  await waitForResults(page);
  await expect(page.getByTestId('outdated-notice')).toHaveCount(0);
  await expect(page.getByLabel('Tokenizer')).toHaveValue('cl100k');
  await expect(statusLine(page)).toHaveText(/^Saved/);
});

// The browser itself logs each 404 as a console error: this test checks the console by hand.
baseTest(
  'the editors’ chunk gone from the server: the same notice, not a bare failure',
  async ({ page }) => {
    const errors = recordConsoleErrors(page);
    await page
      .context()
      .route(/\/assets\/monaco-setup-[^/]+\.(js|css)$/, (route) =>
        route.fulfill({ status: 404, body: 'Not found' }),
      );
    await page.goto('/');
    await expect(page.getByTestId('outdated-notice')).toContainText(
      'This tab is on an older version of the playground',
    );
    await expect(
      page.getByTestId('outdated-notice').getByRole('button', { name: 'Reload' }),
    ).toBeVisible();
    await expect(page.locator('body')).not.toContainText('/assets/');
    expect(errors.filter((text) => !text.startsWith('Failed to load resource'))).toEqual([]);
  },
);
