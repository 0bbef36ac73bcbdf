/**
 * The workspace in money (issue 41): the corpus's folder of real Claude Code
 * sessions (sessions, a session's `subagents/` files, inline subagents)
 * opened with "Open folder" shows, once counted, what each conversation
 * cost, labelled recorded or modelled, per day and in total, with the
 * folder's cheapest schedule: the figures `replay --by-conversation --json`
 * prints for the same folder and config, as the page rounds them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, formatDollars, formatPercent } from '../../src/core/counting/format.ts';
import { describeFolderMoney, type FolderMoney } from '../../src/core/replay/folder-money.ts';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import { expect, openPlayground, setEditorText, test, waitForResults } from './helpers.ts';
import { waitForWorkspace, workspace } from './workspace-helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FOLDER = join(SHARED_DIR, 'corpus', 'agent-transcripts', 'claude-code');
const RULES = `[[conversation.compaction.rules]]
keep_first = 0
keep_last = 0
tool_calls = "strip"
`;

/** `replay --by-conversation --json` on the folder with the same rules, through the real binary. */
function cliMoney(): FolderMoney {
  const config = join(mkdtempSync(join(tmpdir(), 'playground-e2e-')), 'rules.toml');
  writeFileSync(config, RULES);
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'replay',
      '--by-conversation',
      '--json',
      '--config',
      config,
      FOLDER,
    ],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return JSON.parse(output) as FolderMoney;
}

test('a folder of Claude Code sessions shows each conversation’s cost and the total, as replay --by-conversation', async ({
  page,
}) => {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', RULES);
  await waitForResults(page);
  await page.getByLabel('Open folder').setInputFiles(FOLDER);
  await waitForWorkspace(page);

  const cost = workspace(page).getByTestId('workspace-cost');
  // The section asks for its figures while in view (it is the workspace's first).
  await cost.scrollIntoViewIfNeeded();
  await expect(cost).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(cost).toHaveAttribute('aria-busy', 'false');
  const cli = cliMoney();
  expect(cli.conversations).toHaveLength(9);

  // Row by row, in the CLI's order: day, requests, cost, its basis, as ran, saving and cheapest.
  const rows = cost.getByRole('table', { name: 'What each conversation cost' }).locator('tbody tr');
  await expect(rows).toHaveCount(cli.conversations.length);
  const shown = await rows.evaluateAll((trs) =>
    trs.map((tr) => [
      tr.querySelector('th')?.textContent ?? '',
      ...['day', 'requests', 'cost', 'basis', 'stored', 'cheapest', 'saving'].map(
        (figure) => tr.querySelector(`[data-figure="${figure}"]`)?.textContent ?? '',
      ),
    ]),
  );
  expect(shown.map((cells) => cells.slice(1))).toEqual(
    cli.conversations.map((row) => [
      row.day ?? 'unknown',
      formatCount(row.requests),
      formatDollars(row.cost),
      row.basis,
      formatDollars(row.schedules.stored ?? 0),
      row.cheapest ? `${row.cheapest.name} ${formatDollars(row.cheapest.cost)}` : '',
      row.cheapest
        ? `${formatDollars(row.cheapest.saved)} (${formatPercent(row.cheapest.percent)})`
        : 'none cheaper',
    ]),
  );
  // Titled conversations carry the CLI's name; one without a title, its file's name (the CLI: its path).
  shown.forEach((cells, k) => {
    const name = cli.conversations[k]?.name ?? '';
    const page = cells[0] ?? '';
    expect(name === page || name.endsWith(`/${page}`), `${name} ~ ${page}`).toBe(true);
  });
  // Both labels occur: the corpus folder has sessions with a full bill and some without.
  expect(new Set(shown.map((cells) => cells[4]))).toEqual(new Set(['recorded', 'modelled']));

  // Per day and the total, and the folder's cheapest schedule in the CLI's words.
  const days = cost.getByRole('table', { name: /^Cost per day/ });
  await expect(days.locator('tbody tr')).toHaveCount(cli.days.length);
  expect(
    await days
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')),
      ),
  ).toEqual(
    cli.days.map((day) => [
      day.day ?? 'unknown',
      formatCount(day.conversations),
      formatDollars(day.cost),
    ]),
  );
  await expect(days.locator('[data-figure="total-cost"]')).toHaveText(
    formatDollars(cli.total.cost),
  );
  const words = describeFolderMoney(cli);
  await expect(cost.getByTestId('workspace-total-cost')).toHaveText(words.total);
  await expect(cost.getByTestId('workspace-cheapest')).toHaveText(words.cheapest);
  expect(cli.total.cheapest).not.toBeNull();
});
