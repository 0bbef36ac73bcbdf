/**
 * What a first-time user meets, as they see it: a zero saving says why (in
 * Problems and in the headline), Compact confirms what it appended and does
 * not stack an identical compaction, and the page fits a phone's width.
 */
import { join } from 'node:path';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import {
  applyQuickFix,
  corpusFile,
  editor,
  expect,
  openAdvanced,
  openPlayground,
  results,
  savingsTable,
  setEditorText,
  showPane,
  statusLine,
  test,
  toolRow,
  waitForDiff,
  waitForResults,
} from './helpers.ts';
import { openCorpusFolder, waitForWorkspace } from './workspace-helpers.ts';

/** A conversation of one turn: obviously fake, and too short for any rule. */
const ONE_TURN = JSON.stringify([
  { timestamp: '2025-07-01 09:00:00.0', type: 'turn_start' },
  { timestamp: '2025-07-01 09:00:01.0', type: 'chat_request', content: 'Say hello.' },
  { timestamp: '2025-07-01 09:00:02.0', type: 'chat_response', message: 'Hello.' },
]);

test('a zero saving says why, in Problems and in the headline', async ({ page }) => {
  await openPlayground(page);
  await setEditorText(page, 'Event stream (JSON)', ONE_TURN);
  await waitForResults(page);

  // Spec 6: keep_first 1 and keep_last 1 leave nothing of a single turn.
  const reason = /Rule 1 compacts nothing on this stream/;
  await expect(statusLine(page)).toContainText('Saved 0 tokens');
  await expect(statusLine(page)).toContainText(reason);

  const problems = page.getByRole('region', { name: /Problems/ });
  const item = problems.getByRole('listitem').filter({ hasText: reason });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('warning');
  await expect(problems.getByRole('heading')).not.toContainText('0');
});

test('the headline says what its saving is out of: the next request, not the session (issue 24)', async ({
  page,
}) => {
  await openPlayground(page);
  // The CLI's `report` on the default example: all (tokens) 2,457 → 786, saved 1,671 (68.0%).
  await expect(statusLine(page)).toHaveText(
    'Saved 1,671 tokens (68.0%) of the 2,457 tokens the next request would carry.',
  );
  await expect(results(page).getByTestId('headline-scope')).toContainText(
    'the cost over the session',
  );
});

test('a one-turn Claude Code session says where JP saves nothing and why, and its quick fix saves (issue 24)', async ({
  page,
}) => {
  await openPlayground(page);
  // One user prompt, 19 tool calls (counted with jq: src/test/fixtures/agent-transcripts.ts).
  await page
    .getByLabel('Open events.json')
    .setInputFiles(
      join(SHARED_DIR, 'corpus', 'agent-transcripts', 'claude-code', 'toolpath__convo.jsonl'),
    );
  await expect(page.getByTestId('import-summary')).toContainText('toolpath__convo.jsonl');
  await waitForResults(page);
  const why =
    "JP compacts whole turns; this session has 1 turn holding 19 tool calls, so JP's rule saves nothing until the turn ends. Your runtime clears within the turn.";
  await expect(statusLine(page)).toContainText('Saved 0 tokens');
  await expect(statusLine(page)).toContainText(why);
  await expect(page.locator('.problems li[data-severity="warning"]')).toContainText(why);

  // The opened file's config keeps the first turn (line 5: keep_first = 1), which is all of it.
  await applyQuickFix(
    page,
    5,
    14,
    'Set keep_first = 0 and keep_last = 0 (the turn in progress is compacted too)',
  );
  await waitForResults(page);
  await expect(statusLine(page)).toHaveText(/^Saved [1-9]/);
  await expect(statusLine(page)).not.toContainText('JP compacts whole turns');
});

test('Compact says what it appended, and a second click stacks nothing identical', async ({
  page,
}) => {
  await openPlayground(page);
  await openAdvanced(page);
  const compact = page.getByRole('button', { name: 'Compact', exact: true });
  await expect(compact).toBeEnabled();
  await compact.click();

  // The default example's rule covers turns 2..4 of five; the stream held none.
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText(/^Appended/),
  ).toHaveText('Appended 1 compaction over turns 2..4; the stream now holds 1 stored compaction.');
  await waitForResults(page);
  // The same rule over the same turns would add an identical compaction.
  await expect(compact).toBeDisabled();
  await expect(compact).toHaveAttribute('title', /Nothing new to compact/);
  // The reason is visible text beside the button, and the button points to it.
  const reason = page.getByText(/^Nothing new to compact: the previewed compaction is identical/);
  await expect(reason).toBeVisible();
  await expect(compact).toHaveAccessibleDescription(/Nothing new to compact/);
  // The Timeline says the same of the preview it would append (an extra: asked for once in view).
  await showPane(page, 'timeline');
  await expect(
    page
      .locator('#pane-timeline .cp-event-new')
      .getByText('identical to a stored compaction; Compact adds nothing'),
  ).toBeVisible();
  await expect(results(page)).toBeVisible();
});

