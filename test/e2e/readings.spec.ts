import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  expect,
  openAdvanced,
  openPlayground,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE_CONFIG = 'src/examples/coding-session.toml';
const EXAMPLE_STREAM = 'src/examples/coding-session.json';

const CORPUS_CONFIG = 'src/examples/corpus-missing-date.toml';
const CORPUS_STREAM = 'src/examples/corpus-missing-date.json';

function cli(args: string[], input?: string): string {
  return execFileSync(process.execPath, ['bin/compaction-playground.mjs', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  });
}

/** Tokens after compaction from the CLI's `report --json`, under the given `--reading`s. */
function cliAfterTokens(
  readings: string[],
  config = EXAMPLE_CONFIG,
  stream = EXAMPLE_STREAM,
): number {
  const args = ['report', '--config', config, '--json'];
  for (const reading of readings) args.push('--reading', reading);
  const output = cli([...args, stream]);
  return (JSON.parse(output) as { totals: { after: { tokens: number } } }).totals.after.tokens;
}

/**
 * The CLI's projected tool events (compact, then project the sanitized
 * stream) under a reading, by type and id: an independent count of the tool
 * events two readings project differently.
 */
function cliProjectedToolEvents(reading: string): Map<string, string> {
  const compacted = cli([
    'compact',
    '--config',
    CORPUS_CONFIG,
    '--reading',
    reading,
    CORPUS_STREAM,
  ]);
  const projected = cli(
    ['project', '--sanitize', '--view', 'stream', '--encoding', 'plain', '--reading', reading, '-'],
    compacted,
  );
  const events = JSON.parse(projected) as { type: string; id?: string }[];
  return new Map(
    events
      .filter((event) => event.type.startsWith('tool_call'))
      .map((event) => [`${event.type}:${event.id}`, JSON.stringify(event)]),
  );
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
  await openAdvanced(page);
  await page.getByRole('button', { name: 'D17 readings: rulings' }).click();
  const panel = page.getByRole('dialog', { name: 'D17 readings' });
  // Focus starts on the first group's checked radio; Tab moves between groups, arrows within.
  // base, the four D17 questions and override-over come before JP today.
  for (let group = 0; group < 6; group++) await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await expect(panel.getByRole('radio', { name: /^JP today/ })).toBeChecked();
  await page.keyboard.press('Escape');
  await waitForResults(page);
  await openAdvanced(page);
  await expect(page.getByRole('button', { name: 'D17 readings: 1 changed' })).toBeVisible();
  await expect(statusLine(page)).toHaveText(/, under D17 readings jp=today\.$/);
  const status = await statusLine(page).textContent();
  expect(status).not.toBe(before);

  const url = await copyLink(page);
  const fresh = await browser.newPage();
  await fresh.goto(url);
  await waitForResults(fresh);
  await openAdvanced(fresh);
  await expect(fresh.getByRole('button', { name: 'D17 readings: 1 changed' })).toBeVisible();
  await expect(statusLine(fresh)).toHaveText(status ?? '');
  await openAdvanced(fresh);
  await fresh.getByRole('button', { name: 'D17 readings: 1 changed' }).click();
  await expect(fresh.getByRole('radio', { name: /^JP today/ })).toBeChecked();
  await fresh.close();
});

test('the Design questions panel shows what each alternative changes, as the CLI counts it', async ({
  page,
}) => {
  // Six CLI runs beside the page, then two diffs: room on a loaded machine.
  test.setTimeout(150_000);
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
  // One caption says which side is which, and it names the two readings (issue 24, mislead 4).
  const diff = page.locator('#pane-diff');
  await expect(diff.getByText(/Left:/)).toHaveCount(1);
  await expect(diff.getByTestId('diff-caption')).toContainText(
    'Left: after compaction under the readings in force. Right: after compaction with jp=today',
  );
  await expect(diff).not.toContainText('no compaction');
  await page.getByRole('button', { name: 'Back to before and after' }).click();
  await waitForResults(page);
  await expect(page.locator('[data-reading-diff]')).toHaveCount(0);
  await expect(diff.getByTestId('diff-caption')).toContainText(
    'Left: what the model would see with no compaction.',
  );
});

test('on the corpus example, the Design questions panel shows what JP today changes, as the CLI counts it', async ({
  page,
}) => {
  // Eight CLI runs beside the page; slow on a loaded machine.
  test.setTimeout(180_000);
  await openPlayground(page);
  await page.getByRole('button', { name: 'Examples' }).click();
  const gallery = page.getByRole('dialog', { name: 'Examples' });
  await gallery.getByRole('button', { name: /A real JP conversation: the missing date/ }).click();
  await expect(gallery).toBeHidden();
  await waitForResults(page);

  const pane = page.locator('#pane-design');
  await pane.getByRole('button', { name: 'Measure every alternative here' }).click();
  await waitForResults(page);
  const ruling = cliAfterTokens([], CORPUS_CONFIG, CORPUS_STREAM);
  const today = cliAfterTokens(['jp=today'], CORPUS_CONFIG, CORPUS_STREAM);
  // JP today ignores the example's hints, so it keeps tokens they would save.
  expect(today - ruling).not.toBe(0);
  const jp = pane.locator('tr[data-reading="jp"]');
  await expect(jp.locator('[data-tokens-delta]')).toHaveAttribute(
    'data-tokens-delta',
    String(today - ruling),
  );
  const d17 = cliProjectedToolEvents('jp=d17');
  const ignored = cliProjectedToolEvents('jp=today');
  const differing = [...new Set([...d17.keys(), ...ignored.keys()])].filter(
    (key) => d17.get(key) !== ignored.get(key),
  ).length;
  expect(differing).toBeGreaterThan(0);
  await expect(jp.locator('[data-events-affected]')).toHaveAttribute(
    'data-events-affected',
    String(differing),
  );
  for (const [key, value] of [
    ['no-tool-calls', 'apply'],
    ['stacking', 'per-tool'],
    ['star', 'configured-only'],
    ['summary-over-keep', 'keep-survives'],
  ] as const) {
    await expect(
      pane.locator(`tr[data-reading="${key}"] [data-tokens-delta]`),
      key,
    ).toHaveAttribute(
      'data-tokens-delta',
      String(cliAfterTokens([`${key}=${value}`], CORPUS_CONFIG, CORPUS_STREAM) - ruling),
    );
  }
});
