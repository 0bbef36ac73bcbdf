/**
 * A config far under the 1 MiB limit but hostile in shape (issue 15): one
 * dotted key of 30,000 parts, 60 KB. The page must settle with a result
 * (the parse and the guidance are linear), not crash the tab.
 */
import {
  expect,
  openPlayground,
  readToolRows,
  setEditorText,
  test,
  waitForResults,
} from './helpers.ts';

test('a 60 KB config with a 30,000-part dotted key settles with a result', async ({ page }) => {
  test.slow();
  await openPlayground(page);
  const config = `[[conversation.compaction.rules]]\nkeep_last = 1\n[x]\n${Array(30_000).fill('k').join('.')} = 1\n`;
  expect(config.length).toBeGreaterThan(60_000);
  await setEditorText(page, 'Config (TOML)', config);
  await waitForResults(page);
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results).toHaveAttribute('data-status', 'done');
  // The example's tools are still counted under the pasted config.
  expect((await readToolRows(page)).length).toBeGreaterThan(0);
});
