/**
 * axe-core scans of the page as a user meets it: light and dark, each
 * dialog open, and workspace mode. A serious or critical violation fails
 * the test, listed with the elements it was found on. axe-core comes from
 * node_modules and is injected by Playwright: no request leaves the page.
 */
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import { expect, openPlayground, showPane, test, waitForDiff, waitForResults } from './helpers.ts';
import { openCostSection } from './replay-helpers.ts';
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
      { button: 'Shortcuts', dialog: 'Keyboard shortcuts' },
      { button: 'Copy link', dialog: 'Link to this state' },
      { button: 'File', dialog: 'Playground file' },
      { button: 'Export', dialog: 'Export' },
    ];
    for (const { button, dialog } of dialogs) {
      // The page behind is scanned above; here, what the dialog adds.
      test(`the "${dialog}" dialog has no serious or critical violation`, async ({ page }) => {
        // A scan can take over a minute when the machine is busy.
        test.setTimeout(120_000);
        await page.getByRole('button', { name: button, exact: true }).click();
        await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
        expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
      });
    }

    test('each "Hints for …" export dialog has no serious or critical violation', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const exportButton = page.getByRole('button', { name: 'Export', exact: true });
      await exportButton.click();
      const targets = await page
        .getByRole('region', { name: "Hints as another agent's config" })
        .getByRole('button')
        .allTextContents();
      // Anthropic, OpenAI Agents, Vercel and LangChain's two: every one is scanned.
      expect(targets.length).toBeGreaterThanOrEqual(5);
      await page.keyboard.press('Escape');
      const found: string[] = [];
      for (const target of targets) {
        // By keyboard, as peer-export.spec.ts does: a click waits for the button to hold still, which a busy page can delay past the timeout.
        await exportButton.focus();
        await page.keyboard.press('Enter');
        await page.getByRole('button', { name: target, exact: true }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: `Hints for ${target}` });
        await expect(dialog).toBeVisible();
        found.push(...(await seriousViolations(page, '[role="dialog"]')));
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      }
      expect(found).toEqual([]);
    });

    test('the link-error dialog has no serious or critical violation', async ({ page }) => {
      // A payload that cannot be decompressed: only the hash changes, so the page decodes it in place.
      await page.goto('/#v1/not-a-compressed-payload');
      await expect(
        page.getByRole('dialog', { name: 'This link could not be opened' }),
      ).toBeVisible();
      expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    });

    test('workspace mode has no serious or critical violation', async ({ page }) => {
      // A whole-page scan with the workspace's tables takes long on a busy machine.
      test.setTimeout(180_000);
      await openCorpusFolder(page);
      await waitForWorkspace(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

/** Every violation on the page now, of any impact, one line per rule and element. */
async function allViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`,
    ),
  );
}

// Issue 41: a real Claude Code session with the money line and every cost section open, at
// a phone's, a laptop's and a desktop's width: no violation of any impact (Monaco's dimmed
// last line number was one, at 1.75:1).
for (const scheme of ['light', 'dark'] as const) {
  test(`a Claude Code session with the cost sections open has no violation at any width (${scheme})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openPlayground(page);
    await page
      .getByLabel('Open events.json')
      .setInputFiles(
        join(SHARED_DIR, 'corpus', 'agent-transcripts', 'claude-code', 'toolpath__convo.jsonl'),
      );
    await waitForResults(page, 60_000);
    await expect(page.getByTestId('session-cost')).toBeVisible();
    await showPane(page, 'cost');
    // JP's schedules: the per-tool what-if is JP's (under claude-code it is a sentence).
    await page.locator('#pane-cost').getByLabel('Clearing policy').selectOption('jp');
    await openCostSection(page, 'Policies side by side');
    await openCostSection(page, 'Per tool, in money');
    const found: string[] = [];
    for (const width of [390, 1024, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      found.push(...(await allViolations(page)).map((line) => `${width} px: ${line}`));
    }
    expect(found).toEqual([]);
  });
}
