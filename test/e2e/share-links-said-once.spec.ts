/**
 * Links as a newcomer meets them (issue 24, items 12 and 13): a large file
 * opens without a "too large for a link" toast (the Copy link panel says it,
 * where a link is made), and an imported gallery example is linked by its
 * id and named by its title, not as 5 KB of pasted text.
 */
import type { Browser } from '@playwright/test';
import LZString from 'lz-string';
import {
  expect,
  ORIGIN,
  openPlayground,
  readToolRows,
  test,
  waitForEditors,
  waitForResults,
} from './helpers.ts';

/** Text that does not compress, so a link to it is about as long as it is. */
function noise(length: number, seed: number): string {
  let state = seed;
  let text = '';
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    text += (state >>> 8).toString(36);
  }
  return text.slice(0, length);
}

/** A one-turn JP stream of about `size` characters (over the 100,000 the address bar follows). */
function largeStream(size: number, seed: number): Buffer {
  const at = '2026-03-01 10:00:00.0';
  const events = [
    { timestamp: at, type: 'turn_start' },
    { timestamp: at, type: 'chat_request', content: 'Summarise the log.' },
    { timestamp: at, type: 'chat_response', message: noise(size, seed) },
  ];
  return Buffer.from(JSON.stringify(events));
}

const notifications = (page: import('@playwright/test').Page) =>
  page.getByRole('region', { name: 'Notifications' });

test('opening large files says nothing about links; the Copy link panel says it once', async ({
  page,
}) => {
  await openPlayground(page);
  await expect(page).toHaveURL(/#v2\//);
  const open = page.getByLabel('Open events.json');
  for (const [name, seed] of [
    ['big-1.json', 7],
    ['big-2.json', 11],
  ] as const) {
    await open.setInputFiles({
      name,
      mimeType: 'application/json',
      buffer: largeStream(150_000, seed),
    });
    await waitForResults(page);
    // The address stops following the state (it is too large to rewrite as you type)...
    await expect(page).toHaveURL(`${ORIGIN}/`);
  }
  // ...and only asking for a link says so: the panel renders after any toast would have.
  await page.getByRole('button', { name: 'Copy link' }).click();
  const panel = page.getByRole('dialog', { name: 'Link to this state' });
  await expect(panel).toBeVisible();
  await expect(notifications(page)).not.toContainText(/too large|link/i);
  await expect(panel).toContainText('longer than browsers reliably accept');
  await expect(panel).toContainText('The address bar does not hold this state either');
  await expect(panel.getByRole('button', { name: 'Download playground file' })).toBeVisible();
});

async function freshPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: ORIGIN });
  return { context, page: await context.newPage() };
}

test('an imported gallery example is linked by its id and named by its title', async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page
    .getByRole('dialog', { name: 'Examples' })
    .getByRole('button', { name: /A real Codex CLI rollout/ })
    .click();
  await waitForResults(page);
  const summary = page.getByTestId('import-summary');
  await expect(summary).toContainText(
    'Imported the example “A real Codex CLI rollout, imported” as Codex CLI rollout (JSONL)',
  );
  // The editor now holds the JP events the rollout became; the link still names the example.
  await expect(page).toHaveURL(/#v2\//);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const panel = page.getByRole('dialog', { name: 'Link to this state' });
  const url = await panel.getByRole('textbox', { name: 'Link' }).inputValue();
  await page.keyboard.press('Escape');
  const payload = JSON.parse(
    LZString.decompressFromEncodedURIComponent(url.slice(url.indexOf('#v2/') + 4)) ?? 'null',
  ) as Record<string, unknown>;
  expect(payload.x).toBe('codex-rollout');
  expect(payload).not.toHaveProperty('s');
  expect(url.length).toBeLessThan(200);

  // Opened elsewhere, the link loads that example, imports it and shows the same figures.
  const rows = await readToolRows(page);
  const other = await freshPage(browser);
  await other.page.goto(url);
  await waitForEditors(other.page);
  await waitForResults(other.page);
  await expect(other.page.getByTestId('import-summary')).toContainText(
    'Imported the example “A real Codex CLI rollout, imported”',
  );
  await expect.poll(() => readToolRows(other.page)).toEqual(rows);
  await other.context.close();
});
