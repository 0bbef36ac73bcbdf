/**
 * One way into the pipeline, seen in the page (issue 19): under the rulings
 * and under each alternative of every D17 reading, switched in the readings
 * dialog, the savings table is the CLI's `report`, its total saving is the
 * one the CLI's `export` reports, and the "Hints for Anthropic context
 * editing" dialog shows the CLI's `export --json`: the same snippet and the
 * same replayed figures. The expected side is the CLI run by node on the
 * example's files, never the page's own figures.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { DEFAULT_READINGS, READINGS } from '../../src/core/compaction/readings.ts';
import {
  cliReportRows,
  expect,
  openAdvanced,
  openPlayground,
  readToolRows,
  savingsTable,
  test,
  waitForResults,
} from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The page's default example: this config and this stream. */
const CONFIG_PATH = 'src/examples/coding-session.toml';
const STREAM_PATH = 'src/examples/coding-session.json';
const CONFIG = readFileSync(new URL(`../../${CONFIG_PATH}`, import.meta.url), 'utf8');

/** The fields of `export --json` read here. */
interface CliExport {
  snippet: string;
  saving: { before: { tokens: number }; playground: { total: { tokens: number } } };
  replay: Record<'exported' | 'defaults', { cleared: number; totals: CliReplayTotals }>;
}

interface CliReplayTotals {
  baseline: { prompt_tokens: number };
  saved: { prompt_tokens: number };
}

function cliExport(reading: string | null): CliExport {
  const readingArgs = reading === null ? [] : ['--reading', reading];
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'export',
      '--target',
      'anthropic',
      '--json',
      '--tokenizer',
      'o200k',
      '--config',
      CONFIG_PATH,
      ...readingArgs,
      STREAM_PATH,
    ],
    { cwd: REPO, encoding: 'utf8' },
  );
  return JSON.parse(output) as CliExport;
}

const count = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** The rulings, then each reading's alternative alone: `key=value`, or null for the rulings. */
const CHOICES: { reading: string | null; key: string | null; value: string | null }[] = [
  { reading: null, key: null, value: null },
  ...READINGS.flatMap((info) =>
    info.values
      .filter(({ value }) => value !== DEFAULT_READINGS[info.name])
      .map(({ value }) => ({
        reading: `${info.key}=${value}`,
        key: info.key,
        value: String(value),
      })),
  ),
];

/** Sets the readings dialog to the rulings but `key=value` (none for null), and waits for the figures. */
async function switchReading(page: Page, key: string | null, value: string | null): Promise<void> {
  await openAdvanced(page);
  await page.getByRole('button', { name: /^D17 readings/ }).click();
  const panel = page.getByRole('dialog', { name: 'D17 readings' });
  for (const info of READINGS) {
    const wanted = info.key === key ? value : String(DEFAULT_READINGS[info.name]);
    await panel
      .locator(`fieldset[data-reading="${info.key}"] input[type="radio"][value="${wanted}"]`)
      .check();
  }
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await openAdvanced(page);
  const label = key === null ? 'D17 readings: rulings' : 'D17 readings: 1 changed';
  await expect(page.getByRole('button', { name: label })).toBeVisible();
  await waitForResults(page);
}

/** The savings table's "All counted text" line: tokens before and after. */
async function readTotals(page: Page): Promise<{ before: number; after: number }> {
  const text = await savingsTable(page)
    .locator('xpath=ancestor::section[1]')
    .locator('tfoot tr[data-group="all"] td')
    .first()
    .textContent();
  const [before = '', after = ''] = (text ?? '').split('→').map((part) => part.trim());
  return { before: Number(before.replaceAll(',', '')), after: Number(after.replaceAll(',', '')) };
}

test('under every D17 reading, the savings table, the export dialog and the CLI agree', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openPlayground(page);
  const saved = new Set<number>();
  for (const { reading, key, value } of CHOICES) {
    await test.step(reading ?? 'rulings', async () => {
      await switchReading(page, key, value);
      const readingArgs = reading === null ? [] : [reading];
      expect(await readToolRows(page)).toEqual(
        cliReportRows(CONFIG, STREAM_PATH, 'o200k', readingArgs),
      );
      const cli = cliExport(reading);
      const totals = await readTotals(page);
      expect(totals.before).toBe(cli.saving.before.tokens);
      expect(totals.before - totals.after).toBe(cli.saving.playground.total.tokens);
      saved.add(cli.saving.playground.total.tokens);

      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('button', { name: 'Anthropic context editing' }).click();
      const dialog = page.getByRole('dialog', { name: 'Hints for Anthropic context editing' });
      await expect(dialog.locator('[data-status]')).toHaveAttribute('data-status', 'done');
      await expect(dialog.getByTestId('peer-snippet')).toHaveValue(cli.snippet);
      for (const run of ['exported', 'defaults'] as const) {
        const row = dialog.getByTestId('peer-replay').locator(`tr[data-run="${run}"]`);
        const expected = cli.replay[run];
        await expect(row.locator('[data-figure="cleared"]')).toHaveText(count(expected.cleared));
        await expect(row.locator('[data-figure="prompt-tokens"]')).toHaveText(
          `${count(expected.totals.saved.prompt_tokens)} of ${count(expected.totals.baseline.prompt_tokens)}`,
        );
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });
  }
  // The readings give this example more than one saving, so agreeing under each one says something.
  expect(saved.size).toBeGreaterThan(1);
});
