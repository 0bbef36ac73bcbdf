/**
 * A newcomer's second look (issue 24): what the page does on its own must be
 * in sight. A line clicked in the diff explains its event where it can be
 * read, and the editor's keys tip never covers the line being typed.
 */
import type { Locator, Page } from '@playwright/test';
import { editor, expect, openPlayground, test, toolRow, waitForDiff } from './helpers.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box: the element is not rendered');
  return box;
}

/** True when the box lies wholly inside the viewport (a pixel of rounding allowed). */
async function isInViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  return (
    box.y >= -1 &&
    box.x >= -1 &&
    box.y + box.height <= size.height + 1 &&
    box.x + box.width <= size.width + 1
  );
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const size of [
  { width: 1024, height: 700 },
  { width: 390, height: 844 },
]) {
  test(`a line clicked in the diff brings its explanation into view at ${size.width} px`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await openPlayground(page);
    await toolRow(page, 'run_tests').click();
    await waitForDiff(page);
    const header = page
      .locator('#pane-diff .editor.modified .view-line')
      .filter({ hasText: /^##\s+tool_call_request\s/ })
      .first();
    await header.scrollIntoViewIfNeeded();
    const explanation = page.locator('#pane-explain').getByRole('article');
    // Before the click the explain pane lies below the diff, out of sight.
    expect(await isInViewport(page, page.locator('#pane-explain'))).toBe(false);
    await header.click();
    await expect(explanation).toContainText('tool_call_request · run_tests');
    // The sentence that explains the event, and the facts under it, are on screen.
    await expect
      .poll(() => isInViewport(page, explanation.locator('.cp-explain-sentence')))
      .toBe(true);
    await expect
      .poll(() => isInViewport(page, explanation.locator('.cp-facts').first()))
      .toBe(true);
  });
}

for (const label of ['Config (TOML)', 'Event stream (JSON)']) {
  test(`the keys tip of the ${label} editor covers no text of the line being typed`, async ({
    page,
  }) => {
    await openPlayground(page);
    const surface = editor(page, label);
    await surface.focus();
    // The last line, at the bottom of the editor's view, where the tip sits.
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' ');
    const tip = page.locator('.editor-host:focus-within .editor-keys');
    await expect(tip).toBeVisible();
    const host = page.locator('.editor-host:focus-within');
    const cursorLine = host.locator('.view-overlays .current-line').first();
    await expect(cursorLine).toBeVisible();
    const lineBox = await boxOf(cursorLine);
    const tipBox = await boxOf(tip);
    expect(
      overlaps(tipBox, lineBox),
      `tip ${JSON.stringify(tipBox)} over line ${JSON.stringify(lineBox)}`,
    ).toBe(false);
    // Nor any other line's text in view.
    const editorBox = await boxOf(host.locator('.monaco-editor'));
    expect(overlaps(tipBox, editorBox)).toBe(false);
  });
}
