/**
 * The bad-input matrix, UI column: every case of `src/test/bad-input-cases.ts`
 * put into the production build the way a person would (typed into an
 * editor, or opened with "Open events.json" when it is big). Then: the page
 * is not blank, the problems list shows the error with its line and column,
 * the text is still in the editor, the last good result is still shown and
 * marked stale, no page error is thrown (the `test` fixture checks the
 * console), and the page still reacts.
 *
 * Each test records what it saw; the last one to finish writes
 * `docs/bad-input-matrix.md` from those records and the core and CLI
 * columns in `test-reports/bad-input-core-cli.json`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  BAD_INPUT_CASES,
  type BadInputCase,
  CORE_CLI_REPORT,
  type CoreCliRow,
  GOOD_CONFIG,
  GOOD_STREAM,
  shorten,
} from '../../src/test/bad-input-cases.ts';
import {
  editor,
  expect,
  openPlayground,
  recordConsoleErrors,
  results,
  savingsTable,
  setEditorText,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const UI_RECORDS = join(ROOT, 'test-reports/bad-input-ui');
// `npm test` must leave tracked files alone (the matrix holds timings), so a
// test run writes its matrix to test-reports/; `npm run docs` writes docs/.
const MATRIX = join(
  ROOT,
  process.env.UPDATE_DOCS ? 'docs/bad-input-matrix.md' : 'test-reports/bad-input-matrix.md',
);

/** Playwright refuses in-memory files over 50 MB: bigger ones go through a file on disk. */
const MAX_BUFFER = 45 * 1024 * 1024;

const LABELS = { stream: 'Event stream (JSON)', config: 'Config (TOML)' } as const;

/** What the UI column observed for one case. */
interface UiRecord {
  id: string;
  ok: boolean;
  summary: string;
}

/** The visible text area of an editor (Monaco renders only the lines in view). */
function editorLines(page: Page, target: BadInputCase['target']): Locator {
  return target === 'stream'
    ? page.locator('.drop-zone .view-lines')
    : page.locator('#config-panel .view-lines');
}

async function putInput(page: Page, badCase: BadInputCase, text: string): Promise<void> {
  if (badCase.via === 'editor') {
    await setEditorText(page, LABELS[badCase.target], text);
    return;
  }
  const name = `${badCase.id}.json`;
  const input = page.getByLabel('Open events.json');
  if (text.length <= MAX_BUFFER) {
    await input.setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  } else {
    const dir = join(tmpdir(), 'bad-input-e2e');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, text);
    await input.setInputFiles(path);
  }
  // The file is read asynchronously; its name shows once it is in the store.
  await expect(page.getByText(name, { exact: true })).toBeVisible({ timeout: 60_000 });
}

/** The first problem of an editor's source, as the problems list shows it: "error Stream 3:3 …". */
async function firstProblem(page: Page, target: BadInputCase['target']): Promise<string | null> {
  const source = target === 'stream' ? 'Stream' : 'Config';
  const item = page
    .locator('.problems .problem')
    .filter({ has: page.locator('.problem-where', { hasText: new RegExp(`^${source} `) }) })
    .first();
  if ((await item.count()) === 0) return null;
  const part = async (name: string) =>
    ((await item.locator(name).textContent()) ?? '').replace(/\s+/g, ' ').trim();
  return `${await part('.problem-severity')} ${await part('.problem-where')} ${await part('.problem-message')}`;
}

/**
 * Checks the editor still holds `text`: its first line shows at the top and
 * its last line at the bottom (Monaco renders only the lines in view).
 */
async function expectTextKept(
  page: Page,
  target: BadInputCase['target'],
  text: string,
): Promise<void> {
  const lines = editorLines(page, target);
  const visible = text.split('\n').filter((line) => line.trim() !== '');
  if (visible.length === 0) {
    await expect(lines).toHaveText('');
    return;
  }
  const head = (line: string) => line.trim().slice(0, 40);
  await editor(page, LABELS[target]).focus();
  await page.keyboard.press('ControlOrMeta+Home');
  await expect(lines).toContainText(head(visible[0] as string));
  await page.keyboard.press('ControlOrMeta+End');
  await expect(lines).toContainText(head(visible.at(-1) as string));
}

/** How long the page takes to reflect a change of the tokenizer select, in ms. */
async function measureResponse(page: Page, timeout?: number): Promise<number> {
  const select = page.getByLabel('Tokenizer');
  const next = (await select.inputValue()) === 'chars' ? 'o200k' : 'chars';
  const start = Date.now();
  await select.selectOption(next);
  await expect(select).toHaveValue(next);
  const ms = Date.now() - start;
  await waitForResults(page, timeout);
  return ms;
}

