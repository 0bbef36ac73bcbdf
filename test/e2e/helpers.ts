/**
 * The e2e test vocabulary: wait for app state (never for fixed delays), set
 * an editor's text the way a person pastes it, and watch what the page asks
 * of the network and prints to the console.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The results region. */
export function results(page: Page): Locator {
  return page.getByRole('region', { name: 'Results' });
}

/**
 * Waits until the results describe the current input: a run has happened
 * (`data-status` is no longer `idle`) and none is pending (`aria-busy="false"`).
 */
export async function waitForResults(page: Page): Promise<void> {
  await expect(results(page)).toHaveAttribute('aria-busy', 'false');
  await expect(results(page)).not.toHaveAttribute('data-status', 'idle');
}

/** The editable surface of the Monaco editor with this accessible name. */
export function editor(page: Page, label: string): Locator {
  return page.getByRole('textbox', { name: label });
}

/**
 * Waits until both Monaco editors are mounted. Monaco's input surface is a
 * zero-size element (an EditContext host), so it is attached, never "visible".
 */
export async function waitForEditors(page: Page): Promise<void> {
  await expect(editor(page, 'Config (TOML)')).toBeAttached();
  await expect(editor(page, 'Event stream (JSON)')).toBeAttached();
  await expect(page.locator('.monaco-editor')).toHaveCount(2);
}

/**
 * Replaces an editor's whole text. `insertText` pastes in one go: typing
 * key by key would be mangled by auto-closing brackets and quotes.
 */
export async function setEditorText(page: Page, label: string, text: string): Promise<void> {
  const surface = editor(page, label);
  await surface.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Collects every request that leaves the page's origin. */
export function recordForeignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    // data: and blob: URLs never reach the network.
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  return foreign;
}

/** Collects console errors and uncaught page errors. */
export function recordConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  return errors;
}
