/**
 * The playground's promises, in the browser against the production build:
 * examples, hint edits reaching the table and the diff, the same figures as
 * the CLI on a real conversation, tokenizers, frozen-at-creation compactions,
 * and the links between the table, the diff and the explanations. Every test
 * also checks, through the helpers' fixture, that no request leaves the
 * origin and the console shows no error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  cliReportRows,
  corpusFile,
  editor,
  expect,
  openAdvanced,
  openPlayground,
  README_CONFIG_TOML,
  type RowFigures,
  readToolRows,
  savingsTable,
  setEditorText,
  showPane,
  statusLine,
  test,
  toolRow,
  waitForDiff,
  waitForResults,
} from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS_FILE = corpusFile('17738500500-jp-cli-cold-start-workflow-issues');
/** The README's hints: a strip rule, and two tools hinted otherwise. */
const HINTS = README_CONFIG_TOML;

/** The rows in the table's default order (by name, `(unknown)` last), like the CLI's. */
async function tableRows(page: Page): Promise<RowFigures[]> {
  return readToolRows(page);
}

/** The diff's summary of what it found, e.g. "7 changes", once it has compared. */
async function diffSummary(page: Page): Promise<string> {
  await waitForDiff(page);
  return (await page.locator('#pane-diff .cp-status').textContent()) ?? '';
}

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('opens on the default example, and loads another from the gallery', async ({ page }) => {
  // The first visit shows the coding session: its tools are in the table.
  await expect(toolRow(page, 'fs_read_file')).toBeVisible();
  await expect(toolRow(page, 'build_watch')).toBeVisible();

  const trigger = page.getByRole('button', { name: 'Examples' });
  await trigger.click();
  const gallery = page.getByRole('dialog', { name: 'Examples' });
  const items = gallery.getByRole('listitem');
  await expect(items.first()).toBeVisible();
  expect(await items.count()).toBeGreaterThanOrEqual(8);
  // Each example says in a sentence what it shows.
  for (const sentence of await items.locator('.cp-secondary:not(.cp-credit)').allTextContents()) {
    expect(sentence).toMatch(/^\S.{40,}\.$/);
  }
  const omit = gallery.getByRole('button', { name: /omit: remove a noisy tool/ });
  await expect(omit).toContainText('heartbeat');
  await omit.click();
  await expect(gallery).toBeHidden();
  await expect(trigger).toBeFocused();

  await waitForResults(page);
  await expect(savingsTable(page).locator('tbody th')).toHaveText([
    'heartbeat',
    'job_start',
    'job_status',
  ]);
  await expect(toolRow(page, 'heartbeat').locator('td').last()).toHaveText('omit own hint');
  // Loading an example leaves the focus where the dialog returned it, not in an editor.
  await expect(trigger).toBeFocused();
  await expect(editor(page, 'Config (TOML)')).not.toBeFocused();
  await expect(page.locator('#editors .view-lines').first()).toContainText('heartbeat');
});

test('a hint typed into the config changes its row and the diff', async ({ page }) => {
  const row = toolRow(page, 'run_tests');
  await expect(row.locator('td').last()).toHaveText("rule's tool_calls");
  const savedBefore = await row.locator('td').nth(3).textContent();
  const changesBefore = await diffSummary(page);

  const config = editor(page, 'Config (TOML)');
  await config.focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('\n[conversation.tools.run_tests]\ncompaction = "keep"\n');
  await waitForResults(page);

  await expect(row.locator('td').last()).toHaveText('keep own hint');
  await expect(row.locator('td').nth(3)).not.toHaveText(savedBefore ?? '');
  // keep: nothing of run_tests is saved any more.
  await expect(row.locator('td').nth(3).locator('span').first()).toHaveText('0');
  expect(await diffSummary(page)).not.toBe(changesBefore);
});

