/**
 * Workspaces in the browser, against the production build: the corpus folder
 * opened through "Open folder" gives the CLI's figures for the same config;
 * counting shows progress and can be cancelled; the per-conversation
 * breakdown opens a conversation in the editors; recommendations apply to
 * the config. The longest main-thread task while counting is printed, never
 * asserted (it depends on the machine and its load); the pool's speed-up is
 * measured in `workspace-perf.spec.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { CORPUS_DIR } from '../../src/test/conformance.ts';
import {
  cliReportRows,
  expect,
  openPlayground,
  README_CONFIG_TOML,
  readToolRows,
  results,
  savingsTable,
  setEditorText,
  statusLine,
  test,
  toolRow,
  waitForResults,
} from './helpers.ts';
import { longestMainThreadTask, startTrace } from './trace.ts';
import {
  countingDone,
  openCorpusFolder,
  waitForWorkspace,
  watchCounting,
  workspace,
} from './workspace-helpers.ts';

const CONVERSATIONS = readdirSync(CORPUS_DIR, { withFileTypes: true }).filter((entry) =>
  entry.isDirectory(),
);

/** Ticks every suggestion left unticked (those that save less than the hint in force). */
async function tickEvery(table: Locator): Promise<void> {
  const boxes = table.getByRole('checkbox', { checked: false });
  while ((await boxes.count()) > 0) await boxes.first().check();
}

/** A rule that strips tool calls, and nothing else: every tool inherits it. */
const RULE_ONLY = `[[conversation.compaction.rules]]
keep_last = 2
reasoning = "strip"
tool_calls = "strip"
`;

/** The title in a corpus conversation's metadata.json. */
function corpusTitle(folder: string): string {
  return (
    JSON.parse(readFileSync(join(CORPUS_DIR, folder, 'metadata.json'), 'utf8')) as {
      title: string;
    }
  ).title;
}

test("the corpus folder adds up per tool to the CLI's report on it", async ({ page }) => {
  // Counting 20 conversations and two CLI runs over them: on a loaded machine
  // the whole passed the default 60 s. Room, not a speed claim.
  test.setTimeout(180_000);
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', README_CONFIG_TOML);
  await waitForResults(page);

  await page.evaluate(watchCounting);
  const stopTrace = await startTrace(await page.context().newCDPSession(page));
  await openCorpusFolder(page);
  const progress = page.getByRole('progressbar', { name: 'Counting conversations' });
  await expect(progress).toHaveAttribute('aria-valuemax', String(CONVERSATIONS.length));
  await expect(progress).toHaveAttribute('aria-valuetext', /^\d+ of 20 conversations$/);
  const counted = await page.evaluate(countingDone);
  const traced = longestMainThreadTask(await stopTrace());
  expect(counted.status, 'how the count ended').toBe('done');
  console.log(
    `WORKSPACE main thread while counting ${CONVERSATIONS.length} conversations ` +
      `(${Math.round(counted.ms)} ms): longest task ${Math.round(counted.longestTask)} ms ` +
      `(${counted.longTasks} over 50 ms; traced: ${Math.round(traced.wall)} ms, ` +
      `${Math.round(traced.cpu)} ms of it CPU); load average ${loadavg()[0]?.toFixed(1) ?? '?'}`,
  );
  await waitForWorkspace(page);
  await expect(progress).toHaveCount(0);

  await expect(workspace(page).getByRole('status')).toHaveText(
    /^Saved [\d,]+ tokens \([\d.]+%\) of the [\d,]+ tokens the conversations' next requests would carry, across 20 conversations\.$/,
  );
  expect(CONVERSATIONS).toHaveLength(20);
  expect(await readToolRows(page)).toEqual(cliReportRows(README_CONFIG_TOML, CORPUS_DIR));

  // Every conversation is listed under its metadata.json title.
  const list = workspace(page).getByRole('table', { name: 'Conversations by tokens saved' });
  await workspace(page).getByRole('button', { name: 'Show all 20' }).click();
  await expect(list.locator('tbody tr')).toHaveCount(20);
  const titles = await list.locator('tbody .ws-title').allTextContents();
  expect(titles.sort()).toEqual(CONVERSATIONS.map((entry) => corpusTitle(entry.name)).sort());

  // A hint edit is answered from the hint tables: the same figures as the CLI's again.
  const edited = README_CONFIG_TOML.replace('"strip-responses"', '"keep"');
  await setEditorText(page, 'Config (TOML)', edited);
  await expect(toolRow(page, 'fs_read_file').locator('td').last()).toHaveText('keep own hint');
  await waitForWorkspace(page);
  expect(await readToolRows(page)).toEqual(cliReportRows(edited, CORPUS_DIR));
});