test('at 390 px the page does not scroll sideways, and the table shows tool, saving and hint', async ({
  page,
}) => {
  // Counting the whole corpus folder for workspace mode takes minutes on a busy machine.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  await waitForDiff(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const row = toolRow(page, 'fs_read_file');
  await row.scrollIntoViewIfNeeded();
  for (const text of ['fs_read_file', '339', 'strip-responses']) {
    const cell = row.getByText(text, { exact: true }).first();
    await expect(cell).toBeVisible();
    const box = await cell.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, `${text} within the screen`).toBe(true);
  }
  // Inline: one editor, not two side by side.
  await expect(page.locator('#pane-diff .monaco-diff-editor.side-by-side')).toHaveCount(0);

  // Workspace mode, with its tables of conversations, fits the width too.
  await openCorpusFolder(page);
  await waitForWorkspace(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('at 1024 px every column of the savings and totals tables is readable', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await openPlayground(page);
  const totals = page.getByRole('table', { name: 'Totals by content type' });
  for (const table of [savingsTable(page), totals]) {
    // Nothing hidden behind the wrapper's inner scroll.
    const [scrollWidth, clientWidth] = await table
      .locator('xpath=..')
      .evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    // And no header cut short: each shows its whole text.
    const clipped = await table
      .locator('th')
      .evaluateAll((cells) =>
        cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent),
      );
    expect(clipped).toEqual([]);
  }
  await expect(totals.getByText('All counted text')).toBeVisible();
});

test('the theme toggle overrides the system, and it and the splitter sizes survive a reload', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlayground(page);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Dark', exact: true }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('#editors .monaco-editor.vs-dark').first()).toBeAttached();

  const splitter = page.getByRole('separator', { name: 'Resize inputs and results' });
  await splitter.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', '50');

  await page.reload();
  await waitForResults(page);
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('button', { name: 'Dark', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(splitter).toHaveAttribute('aria-valuenow', '50');
});

test("the README's walkthrough works on the default example, its hints in view at 1440×900", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlayground(page);
  // The hints the walkthrough reads are on screen without scrolling the config.
  const config = page.locator('#config-panel');
  for (const text of ['tool_calls = "strip"', '[conversation.tools.fs_read_file]']) {
    const line = config.locator('.view-line').filter({ hasText: text });
    await expect(line, text).toBeVisible();
    // Both boxes read together, after the layout has settled: notes above the
    // editors may still be arriving.
    await expect
      .poll(async () => {
        const box = await config.locator('.monaco-editor .overflow-guard').boundingBox();
        const lineBox = await line.boundingBox();
        return lineBox !== null && box !== null && lineBox.y + lineBox.height <= box.y + box.height;
      }, text)
      .toBe(true);
  }
  // README: responses 779 → 440 tokens, Saved 339 (the CLI's report for the same files).
  const row = toolRow(page, 'fs_read_file');
  await expect(row.locator('td').nth(2)).toContainText('779 → 440');
  await expect(row.locator('td').nth(3)).toContainText('339');
  await row.click();
  await waitForDiff(page);
  await expect(page.locator('#pane-diff').getByLabel('Filter by tool')).toHaveValue('fs_read_file');
  // Turn 1 is kept as it is; the first change is in the compacted turns.
  await page
    .locator('#pane-diff')
    .getByRole('button', { name: /Next change/ })
    .click();
  await expect(page.locator('#pane-diff .editor.modified .view-lines')).toContainText(
    '[compacted] fs_read_file: success',
  );
  const edited = (await readConfig()).replace(
    'compaction = "strip-responses"',
    'compaction = "keep"',
  );
  await setEditorText(page, 'Config (TOML)', edited);
  await waitForResults(page);
  await expect(row.locator('td').nth(3)).toHaveText(/^0/);
});

async function readConfig(): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return readFileSync(new URL('../../src/examples/coding-session.toml', import.meta.url), 'utf8');
}

test("opening a conversation of one's own replaces the example's comments about its five turns", async ({
  page,
}) => {
  await openPlayground(page);
  const configLines = () =>
    editor(page, 'Config (TOML)').evaluate(
      (element) =>
        element.closest('.monaco-editor')?.querySelector('.view-lines')?.textContent ?? '',
    );
  // The example's comments sit at the top, in view.
  expect(await configLines()).toContain('five-turn');

  await page
    .getByLabel('Open events.json')
    .setInputFiles(corpusFile('17738500500-jp-cli-cold-start-workflow-issues'));
  await waitForResults(page);
  await expect(page.locator('#editors').getByText('events.json', { exact: true })).toBeVisible();
  await expect.poll(configLines).not.toContain('five-turn');
  // The same rule stays, with comments about no particular conversation.
  // Monaco renders spaces as no-break spaces, which \s matches.
  expect(await configLines()).toMatch(/keep_first\s=\s1/);
  expect(await configLines()).toMatch(
    /the\sCompactions\spane\sshows\swhich\sturns\sthat\sis\shere/,
  );
});

test('the first screen says what JP and a turn are, and opens About from the sentence (issue 41)', async ({
  page,
}) => {
  await openPlayground(page);
  const words = results(page).getByTestId('newcomer-words');
  await expect(words).toContainText('a turn is one prompt of yours');
  await words.getByRole('button', { name: 'How compaction works' }).click();
  await expect(page.getByRole('dialog', { name: 'How compaction works here' })).toBeVisible();
});