test("an opened events.json gives the CLI's figures, with either tokenizer", async ({ page }) => {
  await setEditorText(page, 'Config (TOML)', HINTS);
  await page.getByLabel('Open events.json').setInputFiles(CORPUS_FILE);
  await waitForResults(page);
  await expect(page.locator('#editors').getByText('events.json', { exact: true })).toBeVisible();

  const o200k = await tableRows(page);
  expect(o200k.length).toBeGreaterThan(3);
  expect(o200k).toEqual(cliReportRows(HINTS, CORPUS_FILE));

  await page.getByLabel('Tokenizer').selectOption('cl100k');
  await waitForResults(page);
  await expect(page.getByText(/Tokens: cl100k_base/)).toBeVisible();
  const cl100k = await tableRows(page);
  expect(cl100k).not.toEqual(o200k);
  expect(cl100k).toEqual(cliReportRows(HINTS, CORPUS_FILE, 'cl100k'));
});

test('after Compact, a hint edit changes the preview and not the frozen compaction', async ({
  page,
}) => {
  await showPane(page, 'timeline');
  const timeline = page.locator('#pane-timeline');
  const stored = timeline.locator('.cp-event-stored');
  const previewed = timeline.locator('.cp-event-new');
  await expect(stored).toHaveCount(0);
  await expect(previewed).toHaveCount(1);
  await expect(previewed.locator('.cp-overrides')).toContainText('fs_read_file: strip-responses');

  await openAdvanced(page);
  await page.getByRole('button', { name: 'Compact', exact: true }).click();
  await waitForResults(page);
  await expect(stored).toHaveCount(1);
  const frozen = stored.locator('.cp-overrides');
  await expect(frozen).toContainText('fs_read_file: strip-responses');
  const frozenText = await frozen.textContent();

  // The rule still covers turns 2..4, so a newer compaction is previewed over them.
  await expect(previewed).toHaveCount(1);
  // The same config with one hint changed.
  const config = readFileSync(join(REPO, 'src/examples/coding-session.toml'), 'utf8');
  const edited = config.replace('compaction = "strip-responses"', 'compaction = "keep"');
  expect(edited).not.toBe(config);
  await setEditorText(page, 'Config (TOML)', edited);
  await waitForResults(page);
  await expect(previewed.locator('.cp-overrides')).toContainText('fs_read_file: keep');
  await expect(frozen).toHaveText(frozenText ?? '');
  await expect(frozen).not.toContainText('fs_read_file: keep');
});

test('selecting a row filters the diff to that tool', async ({ page }) => {
  await showPane(page, 'diff');
  const filter = page.locator('#pane-diff').getByLabel('Filter by tool');
  await expect(filter).toHaveValue('');
  const all = await diffSummary(page);

  const row = toolRow(page, 'fs_modify_file');
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(filter).toHaveValue('fs_modify_file');
  const filtered = await diffSummary(page);
  expect(filtered).not.toBe(all);
  const modified = page.locator('#pane-diff .editor.modified .view-lines');
  await expect(modified).toContainText('fs_modify_file');
  await expect(modified).not.toContainText('chat_request');

  // Enter on the selected row clears the selection, and the filter with it.
  await row.press('Enter');
  await expect(filter).toHaveValue('');
});