test('the breakdown names the conversations a hint saves most in, and opens one', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', README_CONFIG_TOML);
  await openCorpusFolder(page);
  await waitForWorkspace(page);

  await toolRow(page, 'fs_read_file').click();
  const list = workspace(page).getByRole('table', {
    name: "Which conversations gain most from fs_read_file's hint",
  });
  await expect(list).toBeVisible();
  const showAll = workspace(page).getByRole('button', { name: /^Show all/ });
  if (await showAll.isVisible()) await showAll.click();
  const saved = (await list.locator('tbody td.cp-num > span:first-child').allTextContents()).map(
    (text) => Number(text.replaceAll(',', '')),
  );
  expect(saved.length).toBeGreaterThan(1);
  expect(saved).toEqual([...saved].sort((a, b) => b - a));
  // The conversations' savings add up to the tool's row.
  const row = (await readToolRows(page)).find((r) => r.name === 'fs_read_file');
  expect(saved.reduce((sum, value) => sum + value, 0)).toBe(row?.saved);

  // The one that gains most opens in the editors with the same figure for the tool.
  const first = list.locator('tbody tr').first();
  const title = (await first.locator('.ws-title').textContent()) ?? '';
  await first.getByRole('button', { name: `Open “${title}” in the editors` }).click();
  await expect(workspace(page)).toHaveCount(0);
  await waitForResults(page);
  await expect(page.locator('#editors .panel-hint').getByText(title)).toBeVisible();
  const single = (await readToolRows(page)).find((r) => r.name === 'fs_read_file');
  expect(single?.saved).toBe(saved[0]);

  // The workspace is a click away.
  await page.getByRole('button', { name: /^Workspace/ }).click();
  await waitForWorkspace(page);
  await expect(workspace(page).getByRole('status')).toContainText('across 20 conversations');
});

test('counting can be cancelled, and the app stays usable', async ({ page }) => {
  // One worker: counting takes long enough to cancel it midway.
  await page.goto('/?workers=1');
  await waitForResults(page);
  await openCorpusFolder(page);
  const progress = page.getByRole('progressbar', { name: 'Counting conversations' });
  await expect(progress).toBeVisible();
  await workspace(page).getByRole('button', { name: 'Cancel' }).click();

  await expect(workspace(page)).toHaveAttribute('data-status', 'cancelled');
  await expect(workspace(page)).toHaveAttribute('aria-busy', 'false');
  await expect(progress).toHaveCount(0);
  await expect(workspace(page).getByText(/^Counting was cancelled after \d+ of 20/)).toBeVisible();
  // No partial figures: neither the table nor a headline saving.
  await expect(workspace(page).getByRole('table', { name: 'Savings per tool' })).toHaveCount(0);
  await expect(workspace(page).getByRole('status')).toHaveText('Counting was cancelled.');

  // The conversation view still computes.
  await page.getByRole('button', { name: /^Conversation/ }).click();
  await setEditorText(page, 'Config (TOML)', README_CONFIG_TOML);
  await waitForResults(page);
  await expect(savingsTable(page)).toBeVisible();

  // And the workspace can be counted after all.
  await page.getByRole('button', { name: /^Workspace/ }).click();
  await workspace(page).getByRole('button', { name: 'Count again' }).click();
  await waitForWorkspace(page);
  await expect(workspace(page).getByRole('status')).toContainText('across 20 conversations');
});

