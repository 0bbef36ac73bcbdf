/**
 * axe-core scans of the page as a user meets it: light and dark, each
 * dialog open, and workspace mode. A serious or critical violation fails
 * the test, listed with the elements it was found on. axe-core comes from
 * node_modules and is injected by Playwright: no request leaves the page.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openPlayground, test, waitForDiff } from './helpers.ts';
import { openCorpusFolder, waitForWorkspace } from './workspace-helpers.ts';

/** The serious and critical violations on the page now, one line per rule and element. */
async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (within) builder.include(within);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${node.failureSummary ?? ''}`,
      ),
    );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openPlayground(page);
      await waitForDiff(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    });

    test('the page has no serious or critical violation', async ({ page }) => {
      test.setTimeout(120_000);
      expect(await seriousViolations(page)).toEqual([]);
    });

    const dialogs: { button: string; dialog: string }[] = [
      { button: 'Examples', dialog: 'Examples' },
      { button: 'About', dialog: 'How compaction works here' },
      { button: 'Copy link', dialog: 'Link to this state' },
      { button: 'File', dialog: 'Playground file' },
      { button: 'Export', dialog: 'Export' },
    ];
    for (const { button, dialog } of dialogs) {
      // The page behind is scanned above; here, what the dialog adds.
      test(`the "${dialog}" dialog has no serious or critical violation`, async ({ page }) => {
        await page.getByRole('button', { name: button, exact: true }).click();
        await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
        expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
      });
    }
  });
}

test('workspace mode has no serious or critical violation', async ({ page }) => {
  // A whole-page scan with the workspace's tables takes long on a busy machine.
  test.setTimeout(180_000);
  await openPlayground(page);
  await openCorpusFolder(page);
  await waitForWorkspace(page);
  expect(await seriousViolations(page)).toEqual([]);
});
