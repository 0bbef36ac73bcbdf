/**
 * Another agent's conversation in the page: a real Claude Code session and a
 * real Codex rollout from the corpus, opened by Open and by drop. The import
 * summary and the savings table must say what the CLI says about the same
 * file: `report --json` for the figures, its notes on standard error for
 * what was skipped.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import {
  cliReportRows,
  expect,
  openPlayground,
  readToolRows,
  setEditorText,
  test,
  waitForResults,
} from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(SHARED_DIR, 'corpus', 'agent-transcripts');

/** Every turn compacted, so each hint's effect shows; two tools hinted otherwise. */
const HINTS = `[[conversation.compaction.rules]]
keep_first = 0
keep_last = 0
tool_calls = "strip"

[conversation.tools.Bash]
compaction = "omit"

[conversation.tools.Read]
compaction = "strip-responses"
`;

const SESSIONS = [
  {
    label: 'Claude Code session',
    path: join(DIR, 'claude-code', 'toolpath__convo.jsonl'),
    format: 'Claude Code session (JSONL)',
  },
  {
    label: 'Codex rollout',
    path: join(DIR, 'codex', 'toolpath__convo.jsonl'),
    format: 'Codex CLI rollout (JSONL)',
  },
];

/** What the CLI says about the file: tool calls per tool, and how many kinds of note it printed. */
function cliImport(path: string): { calls: number; tools: number; notes: number; turns: number } {
  const rows = cliReportRows(HINTS, path);
  // `import` prints the JP events (their turn_start events are the turns) and its notes.
  const { stdout, stderr } = spawnSync(
    process.execPath,
    ['bin/compaction-playground.mjs', 'import', path],
    { cwd: REPO, encoding: 'utf8' },
  );
  const events = JSON.parse(stdout) as { type: string }[];
  return {
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    tools: rows.length,
    notes: stderr.split('\n').filter((line) => line.includes(': note: ')).length,
    turns: events.filter((event) => event.type === 'turn_start').length,
  };
}

async function openByDrop(page: Page, path: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ text, name }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'application/jsonl' }));
      return transfer;
    },
    { text: readFileSync(path, 'utf8'), name: basename(path) },
  );
  const target = page.locator('.drop-zone .view-lines');
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

async function checkAgainstCli(page: Page, session: (typeof SESSIONS)[number]): Promise<void> {
  await waitForResults(page);
  const summary = page.getByTestId('import-summary');
  await expect(summary).toContainText(basename(session.path));
  await expect(summary.getByTestId('import-format')).toHaveText(session.format);

  const cli = cliImport(session.path);
  const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
  await expect(summary.getByTestId('import-turns')).toHaveText(count(cli.turns));
  await expect(summary.getByTestId('import-calls')).toHaveText(count(cli.calls));
  await expect(summary).toContainText(
    `of ${count(cli.tools)} ${cli.tools === 1 ? 'tool' : 'tools'}`,
  );
  expect(cli.notes).toBeGreaterThan(0);
  await expect(summary.getByTestId('import-notes').locator('li')).toHaveCount(cli.notes);

  const rows = await readToolRows(page);
  expect(rows.some((row) => row.saved > 0)).toBe(true);
  expect(rows).toEqual(cliReportRows(HINTS, session.path));
}

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', HINTS);
  await waitForResults(page);
});

for (const session of SESSIONS) {
  test(`a ${session.label} opened with Open gives the CLI's summary and figures`, async ({
    page,
  }) => {
    await page.getByLabel('Open events.json').setInputFiles(session.path);
    await checkAgainstCli(page, session);
  });

  test(`a ${session.label} dropped on the stream editor gives the CLI's summary and figures`, async ({
    page,
  }) => {
    await openByDrop(page, session.path);
    await checkAgainstCli(page, session);
  });
}
