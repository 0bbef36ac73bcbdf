import { readdirSync, statSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { CORPUS_DIR } from '../../src/test/conformance.ts';
import {
  corpusFile,
  editor,
  expect,
  openPlayground,
  readToolRows,
  showPane,
  test,
  waitForResults,
} from './helpers.ts';

/** The corpus conversation whose events.json is the largest, found by size, not by name. */
function largestConversation(): string {
  const sized = readdirSync(CORPUS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ id: entry.name, size: statSync(corpusFile(entry.name)).size }))
    .sort((a, b) => b.size - a.size);
  return corpusFile(sized[0]?.id ?? '');
}

const CHOICES = ['inherit', 'keep', 'strip', 'strip-requests', 'strip-responses', 'omit'];

function grid(page: Page) {
  return page.getByRole('grid', { name: 'What if: every tool under each hint choice' });
}

/** A tool's request plus response tokens after compaction, as the savings table shows them. */
async function savingsAfter(page: Page, tool: string): Promise<number | undefined> {
  const row = (await readToolRows(page)).find((r) => r.name === tool);
  return row === undefined ? undefined : row.requestAfter + row.responseAfter;
}

/** The tokens-after figure a grid cell announces ("NAME: omit, 1,234 tokens after, …"). */
async function cellAfter(page: Page, tool: string, choice: string): Promise<number> {
  const label =
    (await grid(page)
      .locator(`tr[data-tool="${tool}"] td[data-choice="${choice}"] button`)
      .getAttribute('aria-label')) ?? '';
  const match = /, ([\d,]+) tokens after/.exec(label);
  return Number((match?.[1] ?? 'NaN').replaceAll(',', ''));
}

test('the what-if grid on the largest corpus conversation: six choices, a click edits the TOML, Ctrl+Z undoes it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openPlayground(page);
  await page.getByLabel('Open events.json').setInputFiles(largestConversation());
  await waitForResults(page);
  await showPane(page, 'what-if');
  await grid(page).scrollIntoViewIfNeeded();

  const rows = grid(page).locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(1);
  const perRow = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll('td[data-choice]')].map((td) => td.getAttribute('data-choice')),
    ),
  );
  for (const choices of perRow) expect(choices).toEqual(CHOICES);

  // A tool the config says nothing about: its hint is inherited, and omit changes its figures.
  const config = page.locator('#config-panel .view-lines');
  const before = (await config.textContent()) ?? '';
  const tools = await rows.evaluateAll((trs) =>
    trs
      .filter((tr) => tr.querySelector('td[data-choice="inherit"][data-in-force="true"]'))
      .map((tr) => tr.getAttribute('data-tool') ?? ''),
  );
  let tool = '';
  for (const name of tools) {
    if (before.includes(`[conversation.tools.${name}]`)) continue;
    if ((await cellAfter(page, name, 'omit')) !== (await cellAfter(page, name, 'inherit'))) {
      tool = name;
      break;
    }
  }
  expect(tool, 'a tool whose omit cell differs from inherit').not.toBe('');
  const inheritAfter = await cellAfter(page, tool, 'inherit');
  const omitAfter = await cellAfter(page, tool, 'omit');
  expect(await savingsAfter(page, tool)).toBe(inheritAfter);

  const omit = grid(page).locator(`tr[data-tool="${tool}"] td[data-choice="omit"] button`);
  await omit.click();
  await waitForResults(page);
  // Monaco renders only the lines in view; the new table is at the end of the text.
  await editor(page, 'Config (TOML)').focus();
  await page.keyboard.press('ControlOrMeta+End');
  await expect(config).toContainText(`[conversation.tools.${tool}]`);
  await expect(config).toContainText('compaction = "omit"');
  await expect(omit).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => savingsAfter(page, tool)).toBe(omitAfter);

  await page.keyboard.press('ControlOrMeta+Z');
  await waitForResults(page);
  await expect(config).not.toContainText(`[conversation.tools.${tool}]`);
  await expect(
    grid(page).locator(`tr[data-tool="${tool}"] td[data-choice="inherit"] button`),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => savingsAfter(page, tool)).toBe(inheritAfter);
});
