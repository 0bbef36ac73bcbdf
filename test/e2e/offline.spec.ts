/**
 * Offline for real: once the page has been opened, its service worker has
 * precached the build, and the page opens and computes with the network off.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  cliReportRows,
  expect,
  readToolRows,
  savingsTable,
  test,
  waitForEditors,
  waitForResults,
} from './helpers.ts';

const EXAMPLES = fileURLToPath(new URL('../../src/examples/', import.meta.url));

// As a person's browser: the service worker may run (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });
// Precaching the whole build (about 8 MB) takes a while on a loaded machine.
test.describe.configure({ timeout: 180_000 });

test('reloads with the network off and shows the default example’s figures', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await waitForResults(page);
  // Active means installed, and installing is precaching every built file.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');

  await context.setOffline(true);
  const fromNetwork: string[] = [];
  page.on('response', (response) => {
    if (!response.fromServiceWorker() && !response.url().startsWith('data:'))
      fromNetwork.push(response.url());
  });
  await page.reload();
  await waitForResults(page);
  await waitForEditors(page);
  // The default example (coding-session), counted by the CLI on the same files.
  const expected = cliReportRows(
    readFileSync(`${EXAMPLES}coding-session.toml`, 'utf8'),
    `${EXAMPLES}coding-session.json`,
  );
  await expect(savingsTable(page)).toBeVisible();
  expect(await readToolRows(page)).toEqual(expected);
  // Everything the reload loaded came from the service worker's cache.
  // (navigator.onLine is no proof: after the reload it can read true while
  // Chromium refuses every request.)
  expect(fromNetwork, 'responses not served by the service worker').toEqual([]);
});

test('has an installable web app manifest from its own origin', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const manifest = await (await request.get(new URL(href as string, page.url()).href)).json();
  expect(manifest).toMatchObject({ name: 'Compaction Playground', display: 'standalone' });
  const sizes = (manifest.icons as { sizes: string }[]).map((icon) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
});

test('says when a new build is deployed, and reloads into it when asked', async ({ page }) => {
  await page.goto('/');
  await waitForResults(page);
  await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);

  // A new deployment: the served service worker changes (the preview server serves dist/).
  const sw = fileURLToPath(new URL('../../dist/sw.js', import.meta.url));
  const original = readFileSync(sw, 'utf8');
  try {
    writeFileSync(sw, `${original}\n// the next build\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    const notice = page.getByTestId('update-notice');
    await expect(notice).toContainText('A new version of the playground is available.');
    await Promise.all([
      page.waitForEvent('framenavigated'),
      notice.getByRole('button', { name: 'Reload' }).click(),
    ]);
    await waitForResults(page);
    await expect(page.getByTestId('update-notice')).toHaveCount(0);
  } finally {
    writeFileSync(sw, original);
  }
});
