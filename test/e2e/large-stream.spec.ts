/**
 * A large stream in the editor (issue 19): above 400,000 characters it is
 * plain text, and the editor's bar says so; the figures come from the file;
 * the editor, which takes the file a slice a task after its figures, ends up
 * holding all of it, and never undoes what is typed into it.
 */
import { readFileSync } from 'node:fs';
import {
  corpusFile,
  editor,
  expect,
  openPlayground,
  problemItems,
  readToolRows,
  savingsTable,
  test,
  waitForResults,
} from './helpers.ts';

const LARGEST = corpusFile('17738399468-rfd-review-and-phase-1-planning');

test('the 1.8 MB file opens as plain text, says so, and keeps what is typed into it', async ({
  page,
}) => {
  await openPlayground(page);
  const note = page.getByTestId('large-stream-note');
  await expect(note).toHaveCount(0);
  const rows = savingsTable(page).locator('tbody tr');
  const exampleRows = await rows.count();
  await page.getByLabel('Open events.json').setInputFiles(LARGEST);
  await waitForResults(page);
  await expect(note).toBeVisible();
  await expect(note).toHaveText('plain text');
  await expect(note).toHaveAttribute(
    'title',
    'Plain text above 400,000 characters: no JSON colours',
  );
  // The table is the file's now, not the example's.
  await expect(rows).not.toHaveCount(exampleRows);

  const fileRows = await readToolRows(page);

  // The editor takes the file a slice a task, after its figures; busy (and read-only) until then.
  await expect(page.locator('[data-editor="stream"]')).toHaveAttribute('aria-busy', 'false');
  await editor(page, 'Event stream (JSON)').focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('x');
  const errors = problemItems(page, 'error');
  await expect(errors).toHaveCount(1);
  await expect(errors.first()).toContainText("Unexpected 'x'");
  // At the file's very end, counted from the file itself: the editor holds all of it, in order.
  const fileLines = readFileSync(LARGEST, 'utf8').split(/\r\n|\r|\n/);
  const end = `${fileLines.length}:${(fileLines.at(-1) ?? '').length + 1}`;
  await expect(errors.first()).toContainText(end);
  // Had the editor been handed an older text (without the x), the next key would go after
  // that text, and the stream would read "y" where the x was.
  await page.keyboard.type('y');
  await waitForResults(page);
  await expect(errors).toHaveCount(1);
  await expect(errors.first()).toContainText("Unexpected 'x'");

  // Without the two keys, the stream is the file again: the same figures as when it opened.
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(errors).toHaveCount(0);
  await waitForResults(page);
  expect(await readToolRows(page)).toEqual(fileRows);
});
