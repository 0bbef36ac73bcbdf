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
import { IMPORT_FORMAT_LABELS } from '../../src/core/import/types.ts';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import {
  AGENT_TRANSCRIPTS,
  type CorpusTranscript,
} from '../../src/test/fixtures/agent-transcripts.ts';
import {
  cliReportRows,
  expect,
  openPlayground,
  readToolRows,
  savingsTable,
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
  // While a file is over the editor, the hint says any conversation is taken, not only JP's.
  await expect(page.locator('.drop-hint')).toHaveText(
    'Drop a conversation (events.json or an agent transcript) to open it',
  );
  await target.dispatchEvent('drop', { dataTransfer });
  await expect(page.locator('.drop-hint')).toHaveCount(0);
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

// Opening the page alone took 45 s of the default 60 on this shared 2-core
// machine under load: room, not a speed claim.
test.describe.configure({ timeout: 120_000 });

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

/** The corpus files by folder (one agent each), so a test opens a handful in one page. */
const CORPUS_GROUPS = new Map<string, CorpusTranscript[]>();
for (const entry of AGENT_TRANSCRIPTS) {
  const folder = entry.path.split('/')[0] ?? '';
  // The API request bodies and the two other agents are small: one test for all of them.
  const group =
    folder === 'claude-code' || folder === 'codex' ? folder : 'Gemini CLI, OpenCode and API';
  CORPUS_GROUPS.set(group, [...(CORPUS_GROUPS.get(group) ?? []), entry]);
}

for (const [group, entries] of CORPUS_GROUPS) {
  test(`every ${group} file of the corpus, opened one after another, imports to its counted calls and the CLI's figures`, async ({
    page,
  }) => {
    test.setTimeout(30_000 * entries.length);
    for (const entry of entries) {
      const path = join(DIR, entry.path);
      await page.getByLabel('Open events.json').setInputFiles(path);
      const summary = page.getByTestId('import-summary');
      // Several files share a name (toolpath__convo.jsonl): the format tells them apart.
      await expect(summary).toContainText(basename(path));
      await expect(summary.getByTestId('import-format')).toHaveText(
        IMPORT_FORMAT_LABELS[entry.format],
      );
      const total = Object.values(entry.calls).reduce((sum, calls) => sum + calls, 0);
      await expect(summary.getByTestId('import-calls')).toHaveText(String(total));
      await waitForResults(page);

      const cli = cliReportRows(HINTS, path);
      const fromCli = Object.fromEntries(cli.map((row) => [row.name, row.calls]));
      expect(fromCli, `${entry.path}: report --json calls per tool`).toEqual(entry.calls);
      if (total === 0) {
        await expect(savingsTable(page)).toContainText('No tool calls in this conversation.');
        continue;
      }
      await expect
        .poll(() => readToolRows(page), { message: `${entry.path}: the savings table` })
        .toEqual(cli);
      const shown = Object.fromEntries((await readToolRows(page)).map((r) => [r.name, r.calls]));
      expect(shown, `${entry.path}: calls per tool in the page`).toEqual(entry.calls);
    }
  });
}

test("the gallery's real Codex rollout shows its credit, imports, and gives the CLI's figures for its config", async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Examples' }).click();
  const gallery = page.getByRole('dialog', { name: 'Examples' });
  const item = gallery.getByRole('button', { name: /A real Codex CLI rollout/ });
  await expect(item.locator('.cp-credit')).toHaveText(
    'Credit: test fixtures of toolpath (github.com/empathic/toolpath), Apache-2.0, Copyright 2025 Empathic, Inc.',
  );
  await item.click();
  await waitForResults(page);
  await expect(page.getByTestId('import-format')).toHaveText('Codex CLI rollout (JSONL)');
  // The example is the corpus file, whole; its config is the example's TOML.
  const config = readFileSync(join(REPO, 'src/examples/codex-rollout.toml'), 'utf8');
  const cli = cliReportRows(config, join(DIR, 'codex', 'toolpath__convo.jsonl'));
  expect(cli.map((row) => [row.name, row.calls])).toEqual([['exec_command', 1]]);
  await expect.poll(() => readToolRows(page)).toEqual(cli);
});

/** The 2026 corpus with its independent counts (expected-tool-calls.json, made without the importers). */
const DIR_2026 = join(SHARED_DIR, 'corpus', 'agent-transcripts-2026');
const EXPECTED_2026 = new Map<string, Record<string, number>>(
  Object.entries(
    JSON.parse(readFileSync(join(DIR_2026, 'expected-tool-calls.json'), 'utf8')) as Record<
      string,
      Record<string, number>
    >,
  ),
);

test('every file of the 2026 corpus, opened one after another, imports to its independently counted calls and the CLI figures', async ({
  page,
}) => {
  test.setTimeout(30_000 * EXPECTED_2026.size);
  for (const [relative, calls] of EXPECTED_2026) {
    const path = join(DIR_2026, relative);
    await page.getByLabel('Open events.json').setInputFiles(path);
    const summary = page.getByTestId('import-summary');
    await expect(summary).toContainText(basename(path));
    const total = Object.values(calls).reduce((sum, count) => sum + count, 0);
    await expect(summary.getByTestId('import-calls'), relative).toHaveText(
      new Intl.NumberFormat('en-US').format(total),
    );
    await waitForResults(page);
    const cli = cliReportRows(HINTS, path);
    const fromCli = Object.fromEntries(cli.map((row) => [row.name, row.calls]));
    expect(fromCli, `${relative}: report --json calls per tool`).toEqual(calls);
    if (total === 0) {
      await expect(savingsTable(page)).toContainText('No tool calls in this conversation.');
      continue;
    }
    await expect
      .poll(() => readToolRows(page), { message: `${relative}: the savings table` })
      .toEqual(cli);
  }
});
