/**
 * Issue 20's ten classes of import fault, in the page: each reproducer (the
 * one home, src/test/import-classes.ts, that the CLI tests use too) opened
 * with Open, as a person opens a file. What a person sees must be what the
 * CLI says: the calls per tool in the savings table (the hand counts), and
 * the import summary's line of what was skipped and why (the loss guard's
 * line, as `report` prints it on standard error).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { IMPORT_FORMAT_LABELS } from '../../src/core/import/types.ts';
import {
  ampThread,
  type ClassReproducer,
  COUNTED_CLASS_REPRODUCERS,
  futureCall,
  geminiCheckpoint,
  inlineSubagent,
  unknownItem,
} from '../../src/test/import-classes.ts';
import {
  cliReportRows,
  expect,
  openPlayground,
  problemItems,
  readToolRows,
  savingsTable,
  setEditorText,
  test,
  waitForResults,
} from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = '[[conversation.compaction.rules]]\nkeep_last = 1\n';
const work = mkdtempSync(join(tmpdir(), 'import-classes-'));

/** Each reproducer in its own folder, under the name it is known by (several share one). */
function writeReproducer(reproducer: ClassReproducer): string {
  const dir = join(work, `class-${reproducer.class}`);
  const path = join(dir, reproducer.fileName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, reproducer.text);
  return path;
}

/** The loss guard's line `report` prints on standard error for `path`, without its prefix. */
function cliAccount(path: string): string {
  const configPath = join(work, 'rules.toml');
  writeFileSync(configPath, CONFIG);
  const { stderr } = spawnSync(
    process.execPath,
    ['bin/compaction-playground.mjs', 'report', '--config', configPath, path],
    { cwd: REPO, encoding: 'utf8' },
  );
  const prefix = `${path}: import: `;
  const line = stderr.split('\n').find((l) => l.startsWith(prefix));
  expect(line, `report's loss guard line for ${path}:\n${stderr}`).toBeDefined();
  return (line ?? '').slice(prefix.length);
}

async function open(page: Page, path: string): Promise<void> {
  await page.getByLabel('Open events.json').setInputFiles(path);
}

/** Opens a reproducer; checks the calls per tool, the CLI's figures and the loss guard line. */
async function openAndCheck(page: Page, reproducer: ClassReproducer): Promise<void> {
  const path = writeReproducer(reproducer);
  await open(page, path);
  const summary = page.getByTestId('import-summary');
  const total = Object.values(reproducer.calls).reduce((sum, calls) => sum + calls, 0);
  await expect(summary).toContainText(reproducer.fileName);
  await expect(summary.getByTestId('import-account')).toHaveText(cliAccount(path));
  await expect(summary.getByTestId('import-calls')).toHaveText(String(total));
  await waitForResults(page);
  if (total === 0) {
    await expect(savingsTable(page)).toContainText('No tool calls in this conversation.');
    return;
  }
  await expect
    .poll(async () => Object.fromEntries((await readToolRows(page)).map((r) => [r.name, r.calls])))
    .toEqual(reproducer.calls);
  expect(await readToolRows(page)).toEqual(cliReportRows(CONFIG, path));
}

// Opening the page alone took 45 s of the default 60 on this shared 2-core machine under load.
test.describe.configure({ timeout: 240_000 });

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', CONFIG);
  await waitForResults(page);
});

test('classes 1, 2, 3, 7 and 10: each file gives its hand-counted calls per tool and the CLI’s figures and line', async ({
  page,
}) => {
  for (const build of COUNTED_CLASS_REPRODUCERS) {
    const reproducer = build();
    await test.step(`class ${reproducer.class}: ${reproducer.what}`, () =>
      openAndCheck(page, reproducer));
  }
});

test('class 4: an unknown Responses item is a note, not a refusal', async ({ page }) => {
  await openAndCheck(page, unknownItem());
  const summary = page.getByTestId('import-summary');
  await expect(summary.getByTestId('import-format')).toHaveText(
    IMPORT_FORMAT_LABELS['openai-responses'],
  );
  await expect(summary.getByTestId('import-notes')).toContainText('brand_new_item');
  await expect(problemItems(page, 'error')).toHaveCount(0);
});

test('class 5: an Amp thread is read as Amp, with all its calls', async ({ page }) => {
  const reproducer = ampThread();
  await openAndCheck(page, reproducer);
  await expect(page.getByTestId('import-format')).toHaveText(IMPORT_FORMAT_LABELS.amp);
  // The format chosen and why (the file's "v" and its "id" "T-019fa4db-…"), and the loss guard says every call in the file is counted.
  await expect(page.getByTestId('import-account')).toContainText(
    `read as ${IMPORT_FORMAT_LABELS.amp}: its "id" is an Amp thread id ("T-…") beside "v" and "messages";`,
  );
  await expect(page.getByTestId('import-account')).toContainText('all counted');
});

test('class 6 and 9: an inline subagent, and a call of a newer item type, are named as left out', async ({
  page,
}) => {
  await openAndCheck(page, inlineSubagent());
  const summary = page.getByTestId('import-summary');
  await expect(summary.getByTestId('import-account')).toContainText(
    '1 tool call in the file, 0 counted: 1 by claude-code/sidechain',
  );
  await expect(summary.getByTestId('import-notes')).toContainText(
    'Sidechain lines (isSidechain) hold 1 inline subagent with 1 tool call (ag: 1 call, from line 2)',
  );

  await openAndCheck(page, futureCall());
  await expect(summary.getByTestId('import-account')).toHaveText(
    'read as OpenAI Responses input items: it is an object with "input", and item 1 is a Responses "message" item; 1 tool call in the file, 0 counted: 1 by openai-responses/item-future_tool_call; skipped or changed: import/no-timestamp ×1',
  );
});

test('class 8: a Gemini checkpoint is refused, naming Gemini', async ({ page }) => {
  await open(page, writeReproducer(geminiCheckpoint()));
  await expect(problemItems(page, 'error')).toContainText(
    'This looks like a Gemini CLI checkpoint',
  );
  await expect(page.getByTestId('import-summary')).toHaveCount(0);
});
