/**
 * A large stream in the editor (issue 19): above 400,000 characters it is
 * plain text, and the editor's bar says so; the figures come from the file,
 * and the editor, which takes a new text one task after the store, never
 * undoes what is typed into it.
 */
import {
  corpusFile,
  editor,
  expect,
  openPlayground,
  problemItems,
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

  await editor(page, 'Event stream (JSON)').focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('x');
  const errors = problemItems(page, 'error');
  await expect(errors).toHaveCount(1);
  await expect(errors.first()).toContainText("Unexpected 'x'");
  // Had the editor been handed an older text (without the x), the next key would go after
  // that text, and the stream would read "y" where the x was.
  await page.keyboard.type('y');
  await waitForResults(page);
  await expect(errors).toHaveCount(1);
  await expect(errors.first()).toContainText("Unexpected 'x'");
});
