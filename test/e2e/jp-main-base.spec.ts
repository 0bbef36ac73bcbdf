import type { Page } from '@playwright/test';
import {
  expect,
  openAdvanced,
  openPlayground,
  setEditorText,
  showPane,
  statusLine,
  test,
  toolRow,
  waitForResults,
} from './helpers.ts';

/**
 * Issue 23: the reading base. A stored compaction strips responses over
 * 1KB; the stream has a 4,096-byte and an 812-byte fs_read_file response.
 * Under JP main (2026-09, the default) only the large one is stripped; under
 * JP 4c1c39f1 (2026-08) `over` is an unknown key and both are (15.1).
 */
const T = '2026-09-01 00:00:00.0';
const STREAM = JSON.stringify(
  [
    { type: 'turn_start', timestamp: T },
    { type: 'chat_request', timestamp: T, content: 'read both' },
    { type: 'tool_call_request', timestamp: T, id: 'a', name: 'fs_read_file', arguments: {} },
    {
      type: 'tool_call_response',
      timestamp: T,
      id: 'a',
      content: 'big '.repeat(1024),
      is_error: false,
    },
    { type: 'tool_call_request', timestamp: T, id: 'b', name: 'fs_read_file', arguments: {} },
    {
      type: 'tool_call_response',
      timestamp: T,
      id: 'b',
      content: 'x'.repeat(812),
      is_error: false,
    },
    {
      type: 'compaction',
      timestamp: '2026-09-01 01:00:00.0',
      from_turn: 0,
      to_turn: 0,
      tool_calls: { policy: 'strip', request: false, response: true, over: '1KB' },
    },
  ],
  null,
  2,
);
// A rule whose range is empty: only the stored compaction acts.
const CONFIG =
  '[[conversation.compaction.rules]]\nkeep_first = 100\nkeep_last = 0\nreasoning = "strip"\n';

async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const panel = page.getByRole('dialog', { name: 'Link to this state' });
  const url = await panel.getByRole('textbox', { name: 'Link' }).inputValue();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  return url;
}

/** The explanation of the 812-byte response (id b), from the Explain pane's list. */
async function explainSmallResponse(page: Page): Promise<string> {
  // The explain pane is an extra: it is computed once it is in view.
  await showPane(page, 'explain');
  const explain = page.locator('#pane-explain');
  const list = explain.getByRole('listbox', { name: 'Events' });
  // The explanations of the latest input, not the older ones hidden while they compute.
  await expect(explain.locator('.deferred-pane[data-current="true"]')).toBeAttached();
  if (!(await list.isVisible())) await explain.getByRole('button', { name: 'All events' }).click();
  await list
    .getByRole('option')
    .filter({ hasText: 'tool_call_response' })
    .filter({ hasText: 'id b' })
    .click();
  return (await explain.getByRole('article').textContent()) ?? '';
}

test('switching base re-reads the stream: the table, the explain pane and the link follow', async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', CONFIG);
  await setEditorText(page, 'Event stream (JSON)', STREAM);
  await waitForResults(page);

  const row = toolRow(page, 'fs_read_file');
  const mainRow = await row.textContent();
  const mainStatus = await statusLine(page).textContent();
  expect(await explainSmallResponse(page)).toContain('kept: 812 B is not over 1 KB');
  // The default base is not stored in the link.
  const mainLink = await copyLink(page);

  await openAdvanced(page);
  await page.getByRole('button', { name: /^D17 readings/ }).click();
  const panel = page.getByRole('dialog', { name: 'D17 readings' });
  await panel.getByRole('radio', { name: /^JP 4c1c39f1 \(2026-08\)/ }).check();
  await page.keyboard.press('Escape');
  await waitForResults(page);
  await expect(statusLine(page)).not.toHaveText(mainStatus ?? '');
  await expect(statusLine(page)).toHaveText(/under D17 readings base=2026-08\.$/);
  // Both responses are stripped now: the row's figures change.
  await expect(row).not.toHaveText(mainRow ?? '');
  const pinned = await explainSmallResponse(page);
  expect(pinned).not.toContain('is not over');
  expect(pinned).toContain('status line');

  const pinnedLink = await copyLink(page);
  expect(pinnedLink).not.toBe(mainLink);
  const fresh = await browser.newPage();
  await fresh.goto(pinnedLink);
  await waitForResults(fresh);
  await expect(statusLine(fresh)).toHaveText(/under D17 readings base=2026-08\.$/);
  await openAdvanced(fresh);
  await fresh.getByRole('button', { name: /^D17 readings/ }).click();
  await expect(fresh.getByRole('radio', { name: /^JP 4c1c39f1 \(2026-08\)/ })).toBeChecked();
  await fresh.close();

  const again = await browser.newPage();
  await again.goto(mainLink);
  await waitForResults(again);
  await expect(statusLine(again)).toHaveText(mainStatus ?? '');
  await again.close();
});
