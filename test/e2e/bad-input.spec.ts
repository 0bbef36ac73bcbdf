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
  PAGE_ONLY_REPRODUCERS,
  shorten,
} from '../../src/test/bad-input-cases.ts';
import {
  editor,
  expect,
  openAdvanced,
  openPlayground,
  recordConsoleErrors,
  results,
  savingsTable,
  setEditorText,
  statusLine,
  test,
  waitForEditors,
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

/** The inputs that have an editor (a link is opened in the address). */
type EditorTarget = keyof typeof LABELS;

/** What the UI column observed for one case. */
interface UiRecord {
  id: string;
  ok: boolean;
  summary: string;
}

/** The visible text area of an editor (Monaco renders only the lines in view). */
function editorLines(page: Page, target: EditorTarget): Locator {
  return target === 'stream'
    ? page.locator('.drop-zone .view-lines')
    : page.locator('#config-panel .view-lines');
}

async function putInput(
  page: Page,
  badCase: BadInputCase,
  target: EditorTarget,
  text: string,
): Promise<void> {
  if (badCase.via === 'editor') {
    await setEditorText(page, LABELS[target], text);
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

/** The problems list's items of an editor's source. */
function sourceProblems(page: Page, target: EditorTarget): Locator {
  const source = target === 'stream' ? 'Stream' : 'Config';
  return page
    .locator('.problems .problem')
    .filter({ has: page.locator('.problem-where', { hasText: new RegExp(`^${source} `) }) });
}

/** The first problem of an editor's source, as the problems list shows it: "error Stream 3:3 …". */
async function firstProblem(page: Page, target: EditorTarget): Promise<string | null> {
  const item = sourceProblems(page, target).first();
  if ((await item.count()) === 0) return null;
  const part = async (name: string) =>
    ((await item.locator(name).textContent()) ?? '').replace(/\s+/g, ' ').trim();
  return `${await part('.problem-severity')} ${await part('.problem-where')} ${await part('.problem-message')}`;
}

/**
 * Checks the editor still holds `text`: its first line shows at the top and
 * its last line at the bottom (Monaco renders only the lines in view).
 */
async function expectTextKept(page: Page, target: EditorTarget, text: string): Promise<void> {
  const lines = editorLines(page, target);
  const visible = text.split('\n').filter((line) => line.trim() !== '');
  if (visible.length === 0) {
    await expect(lines).toHaveText('');
    return;
  }
  const head = (line: string) => line.trim().slice(0, 40);
  // A large text goes into the editor a slice a task; the editor is busy until all of it is in.
  await expect(page.locator(`[data-editor="${target}"]`)).toHaveAttribute('aria-busy', 'false', {
    timeout: 60_000,
  });
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

  test('each page-only reproducer the matrix lists is a test under that title', () => {
    for (const item of PAGE_ONLY_REPRODUCERS) {
      const source = readFileSync(join(ROOT, item.file), 'utf8');
      expect(source, `${item.file} has the test “${item.test}”`).toContain(item.test);
    }
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
        if (badCase.target === 'link') await checkLink(page, badCase, text, notes);
        else if (badCase.bytes) await checkRefusedFile(page, badCase, notes);
        else await checkCase(page, badCase, badCase.target, text, refused, notes);
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
  target: EditorTarget,
  text: string,
  refused: boolean,
  notes: string[],
): Promise<void> {
  const errors = recordConsoleErrors(page);
  await openPlayground(page);
  const goodStatus = (await statusLine(page).textContent()) ?? '';
  expect(goodStatus).toMatch(/^Saved/);

  if (badCase.encoding) {
    await openAdvanced(page);
    await page.getByLabel('Encoding').selectOption(badCase.encoding);
    await waitForResults(page);
  }
  if (badCase.view === 'bare') {
    await openAdvanced(page);
    await page.getByRole('radio', { name: 'Bare' }).click();
    await waitForResults(page);
  }
  const start = Date.now();
  await putInput(page, badCase, target, text);
  // A file case is a big input (megabytes, or thousands of tools, each with
  // its six what-if choices): its run can pass 15 s on a loaded machine.
  const longRun = badCase.via === 'file' ? 120_000 : undefined;
  await waitForResults(page, longRun);
  const resultsMs = Date.now() - start;

  // Not blank: the header, both editors and the results are there.
  await expect(page.getByRole('heading', { name: 'Compaction Playground' })).toBeVisible();
  await expect(page.locator('#editors .monaco-editor')).toHaveCount(2);
  await expect(results(page)).toBeVisible();

  const problem = await firstProblem(page, target);
  const status = (await statusLine(page).textContent()) ?? '';
  if (refused) {
    const position = badCase.refusedInBrowser ? { line: 1, column: 1 } : badCase.position;
    const source = target === 'stream' ? 'Stream' : 'Config';
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
    if (badCase.checkStatus) expect(badCase.checkStatus(status), 'the status line').toBeUndefined();
    else expect(status).toMatch(/^Saved/);
    notes.push(`results “${status}” after ${seconds(resultsMs)}`);
    if (problem) notes.push(`note “${shorten(problem, 90)}”`);
    if (badCase.checkProblems) {
      const messages = await sourceProblems(page, target)
        .locator('.problem-message')
        .allTextContents();
      expect(badCase.checkProblems(messages), 'the problems list').toBeUndefined();
      notes.push(`problems as expected (${messages.length} listed)`);
    }
    if (badCase.exportDialog) {
      const snippet = await readExportSnippet(page, badCase.exportDialog);
      expect(badCase.checkStdout?.(snippet), 'the export dialog’s snippet').toBeUndefined();
      notes.push(`the “${badCase.exportDialog}” dialog’s snippet as the CLI’s`);
    }
    if (badCase.checkTableRows) {
      const names = await savingsTable(page).locator('tbody th').allTextContents();
      expect(badCase.checkTableRows(names), 'the savings table rows').toBeUndefined();
      notes.push('table rows as expected');
    }
  }

  // The text is still in the editor: its first and its last line.
  await expectTextKept(page, target, text);
  notes.push('text kept');

  // The page still reacts, and recovers once the input is good again.
  notes.push(`tokenizer switch shown in ${await measureResponse(page, longRun)} ms`);
  if (refused) {
    const good = target === 'stream' ? GOOD_STREAM : GOOD_CONFIG;
    await setEditorText(page, LABELS[target], good);
    await waitForResults(page);
    await expect(results(page)).toHaveAttribute('data-stale', 'false');
    notes.push('recovers when fixed');
  }
  expect(errors, 'page and console errors').toEqual([]);
  notes.push('no page or console error');
}

/** Opens an export target's dialog from the Export menu and reads its snippet; the dialog is closed again. */
async function readExportSnippet(page: Page, title: string): Promise<string> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('button', { name: title }).click();
  const dialog = page.getByRole('dialog', { name: `Hints for ${title}` });
  await expect(dialog.locator('[data-status]')).toHaveAttribute('data-status', 'done');
  const snippet = await dialog.getByTestId('peer-snippet').inputValue();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  return snippet;
}

/**
 * A file the page refuses to open (not UTF-8), picked and then dropped: each
 * time a notice names the file and the position, and the editors, the
 * results and the page go on as they were.
 */
async function checkRefusedFile(page: Page, badCase: BadInputCase, notes: string[]): Promise<void> {
  const errors = recordConsoleErrors(page);
  await openPlayground(page);
  const status = (await statusLine(page).textContent()) ?? '';
  const lines = editorLines(page, 'stream');
  const shown = await lines.textContent();
  const bytes = badCase.bytes?.() ?? new Uint8Array();
  const name = `${badCase.id}.json`;
  const position = badCase.position ?? { line: 1, column: 1 };
  const notices = page.getByRole('region', { name: 'Notifications' }).locator('.toast');
  for (const how of ['picked', 'dropped'] as const) {
    if (how === 'picked') {
      await page.getByLabel('Open events.json').setInputFiles({
        name,
        mimeType: 'application/json',
        buffer: Buffer.from(bytes),
      });
    } else {
      await page.locator('.drop-zone').evaluate(
        (zone, file) => {
          const transfer = new DataTransfer();
          const type = 'application/json';
          transfer.items.add(new File([new Uint8Array(file.data)], file.name, { type }));
          for (const event of ['dragover', 'drop']) {
            const init = { dataTransfer: transfer, bubbles: true, cancelable: true };
            zone.dispatchEvent(new DragEvent(event, init));
          }
        },
        { name, data: [...bytes] },
      );
    }
    const notice = notices.filter({ hasText: `${name} was not opened` });
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText(`(line ${position.line}, column ${position.column})`);
    if (badCase.message) await expect(notice).toContainText(badCase.message);
    if (how === 'picked')
      notes.push(`notice “${shorten((await notice.textContent()) ?? '', 110)}”`);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
  }
  notes.push('the same when dropped');
  // Nothing was replaced: the editor's text, its file name and the results are as they were.
  await expect(lines).toHaveText(shown ?? '');
  await expect(page.getByText(name, { exact: true })).toHaveCount(0);
  await expect(results(page)).toHaveAttribute('data-stale', 'false');
  await expect(statusLine(page)).toHaveText(status);
  notes.push('editor text and results kept');
  notes.push(`tokenizer switch shown in ${await measureResponse(page)} ms`);
  expect(errors, 'page and console errors').toEqual([]);
  notes.push('no page or console error');
}

/** A share link opened in the address: a dialog says why it was not opened, and the default example works. */
async function checkLink(
  page: Page,
  badCase: BadInputCase,
  hash: string,
  notes: string[],
): Promise<void> {
  const errors = recordConsoleErrors(page);
  const start = Date.now();
  await page.goto(`/${hash}`);
  const dialog = page.getByRole('dialog', { name: 'This link could not be opened' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  const said = dialog.getByText(badCase.message ?? /./).first();
  await expect(said).toBeVisible();
  await expect(dialog).toContainText('shows the default example');
  notes.push(
    `dialog “${shorten((await said.textContent()) ?? '', 110)}” after ${seconds(Date.now() - start)}`,
  );
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await waitForEditors(page);
  await waitForResults(page);
  await expect(statusLine(page)).toHaveText(/^Saved/);
  notes.push('the default example’s results');
  notes.push(`tokenizer switch shown in ${await measureResponse(page)} ms`);
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
    const cli = !row
      ? notRun('as Core')
      : row.cli.command === ''
        ? row.cli.summary
        : `\`${row.cli.command}\`: ${row.cli.summary}`;
    const uiText = uiRecord ? uiRecord.summary : 'failed or not run (see the Playwright report)';
    return `| ${cell(badCase.title)} | ${cell(core)} | ${cell(cli)} | ${cell(uiText)} |`;
  });
  const pageOnly = PAGE_ONLY_REPRODUCERS.map(
    (item) => `| ${cell(item.path)} | \`${item.file}\`: ${cell(item.test)} |`,
  );
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
  beside the bad one and the browser's size limits; \`decodeUtf8\` first
  for a file's bytes, \`decodeShareHash\` for a share link.
- **CLI**: \`node bin/compaction-playground.mjs project FILE\` for a stream,
  \`report --config FILE good-events.json\` for a config. Errors must exit 2
  with one \`FILE:line:col: error: …\` line and no stack trace. A case with
  files beside its input (a \`metadata.json\`) runs on a folder, \`FOLDER\`,
  holding them and the input as \`events.json\`; a case naming its input in
  \`--output FILE\` checks what FILE holds afterwards, and that no temporary
  file is left.
- **UI**: the production build in Chromium. Small inputs are pasted into the
  editor, big ones opened with "Open events.json or transcript". Checked every time: the
  page is not blank, the problems list names the error with its line and
  column, the text is still in the editor, the last good result stays
  marked stale, there is no page or console error, a tokenizer switch
  still shows, and fixing the input brings fresh results. A file that is
  not UTF-8 is picked and then dropped: each time it is refused with a
  notice naming its line and column, and the editors and results stay as
  they were. A share link is opened in the address: a dialog says why, and
  the default example works.

| case | Core | CLI | UI |
| --- | --- | --- | --- |
${rows.join('\n')}

## Paths that are not one bad input

Losing work, a dead worker and a tab on an older build are sequences of
steps in the page, not one input, so these have tests of their own rather
than rows above (the page only; the CLI holds no work). Each test is checked
to exist under this title when the matrix is written.

| path | test |
| --- | --- |
${pageOnly.join('\n')}
`;
  writeFileSync(MATRIX, text);
}
