import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, openPlayground, statusLine, test, waitForResults } from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE_CONFIG = 'src/examples/coding-session.toml';
const EXAMPLE_STREAM = 'src/examples/coding-session.json';

/** Tokens after compaction from the CLI's `report --json`, under the given `--reading`s. */
function cliAfterTokens(readings: string[]): number {
  const args = ['bin/compaction-playground.mjs', 'report', '--config', EXAMPLE_CONFIG, '--json'];
  for (const reading of readings) args.push('--reading', reading);
  const output = execFileSync(process.execPath, [...args, EXAMPLE_STREAM], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return (JSON.parse(output) as { totals: { after: { tokens: number } } }).totals.after.tokens;
}

async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const panel = page.getByRole('dialog', { name: 'Link to this state' });
  const url = await panel.getByRole('textbox', { name: 'Link' }).inputValue();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  return url;
}

test('a D17 reading switched by keyboard changes the figures, and a link carries it', async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  const before = await statusLine(page).textContent();
  await page.getByRole('button', { name: 'D17 readings: rulings' }).click();
  const panel = page.getByRole('dialog', { name: 'D17 readings' });
  // Focus starts on the first group's checked radio; Tab moves between groups, arrows within.
  for (let group = 0; group < 4; group++) await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await expect(panel.getByRole('radio', { name: /^JP today/ })).toBeChecked();
  await page.keyboard.press('Escape');
  await waitForResults(page);
  await expect(page.getByRole('button', { name: 'D17 readings: 1 changed' })).toBeVisible();
  await expect(statusLine(page)).toHaveText(/, under D17 readings jp=today\.$/);
  const status = await statusLine(page).textContent();
  expect(status).not.toBe(before);

  const url = await copyLink(page);
  const fresh = await browser.newPage();
  await fresh.goto(url);
  await waitForResults(fresh);
  await expect(fresh.getByRole('button', { name: 'D17 readings: 1 changed' })).toBeVisible();
  await expect(statusLine(fresh)).toHaveText(status ?? '');
  await fresh.getByRole('button', { name: 'D17 readings: 1 changed' }).click();
  await expect(fresh.getByRole('radio', { name: /^JP today/ })).toBeChecked();
  await fresh.close();
});

test('the Design questions panel shows what each alternative changes, as the CLI counts it', async ({
  page,
}) => {
  await openPlayground(page);
  const pane = page.locator('#pane-design');
  await pane.getByRole('button', { name: 'Measure every alternative here' }).click();
  await waitForResults(page);
  const ruling = cliAfterTokens([]);
  for (const [key, value] of [
    ['no-tool-calls', 'apply'],
    ['stacking', 'per-tool'],
    ['star', 'configured-only'],
    ['summary-over-keep', 'keep-survives'],
    ['jp', 'today'],
  ] as const) {
    const delta = pane.locator(`tr[data-reading="${key}"] [data-tokens-delta]`);
    await expect(delta, key).toHaveAttribute(
      'data-tokens-delta',
      String(cliAfterTokens([`${key}=${value}`]) - ruling),
    );
  }
  // JP today drops the example's hints: its diff shows the hinted tools change.
  const jp = pane.locator('tr[data-reading="jp"]');
  await jp.getByRole('button', { name: 'Show the diff' }).click();
  await waitForResults(page);
  await expect(page.locator('[data-reading-diff="jp=today"]')).toBeVisible();
  await page.getByRole('button', { name: 'Back to before and after' }).click();
  await waitForResults(page);
  await expect(page.locator('[data-reading-diff]')).toHaveCount(0);
});
