/**
 * The page works from the keyboard alone (WCAG 2.1.2, no keyboard trap):
 * Tab leaves every editor without changing its text, the way to indent is
 * shown where focus lands, and the app's own shortcuts are listed.
 */
import type { Page } from '@playwright/test';
import { editor, expect, openAdvanced, openPlayground, test, waitForDiff } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

/**
 * The lines a Monaco editor renders now, top to bottom, one per line. Monaco
 * renders only the lines in view (and in any DOM order), so this is the part
 * of the text on screen, not its model; an inserted line shows as a shift.
 */
async function renderedLines(page: Page, label: string): Promise<string> {
  return editor(page, label).evaluate((element) => {
    const host = element.closest('.monaco-editor');
    const lines = [...(host?.querySelectorAll<HTMLElement>('.view-lines .view-line') ?? [])];
    return lines
      .sort((a, b) => Number.parseFloat(a.style.top) - Number.parseFloat(b.style.top))
      .map((line) => line.textContent ?? '')
      .join('\n');
  });
}

for (const label of ['Config (TOML)', 'Event stream (JSON)']) {
  test(`Tab and Shift+Tab leave the ${label} editor and leave its text as it was`, async ({
    page,
  }) => {
    const surface = editor(page, label);
    const before = await renderedLines(page, label);
    await surface.focus();
    await expect(surface).toBeFocused();
    // Focus lands in the editor: the way to indent is shown next to it.
    await expect(
      page.locator('.editor-host:focus-within').getByText('Tab leaves the editor'),
    ).toBeVisible();

    await page.keyboard.press('Tab');
    await expect(surface).not.toBeFocused();
    expect(await renderedLines(page, label)).toBe(before);

    await surface.focus();
    await page.keyboard.press('Shift+Tab');
    await expect(surface).not.toBeFocused();
    expect(await renderedLines(page, label)).toBe(before);
  });
}

test('Tab leaves both sides of the transcript diff', async ({ page }) => {
  await waitForDiff(page);
  const sides = page.locator(
    '#pane-diff .monaco-editor textarea, #pane-diff .monaco-editor .native-edit-context',
  );
  const count = await sides.count();
  expect(count).toBeGreaterThanOrEqual(2);
  for (let index = 0; index < count; index++) {
    const side = sides.nth(index);
    await side.focus();
    await expect(side).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(side).not.toBeFocused();
  }
});

test('Ctrl+] indents the config line on purpose', async ({ page }) => {
  const surface = editor(page, 'Config (TOML)');
  await surface.focus();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ControlOrMeta+BracketRight');
  await expect(page.locator('#config-panel .view-line').first()).toHaveText(/^\s{2}#/);
});

test('? opens the shortcut list outside the editors, and types a ? inside them', async ({
  page,
}) => {
  await page.locator('body').press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Copy a link to this state')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const surface = editor(page, 'Config (TOML)');
  await surface.focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('?');
  await expect(dialog).toBeHidden();
  expect(await renderedLines(page, 'Config (TOML)')).toContain('?');
});

test('Ctrl+S in the config editor copies the link and leaves the text as it was', async ({
  page,
}) => {
  const surface = editor(page, 'Config (TOML)');
  const before = await renderedLines(page, 'Config (TOML)');
  await surface.focus();
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByRole('dialog', { name: 'Link to this state' })).toBeVisible();
  expect(await renderedLines(page, 'Config (TOML)')).toBe(before);
});

/** The toast that confirms a Compact (first-visit.spec.ts checks its wording). */
function appended(page: Page) {
  return page.getByRole('region', { name: 'Notifications' }).getByText(/^Appended 1 compaction/);
}

test('Ctrl+Enter compacts with the focus outside the editors', async ({ page }) => {
  await openAdvanced(page);
  const compact = page.getByRole('button', { name: 'Compact', exact: true });
  await expect(compact).toBeEnabled();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.locator('body').press('ControlOrMeta+Enter');
  await expect(appended(page)).toBeVisible();
  // The identical compaction is now stored: nothing new to compact.
  await expect(compact).toBeDisabled();
});

test('Ctrl+Enter in the config editor compacts and adds no newline to the config', async ({
  page,
}) => {
  const surface = editor(page, 'Config (TOML)');
  await surface.focus();
  // The caret at the end of line 1: a newline would push every line below it down.
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('End');
  // The first lines only: Compact's reason line in the header can leave the editor one line shorter.
  const top = async () => (await renderedLines(page, 'Config (TOML)')).split('\n').slice(0, 6);
  const before = await top();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(appended(page)).toBeVisible();
  expect(await top()).toEqual(before);
  await expect(surface).toBeFocused();
});
