/**
 * Issue 23 in workspace mode: a folder whose stored compactions carry `over`
 * (spec 15.1) is counted under the base the readings control shows. Under
 * JP main (2026-09, the default) the small responses and pairs are spared;
 * under JP 4c1c39f1 (2026-08) `over` is ignored and every one is caught.
 * Each base's figures are the CLI's `report --reading base=…` on the folder.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_RULE, OVER_STREAMS } from '../../src/test/fixtures/over-streams.ts';
import {
  cliReportRows,
  expect,
  openAdvanced,
  openPlayground,
  readToolRows,
  setEditorText,
  test,
  waitForResults,
} from './helpers.ts';
import { waitForWorkspace, workspace } from './workspace-helpers.ts';

/** The two conversations of `OVER_STREAMS` as a JP conversations folder. */
function overFolder(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'playground-base-')), 'conversations');
  OVER_STREAMS.forEach((text, index) => {
    const dir = join(root, `${index + 1}-over`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.json'), text);
  });
  return root;
}

test('switching base in workspace mode counts the folder again under it, as the CLI does', async ({
  page,
}) => {
  const folder = overFolder();
  const main = cliReportRows(EMPTY_RULE, folder);
  const pinned = cliReportRows(EMPTY_RULE, folder, undefined, ['base=2026-08']);
  // The folder is one whose figures differ between the bases.
  expect(pinned).not.toEqual(main);

  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', EMPTY_RULE);
  await waitForResults(page);
  await page.getByLabel('Open folder').setInputFiles(folder);
  await waitForWorkspace(page);
  expect(await readToolRows(page)).toEqual(main);
  const mainStatus = await workspace(page).getByRole('status').textContent();

  await openAdvanced(page);
  await page.getByRole('button', { name: /^D17 readings/ }).click();
  const panel = page.getByRole('dialog', { name: 'D17 readings' });
  await panel.getByRole('radio', { name: /^JP 4c1c39f1 \(2026-08\)/ }).check();
  await page.keyboard.press('Escape');
  await expect(workspace(page).getByRole('status')).not.toHaveText(mainStatus ?? '');
  await waitForWorkspace(page);
  await expect.poll(() => readToolRows(page)).toEqual(pinned);

  await openAdvanced(page);
  await page.getByRole('button', { name: /^D17 readings/ }).click();
  await panel.getByRole('radio', { name: /^JP main \(2026-09\)/ }).check();
  await page.keyboard.press('Escape');
  await waitForWorkspace(page);
  await expect.poll(() => readToolRows(page)).toEqual(main);
});
