/**
 * Autosave that loses nothing: each tab its own slot, large streams kept in
 * IndexedDB, the last good save never dropped first, and an offer to
 * restore the work a link replaces. Every wait is on the page's state
 * (`data-autosaved-at` on the restore host, `aria-busy` on the results).
 */

import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  expect,
  ORIGIN,
  openPlayground,
  recordConsoleErrors,
  test,
  waitForEditors,
  waitForResults,
} from './helpers.ts';

const PINNED = JSON.parse(
  readFileSync(new URL('../../src/test/fixtures/share-links/app-v1.json', import.meta.url), 'utf8'),
) as { links: { name: string; hash: string }[] };

/**
 * A valid stream of one turn whose request starts with `marker` and is
 * `chars` long in all, written on one line: the marker is then in the
 * editor's first line, which is in view whatever the editor's height.
 */
function streamOf(marker: string, chars: number): string {
  const head = [
    { timestamp: '2025-07-01 09:00:00.0', type: 'turn_start' },
    { timestamp: '2025-07-01 09:00:01.0', type: 'chat_request', content: '' },
  ];
  const bare = JSON.stringify(head).length;
  const filler = 'fake text '.repeat(Math.ceil(chars / 10)).slice(0, chars - bare - marker.length);
  head[1] = { ...head[1], content: `${marker}${filler}` } as (typeof head)[1];
  return JSON.stringify(head);
}

// Streams of MB through Monaco and IndexedDB on a shared machine: room, not a speed claim.
test.describe.configure({ timeout: 240_000 });

const host = (page: Page) => page.locator('.restore-host');
const streamLines = (page: Page) => page.locator('.drop-zone .view-lines');

/** The time of the last finished autosave, '' before the first. */
async function savedAt(page: Page): Promise<string> {
  return (await host(page).getAttribute('data-autosaved-at')) ?? '';
}

/** Waits for an autosave newer than `after` to finish. */
async function waitForSave(page: Page, after: string): Promise<void> {
  await expect(host(page)).not.toHaveAttribute('data-autosaved-at', after);
  await expect(host(page)).not.toHaveAttribute('data-autosaved-at', '');
}

/** Opens a stream through the file input, as a person picking a file does. */
async function openStream(page: Page, name: string, text: string): Promise<void> {
  const before = await savedAt(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await waitForResults(page);
  await waitForSave(page, before);
}

test('two tabs with large streams: reloading tab A shows tab A’s work', async ({ page }) => {
  await openPlayground(page);
  await openStream(page, 'a.json', streamOf('tab-A-work ', 150_000));

  const other = await page.context().newPage();
  const errors = recordConsoleErrors(other);
  await other.goto(ORIGIN);
  await waitForEditors(other);
  await waitForResults(other);
  await openStream(other, 'b.json', streamOf('tab-B-work ', 150_000));

  await page.reload();
  await waitForEditors(page);
  await waitForResults(page);
  await expect(streamLines(page)).toContainText('tab-A-work');
  await expect(streamLines(page)).not.toContainText('tab-B-work');

  await other.reload();
  await waitForEditors(other);
  await waitForResults(other);
  await expect(streamLines(other)).toContainText('tab-B-work');
  await other.close();
  expect(errors, 'console errors in the second tab').toEqual([]);
});

test('a shared link over edited work offers to restore it', async ({ page }) => {
  await openPlayground(page);
  await openStream(page, 'mine.json', streamOf('my-own-work ', 2_000));
  const link = PINNED.links.find(
    (item) => item.name === 'another example with every setting changed',
  );
  if (!link) throw new Error('the pinned links changed');
  await page.goto(`${ORIGIN}/${link.hash}`);
  await waitForEditors(page);
  await waitForResults(page);
  await expect(streamLines(page)).not.toContainText('my-own-work');
  await page.getByRole('button', { name: 'Restore previous work' }).click();
  await waitForResults(page);
  await expect(streamLines(page)).toContainText('my-own-work');
  await expect(page.getByRole('button', { name: 'Restore previous work' })).toHaveCount(0);
});

test('a reload and a new tab offer no Restore: nothing was replaced', async ({ page }) => {
  await openPlayground(page);
  await openStream(page, 'mine.json', streamOf('kept-across-reloads ', 2_000));
  await page.reload();
  await waitForEditors(page);
  await waitForResults(page);
  await expect(streamLines(page)).toContainText('kept-across-reloads');
  const other = await page.context().newPage();
  await other.goto(ORIGIN);
  await waitForEditors(other);
  await waitForResults(other);
  await expect(streamLines(other)).toContainText('kept-across-reloads');
  for (const tab of [page, other]) {
    await expect(tab.getByRole('button', { name: 'Restore previous work' })).toHaveCount(0);
  }
  await other.close();
});

test('work an earlier version saved (no saved-work mark) opens in a new tab, after the default example', async ({
  page,
}) => {
  await openPlayground(page);
  await openStream(page, 'mine.json', streamOf('saved-before-the-mark ', 2_000));
  // A build before the mark wrote the same IndexedDB slot and nothing in localStorage.
  await page.evaluate(() => localStorage.removeItem('compaction-playground:saved-work'));
  const other = await page.context().newPage();
  await other.goto(ORIGIN);
  await waitForEditors(other);
  await waitForResults(other);
  await expect(streamLines(other)).toContainText('saved-before-the-mark');
  await expect(other.getByRole('button', { name: 'Restore previous work' })).toHaveCount(0);
  await other.close();
});

test('a duplicated tab (window.open of the address) takes its own slot: both tabs keep their work', async ({
  page,
}) => {
  await openPlayground(page);
  await openStream(page, 'first.json', streamOf('first-tab-work ', 2_000));
  const [copy] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate(() => window.open(window.location.href)),
  ]);
  await waitForEditors(copy);
  await waitForResults(copy);
  const tabId = (tab: Page) =>
    tab.evaluate(() => sessionStorage.getItem('compaction-playground:tab'));
  // The copy's session started as a copy of the first tab's, id included.
  await expect.poll(() => tabId(copy)).not.toBe(null);
  expect(await tabId(copy)).not.toBe(await tabId(page));
  await openStream(copy, 'copy.json', streamOf('copied-tab-work ', 2_000));
  await page.reload();
  await waitForEditors(page);
  await waitForResults(page);
  await expect(streamLines(page)).toContainText('first-tab-work');
  await copy.reload();
  await waitForEditors(copy);
  await waitForResults(copy);
  await expect(streamLines(copy)).toContainText('copied-tab-work');
  await copy.close();
});