test('stripped reasoning is labelled as reasoning, in the diff and in the explanations', async ({
  page,
}) => {
  // coding-session.json, by hand: reasoning on turns 1..3, a message on each
  // of the five turns; reasoning = "strip" covers turns 2..4.
  await waitForDiff(page);
  const original = page.locator('#pane-diff .editor.original .view-lines');
  await expect(original).toContainText(/##\s+chat_response\s+·\s+reasoning/);
  const options = page
    .locator('#pane-explain')
    .getByRole('listbox', { name: 'Events' })
    .getByRole('option');
  const reasoning = options.filter({ hasText: 'chat_response · reasoning' });
  await expect(reasoning).toHaveCount(3);
  await expect(reasoning.filter({ hasText: 'Reasoning stripped' })).toHaveCount(2);
  const messages = options.filter({ hasText: 'chat_response · message' });
  await expect(messages).toHaveCount(5);
  await expect(messages.filter({ hasText: 'stripped' })).toHaveCount(0);
  await reasoning.filter({ hasText: 'Reasoning stripped' }).first().click();
  await expect(page.locator('#pane-explain').getByRole('article')).toContainText(
    'chat_response · reasoning',
  );
});

test('selecting an event explains it, from the list or from the diff', async ({ page }) => {
  // The pane computes only in view: on a slow machine it can still be a screen away.
  await showPane(page, 'explain');
  const explain = page.locator('#pane-explain');
  const list = explain.getByRole('listbox', { name: 'Events' });
  await list
    .getByRole('option')
    .filter({ hasText: 'tool_call_request · fs_modify_file · id call_003' })
    .click();
  const article = explain.getByRole('article');
  await expect(article).toContainText('Stripped');
  await expect(article).toContainText('Turn');
  await expect(article).toContainText("that compaction's tool_overrides");
  await expect(article).toContainText(
    'strip-requests: the arguments become {}; the response is kept',
  );
  await explain.getByRole('button', { name: 'All events' }).click();
  await expect(list).toBeVisible();

  // A click on a line of the diff's right side selects that line's event.
  await toolRow(page, 'run_tests').click();
  await waitForDiff(page);
  const header = page
    .locator('#pane-diff .editor.modified .view-line')
    // A header line, maybe wrapped; Monaco renders spaces as no-break spaces, which \s matches.
    .filter({ hasText: /^##\s+tool_call_request\s/ })
    .first();
  await header.click();
  await expect(article).toContainText('tool_call_request · run_tests');
  await expect(article).toContainText("that compaction's tool_calls");
  await expect(article).toContainText('strip: the arguments become {}');
});

test('the results stay readable while a run is pending, and are announced politely', async ({
  page,
}) => {
  const status = statusLine(page);
  await expect(status).toHaveAttribute('aria-live', 'polite');
  const before = await status.textContent();
  await setEditorText(page, 'Config (TOML)', '[[conversation.compaction.rules]\n');
  await waitForResults(page);
  // Broken TOML: the last good figures stay, marked stale, with the problem beside them.
  await expect(status).toContainText('with the last valid input');
  await expect(status).toContainText(before?.replace(/\.$/, '') ?? '');
  await expect(page.locator('#results')).toHaveAttribute('data-stale', 'true');
  await expect(page.getByText('Last valid results')).toBeVisible();
  await expect(toolRow(page, 'fs_read_file')).toBeVisible();
});

test('an extra of the last valid input is hidden, not shown as current, and keeps its place', async ({
  page,
}) => {
  await waitForDiff(page);
  const pane = page.locator('#pane-diff');
  const heightOf = () => pane.evaluate((element) => element.getBoundingClientRect().height);
  const before = await heightOf();
  await setEditorText(page, 'Config (TOML)', '[[conversation.compaction.rules]\n');
  await waitForResults(page);
  await expect(pane.getByText('The input has errors: fix them to see this pane.')).toBeVisible();
  // Still mounted (a Monaco diff is not rebuilt for every edit), but out of sight and reach.
  const older = pane.locator('.deferred-pane');
  await expect(older).toHaveAttribute('aria-hidden', 'true');
  await expect(older.locator('.monaco-diff-editor')).toBeAttached();
  await expect(older.locator('.monaco-diff-editor')).toBeHidden();
  // The page below does not jump: the pane is as tall as before, plus the message's line.
  const message = await pane
    .getByText('The input has errors')
    .evaluate((element) => element.getBoundingClientRect().height);
  expect(Math.abs((await heightOf()) - before - message)).toBeLessThan(40);
  await setEditorText(page, 'Config (TOML)', README_CONFIG_TOML);
  await waitForDiff(page);
  await expect(older.locator('.monaco-diff-editor')).toBeVisible();
});