/** Playwright colours its messages; the matrix wants plain text. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

test.describe('bad input in the browser', () => {
  test.afterAll(() => {
    writeMatrix();
  });

  for (const badCase of BAD_INPUT_CASES) {
    const notInUi = badCase.notIn?.ui;
    if (notInUi !== undefined) {
      // The cell says why; the case still appears in the matrix.
      test(`${badCase.id}: ${badCase.title} (UI: ${notInUi.split(':')[0]})`, () => {
        saveRecord({ id: badCase.id, ok: true, summary: notInUi });
      });
      continue;
    }
    test(`${badCase.id}: ${badCase.title}`, async ({ page }) => {
      test.setTimeout(badCase.via === 'file' ? 240_000 : 90_000);
      const text = badCase.build();
      const refused = !badCase.accepted || badCase.refusedInBrowser === true;
      const notes: string[] = [];
      let ok = false;
      try {
        await checkCase(page, badCase, text, refused, notes);
        ok = true;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        notes.push(`FAILED: ${shorten(message.replace(ANSI_COLOUR, ''), 160)}`);
        throw error;
      } finally {
        saveRecord({ id: badCase.id, ok, summary: notes.join('; ') });
      }
    });
  }
});

async function checkCase(
  page: Page,
  badCase: BadInputCase,
  text: string,
  refused: boolean,
  notes: string[],
): Promise<void> {
  const errors = recordConsoleErrors(page);
  await openPlayground(page);
  const goodStatus = (await statusLine(page).textContent()) ?? '';
  expect(goodStatus).toMatch(/^Saved/);

  if (badCase.encoding) {
    await page.getByLabel('Encoding').selectOption(badCase.encoding);
    await waitForResults(page);
  }
  if (badCase.view === 'bare') {
    await page.getByRole('radio', { name: 'Bare' }).click();
    await waitForResults(page);
  }
  const start = Date.now();
  await putInput(page, badCase, text);
  // A file case is a big input (megabytes, or thousands of tools, each with
  // its six what-if choices): its run can pass 15 s on a loaded machine.
  const longRun = badCase.via === 'file' ? 120_000 : undefined;
  await waitForResults(page, longRun);
  const resultsMs = Date.now() - start;

  // Not blank: the header, both editors and the results are there.
  await expect(page.getByRole('heading', { name: 'Compaction Playground' })).toBeVisible();
  await expect(page.locator('#editors .monaco-editor')).toHaveCount(2);
  await expect(results(page)).toBeVisible();

  const problem = await firstProblem(page, badCase.target);
  const status = (await statusLine(page).textContent()) ?? '';
  if (refused) {
    const position = badCase.refusedInBrowser ? { line: 1, column: 1 } : badCase.position;
    const source = badCase.target === 'stream' ? 'Stream' : 'Config';
    const expected = position ? `${source} ${position.line}:${position.column}` : source;
    expect(problem, 'the problems list names the error and its position').toContain(
      `error ${expected}`,
    );
    notes.push(`problem “${shorten(problem ?? '', 100)}” after ${seconds(resultsMs)}`);
    // The last good result stays, marked stale.
    await expect(results(page)).toHaveAttribute('data-stale', 'true');
    await expect(page.getByText('Last valid results')).toBeVisible();
    expect(status).toContain('with the last valid input');
    await expect(savingsTable(page).locator('tbody tr').first()).toBeVisible();
    notes.push('last result kept, marked stale');
  } else {
    await expect(results(page)).toHaveAttribute('data-stale', 'false');
    expect(status).toMatch(/^Saved/);
    notes.push(`results “${status}” after ${seconds(resultsMs)}`);
    if (problem) notes.push(`note “${shorten(problem, 90)}”`);
    if (badCase.checkTableRows) {
      const names = await savingsTable(page).locator('tbody th').allTextContents();
      expect(badCase.checkTableRows(names), 'the savings table rows').toBeUndefined();
      notes.push('table rows as expected');
    }
  }

  // The text is still in the editor: its first and its last line.
  await expectTextKept(page, badCase.target, text);
  notes.push('text kept');

  // The page still reacts, and recovers once the input is good again.
  notes.push(`tokenizer switch shown in ${await measureResponse(page, longRun)} ms`);
  if (refused) {
    const good = badCase.target === 'stream' ? GOOD_STREAM : GOOD_CONFIG;
    await setEditorText(page, LABELS[badCase.target], good);
    await waitForResults(page);
    await expect(results(page)).toHaveAttribute('data-stale', 'false');
    notes.push('recovers when fixed');
  }
  expect(errors, 'page and console errors').toEqual([]);
  notes.push('no page or console error');
}

function saveRecord(record: UiRecord): void {
  mkdirSync(UI_RECORDS, { recursive: true });
  writeFileSync(join(UI_RECORDS, `${record.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

function readUiRecords(): Map<string, UiRecord> {
  const records = new Map<string, UiRecord>();
  if (!existsSync(UI_RECORDS)) return records;
  for (const file of readdirSync(UI_RECORDS)) {
    const record = JSON.parse(readFileSync(join(UI_RECORDS, file), 'utf8')) as UiRecord;
    records.set(record.id, record);
  }
  return records;
}

function readCoreCliRows(): Map<string, CoreCliRow> {
  const path = join(ROOT, CORE_CLI_REPORT);
  if (!existsSync(path)) return new Map();
  const rows = JSON.parse(readFileSync(path, 'utf8')) as CoreCliRow[];
  return new Map(rows.map((row) => [row.id, row]));
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** Writes the matrix from every record there is; a column not run says so. */
function writeMatrix(): void {
  const ui = readUiRecords();
  const coreCli = readCoreCliRows();
  const notRun = (what: string) => `not run (${what})`;
  const rows = BAD_INPUT_CASES.map((badCase) => {
    const row = coreCli.get(badCase.id);
    const uiRecord = ui.get(badCase.id);
    const core = row ? row.core.summary : notRun('`npx vitest run src/core/playground/bad-input`');
    const cli = row ? `\`${row.cli.command}\`: ${row.cli.summary}` : notRun('as Core');
    const uiText = uiRecord ? uiRecord.summary : 'failed or not run (see the Playwright report)';
    return `| ${cell(badCase.title)} | ${cell(core)} | ${cell(cli)} | ${cell(uiText)} |`;
  });
  const text = `# Bad-input matrix

Generated from what the tests observed; do not edit. The Core and CLI
columns come from \`src/core/playground/bad-input.test.ts\` (through
\`${CORE_CLI_REPORT}\`), the UI column from
\`test/e2e/bad-input.spec.ts\`, which writes this file under \`npm run docs\`
(a plain test run writes \`test-reports/bad-input-matrix.md\` instead).
The cases are in \`src/test/bad-input-cases.ts\`; the limits in
[limits.md](limits.md).

- **Core**: \`parseEventsText\` (auto encoding) or \`parseConfigToml\`, as the
  CLI calls them (no size limits), then \`session.run\` with the good input
  beside the bad one and the browser's size limits.
- **CLI**: \`node bin/compaction-playground.mjs project FILE\` for a stream,
  \`report --config FILE good-events.json\` for a config. Errors must exit 2
  with one \`FILE:line:col: error: …\` line and no stack trace.
- **UI**: the production build in Chromium. Small inputs are pasted into the
  editor, big ones opened with "Open events.json or transcript". Checked every time: the
  page is not blank, the problems list names the error with its line and
  column, the text is still in the editor, the last good result stays
  marked stale, there is no page or console error, a tokenizer switch
  still shows, and fixing the input brings fresh results.

| case | Core | CLI | UI |
| --- | --- | --- | --- |
${rows.join('\n')}

## Paths that are not one bad input

Losing work is a sequence of steps, not an input, so these have browser
tests of their own rather than rows above (UI only; the CLI never holds work):

| path | browser test |
| --- | --- |
| Two tabs with large streams: reloading tab A shows tab A's work (per-tab autosave slots) | \`autosave.spec.ts\`: two tabs with large streams |
| A shared link over edited work, pasted into an open tab, offers Restore previous work | \`autosave.spec.ts\`: a shared link over edited work offers to restore it |
| A shared link opened in a fresh load over saved work offers Restore previous work | \`autosave.spec.ts\`: a shared link opened in a fresh load over saved work |
| A 5M-character stream is autosaved, survives a reload, and the save before it is kept | \`autosave.spec.ts\`: a 5M-character stream is autosaved |
| A reload in the middle of typing keeps the text being typed | \`share.spec.ts\`: autosave survives a reload in the middle of typing |
| A 60 KB config with a 30,000-part dotted key settles with results | \`hostile-config.spec.ts\` |
`;
  writeFileSync(MATRIX, text);
}