test('recommendations for the workspace apply to the config', async ({ page }) => {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', RULE_ONLY);
  await openCorpusFolder(page);
  await waitForWorkspace(page);

  const panel = workspace(page).locator('#ws-recommend');
  await expect(panel.getByRole('note')).toContainText(
    'A saving in tokens is not a judgment of what the model still needs',
  );
  const table = panel.getByRole('table', { name: 'Suggested hints' });
  await expect(table.locator('tr[data-tool="fs_read_file"]')).toContainText('strip-responses');
  await expect(toolRow(page, 'fs_read_file').locator('td').last()).toHaveText("rule's tool_calls");

  // Suggestions that save less than the rule's strip start unticked: take them all here.
  await tickEvery(table);
  await panel.getByRole('button', { name: /^Apply \d+ hints to the config$/ }).click();
  await expect(page.locator('#config-panel .view-lines')).toContainText('[conversation.tools.');
  await waitForWorkspace(page);
  await expect(toolRow(page, 'fs_read_file').locator('td').last()).toHaveText(
    'strip-responses own hint',
  );
  await expect(panel.getByText(/^Every tool already has the suggested hint/)).toBeVisible();
});

test('recommendations for the conversation in the editor apply to the config', async ({ page }) => {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', RULE_ONLY);
  await waitForResults(page);
  const pane = page.locator('#pane-recommend');
  await pane.getByRole('button', { name: 'Recommend hints' }).click();
  const table = pane.getByRole('table', { name: 'Suggested hints' });
  await expect(table).toBeVisible();
  await expect(pane.getByRole('note')).toContainText('A saving in tokens is not a judgment');
  const before = (await page.locator('#config-panel .view-lines').textContent()) ?? '';
  await tickEvery(table);
  await pane.getByRole('button', { name: /^Apply \d+ hints? to the config$/ }).click();
  await expect(page.locator('#config-panel .view-lines')).not.toHaveText(before);
  await expect(page.locator('#config-panel .view-lines')).toContainText('[conversation.tools.');
  await waitForResults(page);
  await expect(pane.getByText(/^Every tool already has the suggested hint/)).toBeVisible();
  await expect(results(page)).toHaveAttribute('data-stale', 'false');
});

test('on the default example, Recommend never lowers the saving without saying so', async ({
  page,
}) => {
  await openPlayground(page);
  await expect(statusLine(page)).toContainText('1,671');
  const pane = page.locator('#pane-recommend');
  await pane.getByRole('button', { name: 'Recommend hints' }).click();
  const table = pane.getByRole('table', { name: 'Suggested hints' });
  // From the CLI on the same files: build_watch keep would save 0 (omit saves 129),
  // so the example's own omit stays (issue 24); run_tests strip-responses saves 114
  // (the rule's strip saves 124).
  const watch = table.locator('tr[data-tool="build_watch"]');
  await expect(watch.getByRole('checkbox')).toHaveCount(0);
  await expect(watch).toContainText('Your hint omit stays');
  const tests = table.locator('tr[data-tool="run_tests"]');
  await expect(tests.getByRole('checkbox')).not.toBeChecked();
  await expect(tests).toContainText("saves 10 tokens fewer than rule's tool_calls");
  const effect = pane.getByTestId('apply-effect');
  await expect(effect).toHaveText('Nothing ticked: the saving stays 1,671 tokens.');
  await expect(pane.getByRole('button', { name: 'Nothing to apply' })).toBeDisabled();

  // Ticked by hand, the lower saving is said before the click.
  await tests.getByRole('checkbox').check();
  await expect(effect).toHaveText(
    'Applying the ticked hint: saving 1,671 → 1,661 tokens (−10): lower than now.',
  );
  await pane.getByRole('button', { name: 'Apply 1 hint to the config' }).click();
  await waitForResults(page);
  await expect(statusLine(page)).toContainText('1,661');
  await expect(toolRow(page, 'run_tests').locator('td').last()).toHaveText(
    'strip-responses own hint',
  );
});

