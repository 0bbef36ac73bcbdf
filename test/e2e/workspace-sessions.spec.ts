/**
 * A folder of mixed Claude Code and Codex sessions (real corpus files, laid
 * out as the agents store them, plus one file that does not read) opened
 * with "Open folder": one row per session, subagents named under their
 * parent, the bad file a failed row, and the figures of the CLI's
 * `report --by-conversation` and `report --json` on the same folder.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { waitForWorkspace, workspace } from './workspace-helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(SHARED_DIR, 'corpus', 'agent-transcripts');
const CODEX =
  'claude-code-log__codex__sessions__2026__01__02__rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl';

const HINTS = `[[conversation.compaction.rules]]
keep_first = 0
keep_last = 0
tool_calls = "strip"

[conversation.tools.Agent]
compaction = "strip-responses"
`;

/** `~/.claude/projects/<dir>/` with a session and its subagents, a Codex tree, one broken file. */
function mixedFolder(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'playground-sessions-')), 'sessions');
  cpSync(
    join(DIR, 'claude-code', 'claude-code-log__minimal_showcase'),
    join(root, 'claude', 'showcase'),
    { recursive: true },
  );
  cpSync(join(DIR, 'codex', CODEX), join(root, 'codex', '2026', '01', '02', CODEX));
  writeFileSync(join(root, 'codex', 'broken.jsonl'), 'not json at all\n');
  return root;
}

/** The CLI's per-conversation lines: title and tokens saved. */
function cliByConversation(folder: string): [string, number][] {
  const dir = mkdtempSync(join(tmpdir(), 'playground-e2e-'));
  const config = join(dir, 'hints.toml');
  writeFileSync(config, HINTS);
  const output = execFileSync(
    process.execPath,
    ['bin/compaction-playground.mjs', 'report', '--by-conversation', '--config', config, folder],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  // The first block: a header, then "title  calls  before  after  saved  saved %" per conversation.
  const block = output.split('\n\n')[0]?.split('\n').slice(1) ?? [];
  return block.map((line) => {
    const cells = line.split(/ {2,}/);
    return [cells[0] ?? '', Number((cells[4] ?? '').replaceAll(',', ''))];
  });
}

test('a folder of Claude Code and Codex sessions opens as a workspace with the CLI’s figures', async ({
  page,
}) => {
  const folder = mixedFolder();
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', HINTS);
  await waitForResults(page);
  await page.getByLabel('Open folder').setInputFiles(folder);
  await waitForWorkspace(page);

  const list = workspace(page).getByRole('table', { name: 'Conversations by tokens saved' });
  const counted = list.locator('tbody tr[data-status="done"]');
  // The CLI lists the file that does not read as a line of its own, with "–" for its figures.
  const lines = cliByConversation(folder);
  const expected = lines.filter(([, saved]) => !Number.isNaN(saved));
  expect(expected).toHaveLength(4);
  expect(lines.filter(([, saved]) => Number.isNaN(saved)).map(([name]) => name)).toEqual([
    expect.stringContaining('broken.jsonl'),
  ]);
  await expect(counted).toHaveCount(expected.length);
  const shown: [string, number][] = [];
  for (const row of await counted.all()) {
    const title = (await row.locator('.ws-title').textContent()) ?? '';
    const saved = (await row.locator('td.cp-num > span').first().textContent()) ?? '';
    shown.push([title, Number(saved.replaceAll(',', ''))]);
  }
  const byTitle = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : 1);
  expect(shown.sort(byTitle)).toEqual(expected.sort(byTitle));
  expect(shown.some(([title]) => title.includes(' › agent-showcol1: Survey the web module'))).toBe(
    true,
  );

  // The file that does not read is a row with its error; the rest still counts.
  const failed = list.locator('tbody tr[data-status="failed"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('broken.jsonl line 1, column 1');

  expect(await readToolRows(page)).toEqual(cliReportRows(HINTS, folder));
});