test('a shared link opened in a fresh load over saved work keeps it in Recent work, one click away', async ({
  page,
}) => {
  await openPlayground(page);
  await openStream(page, 'mine.json', streamOf('saved-before-the-link ', 2_000));
  const link = PINNED.links.find(
    (item) => item.name === 'another example with every setting changed',
  );
  if (!link) throw new Error('the pinned links changed');
  // The tab with the work is closed; the link opens in a new one, as from a chat message.
  const context = page.context();
  await page.close();
  const fresh = await context.newPage();
  const errors = recordConsoleErrors(fresh);
  await fresh.goto(`${ORIGIN}/${link.hash}`);
  await waitForEditors(fresh);
  await waitForResults(fresh);
  await expect(streamLines(fresh)).not.toContainText('saved-before-the-link');
  // Nothing in this tab was replaced: no offer; the closed tab's work is in Recent work.
  await expect(fresh.getByRole('button', { name: 'Restore previous work' })).toHaveCount(0);
  await fresh.getByRole('button', { name: 'File', exact: true }).click();
  const recent = fresh.getByRole('region', { name: 'Recent work in this browser' });
  await recent.getByRole('button', { name: /a stream of 2,000 characters/ }).click();
  await waitForResults(fresh);
  await expect(streamLines(fresh)).toContainText('saved-before-the-link');
  expect(errors, 'console errors in the fresh tab').toEqual([]);
});

test('a 5M-character stream is autosaved, survives a reload, and the save before it is kept', async ({
  page,
}) => {
  await openPlayground(page);
  await openStream(page, 'small.json', streamOf('the-save-before ', 3_000));
  await openStream(page, 'large.json', streamOf('five-million ', 5_000_000));
  await expect(host(page)).toHaveAttribute('data-autosave', 'on');

  await page.reload();
  // Monaco takes a 5M-character model in after the reload: longer than the default wait when busy.
  await expect(page.locator('#editors .monaco-editor')).toHaveCount(2, { timeout: 90_000 });
  await waitForEditors(page);
  await waitForResults(page);
  await expect(streamLines(page)).toContainText('five-million');

  // The state before it is still in this tab's history.
  const history = await page.evaluate(async () => {
    const request = indexedDB.open('compaction-playground');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tab = sessionStorage.getItem('compaction-playground:tab') ?? '';
    const read = db
      .transaction('autosave')
      .objectStore('autosave')
      .get(`compaction-playground:slot:${tab}`);
    const slot = await new Promise<{ entries: { text: string }[] }>((resolve, reject) => {
      read.onsuccess = () => resolve(read.result);
      read.onerror = () => reject(read.error);
    });
    db.close();
    return slot.entries.map((entry) => entry.text.includes('the-save-before'));
  });
  expect(history).toContain(true);
});