/** `report --what-if --json` over the corpus folder: per tool, tokens after under each choice. */
function cliWhatIf(config: string): Map<string, Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'playground-e2e-'));
  const configPath = join(dir, 'what-if.toml');
  writeFileSync(configPath, config);
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'report',
      '--what-if',
      '--json',
      '--config',
      configPath,
      CORPUS_DIR,
    ],
    { encoding: 'utf8' },
  );
  const json = JSON.parse(output) as {
    tools: { name: string; choices: Record<string, { after: { tokens: number } }> }[];
  };
  return new Map(
    json.tools.map((tool) => [
      tool.name,
      Object.fromEntries(
        Object.entries(tool.choices).map(([choice, cell]) => [choice, cell.after.tokens]),
      ),
    ]),
  );
}

const CHOICES = ['inherit', 'keep', 'strip', 'strip-requests', 'strip-responses', 'omit'];

test("the workspace's what-if grid: six choices per tool as the CLI counts them, a ★, a click edits the TOML", async ({
  page,
}) => {
  // Two cold counts of the corpus and two CLI runs; slow on a loaded machine.
  test.setTimeout(300_000);
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', RULE_ONLY);
  await openCorpusFolder(page);
  await waitForWorkspace(page);

  const grid = workspace(page)
    .locator('#ws-what-if')
    .getByRole('grid', { name: 'What if: every tool under each hint choice' });
  await grid.scrollIntoViewIfNeeded();
  const read = () =>
    grid.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        tool: tr.getAttribute('data-tool') ?? '',
        cells: [...tr.querySelectorAll('td[data-choice]')].map((td) => ({
          choice: td.getAttribute('data-choice') ?? '',
          after: Number(
            (
              /, ([\d,]+) tokens after/.exec(
                td.querySelector('button')?.getAttribute('aria-label') ?? '',
              )?.[1] ?? 'NaN'
            ).replaceAll(',', ''),
          ),
          inForce: td.getAttribute('data-in-force') === 'true',
        })),
      })),
    );

  const rows = await read();
  const cli = cliWhatIf(RULE_ONLY);
  expect(rows.map((row) => row.tool)).toEqual([...cli.keys()]);
  for (const row of rows) {
    expect(
      row.cells.map((cell) => cell.choice),
      row.tool,
    ).toEqual(CHOICES);
    const expected = cli.get(row.tool);
    for (const cell of row.cells)
      expect(cell.after, `${row.tool} ${cell.choice}`).toBe(expected?.[cell.choice]);
  }
  await expect(grid.getByText('★').first()).toBeVisible();

  // fs_read_file inherits the rule's strip; omit saves more there, and the savings table follows.
  const tool = 'fs_read_file';
  const omit = grid.locator(`tr[data-tool="${tool}"] td[data-choice="omit"] button`);
  await omit.click();
  const config = page.locator('#config-panel .view-lines');
  await expect(config).toContainText(`[conversation.tools.${tool}]`);
  await expect(config).toContainText('compaction = "omit"');
  await expect(toolRow(page, tool).locator('td').last()).toHaveText('omit own hint');
  await waitForWorkspace(page);
  await expect(omit).toHaveAttribute('aria-pressed', 'true');
  const omitAfter = cli.get(tool)?.omit;
  const shown = (await readToolRows(page)).find((row) => row.name === tool);
  expect(shown && shown.requestAfter + shown.responseAfter).toBe(omitAfter);
  // After the edit the grid is still the CLI's for the edited config.
  const after = await read();
  const cliEdited = cliWhatIf(`${RULE_ONLY}\n[conversation.tools.${tool}]\ncompaction = "omit"\n`);
  for (const row of after) {
    for (const cell of row.cells)
      expect(cell.after, `${row.tool} ${cell.choice}`).toBe(cliEdited.get(row.tool)?.[cell.choice]);
  }
  expect(after.find((row) => row.tool === tool)?.cells.find((cell) => cell.inForce)?.choice).toBe(
    'omit',
  );
});
