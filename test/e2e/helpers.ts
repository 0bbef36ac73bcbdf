/**
 * The e2e test vocabulary: wait for app state (never for fixed delays), set
 * an editor's text the way a person pastes it, and watch what the page asks
 * of the network and prints to the console. Specs import `test` and `expect`
 * from here: every test then fails if a request leaves the origin or the
 * console shows an error.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { CORPUS_DIR } from '../../src/test/conformance.ts';

export { README_CONFIG_TOML } from '../../src/test/corpus.ts';
export { expect };

/** The `events.json` of a corpus conversation (`../shared/corpus/jp-conversations/<id>/`). */
export function corpusFile(id: string): string {
  return join(CORPUS_DIR, id, 'events.json');
}

/** Where the preview server serves the production build (playwright.config.ts). */
export const ORIGIN = `http://127.0.0.1:${process.env.PW_PORT ?? 4173}`;

/** The results region. */
export function results(page: Page): Locator {
  return page.getByRole('region', { name: 'Results' });
}

/**
 * Waits until the results describe the current input: a run has happened
 * (`data-status` is no longer `idle`) and none is pending (`aria-busy="false"`).
 * `timeout` for inputs whose run is known to be long (the expect default otherwise).
 */
export async function waitForResults(page: Page, timeout?: number): Promise<void> {
  await expect(results(page)).toHaveAttribute('aria-busy', 'false', { timeout });
  await expect(results(page)).not.toHaveAttribute('data-status', 'idle');
  // The panes in view ask for their extras once the figures are in: each is busy until its own arrives.
  await expect(results(page).locator('.extra-pane[aria-busy="true"]')).toHaveCount(0, { timeout });
}

/**
 * `waitForResults`'s three conditions, checked inside the page at every
 * animation frame: for a window whose main-thread tasks are measured.
 * `expect` polls from outside, and each poll that finds the results still
 * busy runs Playwright's script in the page (role queries, an aria snapshot
 * for its message): with 50,000 tools that was a task of 40 to 155 ms on the
 * page's main thread (traces of `many-tools-perf.spec.ts`, 4 Dec), which the
 * measure counted as the page's own.
 */
export async function waitForResultsInPage(page: Page, timeout?: number): Promise<void> {
  await page.waitForFunction(
    () => {
      const region = document.querySelector('section[aria-label="Results"]');
      return (
        region !== null &&
        region.getAttribute('aria-busy') === 'false' &&
        region.getAttribute('data-status') !== 'idle' &&
        region.querySelector('.extra-pane[aria-busy="true"]') === null
      );
    },
    null,
    { polling: 'raf', timeout },
  );
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
  // The editors load after the first figures (issue 14): on a loaded
  // machine that is well past the default 15 s. Room, not a speed claim.
  const timeout = 60_000;
  await expect(editor(page, 'Config (TOML)')).toBeAttached({ timeout });
  await expect(editor(page, 'Event stream (JSON)')).toBeAttached({ timeout });
  await expect(page.locator('#editors .monaco-editor')).toHaveCount(2, { timeout });
}

/**
 * Replaces an editor's whole text in one edit, the way Ctrl+V over a
 * selection does: the text arrives exactly as given. Typing (even
 * `insertText`) would go through auto-closing and auto-indent, and deleting
 * first would make two edits; on a slow machine the empty text between them
 * gets its own run.
 */
export async function setEditorText(page: Page, label: string, text: string): Promise<void> {
  const surface = editor(page, label);
  await surface.focus();
  await page.keyboard.press('ControlOrMeta+A');
  if (text === '') {
    await page.keyboard.press('Delete');
    return;
  }
  await surface.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
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

/**
 * Playwright's `test` with an automatic guard: it records, from the first
 * request on, what leaves the origin and what the console reports as an
 * error, and checks both are empty when the test ends.
 */
export const test = base.extend<{ offlineAndQuiet: undefined }>({
  offlineAndQuiet: [
    async ({ page }, use) => {
      const foreign = recordForeignRequests(page, ORIGIN);
      const errors = recordConsoleErrors(page);
      await use(undefined);
      expect(foreign, 'requests that left the origin').toEqual([]);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

/** Opens the playground and waits until the editors and the first results are there. */
export async function openPlayground(page: Page): Promise<void> {
  await page.goto('/');
  await waitForEditors(page);
  await waitForResults(page);
}

/** The status line that announces the headline figure. */
/** The items of the Problems list with one severity (guidance is listed there too). */
export function problemItems(page: Page, severity: 'error' | 'warning' | 'info'): Locator {
  return page.locator(`.problems li[data-severity="${severity}"]`);
}

export function statusLine(page: Page): Locator {
  return results(page).getByTestId('status-line');
}

/** The savings table (named by its caption). */
export function savingsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Savings per tool' });
}

/** The row of one tool in the savings table, found by its first cell's exact text. */
export function toolRow(page: Page, name: string): Locator {
  return savingsTable(page)
    .locator('tbody tr')
    .filter({ has: page.locator('th', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One tool row's figures as the CLI's `report --json` names them. */
export interface RowFigures {
  name: string;
  calls: number;
  requestBefore: number;
  requestAfter: number;
  responseBefore: number;
  responseAfter: number;
  saved: number;
}

/** One tool of `report --json`. */
interface CliTool {
  name: string;
  calls: number;
  request: { before: { tokens: number }; after: { tokens: number } };
  response: { before: { tokens: number }; after: { tokens: number } };
  saved: { tokens: number };
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The CLI's per-tool figures, as the savings table shows them:
 * `report --config <config> --json <target>`, the target a file or a folder,
 * under `--reading` each of `readings` (`base=2026-08`).
 */
export function cliReportRows(
  config: string,
  target: string,
  tokenizer?: string,
  readings: readonly string[] = [],
): RowFigures[] {
  const dir = mkdtempSync(join(tmpdir(), 'playground-e2e-'));
  const configPath = join(dir, 'hints.toml');
  writeFileSync(configPath, config);
  const args = ['bin/compaction-playground.mjs', 'report', '--config', configPath, '--json'];
  if (tokenizer) args.push('--tokenizer', tokenizer);
  for (const reading of readings) args.push('--reading', reading);
  const output = execFileSync(process.execPath, [...args, target], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return (JSON.parse(output) as { tools: CliTool[] }).tools.map((tool) => ({
    name: tool.name,
    calls: tool.calls,
    requestBefore: tool.request.before.tokens,
    requestAfter: tool.request.after.tokens,
    responseBefore: tool.response.before.tokens,
    responseAfter: tool.response.after.tokens,
    saved: tool.saved.tokens,
  }));
}

/**
 * Reads every tool row of the savings table: the token figures, which lead
 * each cell ("1,052 → 3" above "3,198 → 6 chars").
 */
export async function readToolRows(page: Page): Promise<RowFigures[]> {
  return savingsTable(page).evaluate((table) => {
    const number = (text: string) => Number(text.replaceAll(',', ''));
    const pair = (cell: Element | undefined) => {
      const figure = cell?.firstChild?.textContent ?? '';
      const [before = '', after = ''] = figure.split('→').map((part) => part.trim());
      return [number(before), number(after)] as const;
    };
    // Spacer rows stand for the rows a long (virtual) table has not drawn.
    const rows = [...((table as HTMLTableElement).tBodies[0]?.rows ?? [])].filter(
      (row) => !row.classList.contains('cp-virtual-spacer'),
    );
    return rows.map((row) => {
      const [requestBefore, requestAfter] = pair(row.cells[2]);
      const [responseBefore, responseAfter] = pair(row.cells[3]);
      return {
        name: row.cells[0]?.textContent ?? '',
        calls: number(row.cells[1]?.textContent ?? ''),
        requestBefore,
        requestAfter,
        responseBefore,
        responseAfter,
        saved: number(row.cells[4]?.firstChild?.textContent ?? ''),
      };
    });
  });
}

/**
 * Scrolls a result pane into view, as a person does to look at it, and waits
 * for its extra: a pane computes only while it is in view.
 */
export async function showPane(page: Page, id: string, timeout?: number): Promise<void> {
  const pane = page.locator(`#pane-${id}`);
  // Panes above can grow as their own extras arrive and push this one out of
  // view again: scroll to it again, as a person would, until it stays.
  await expect(async () => {
    await pane.scrollIntoViewIfNeeded();
    await expect(pane).toHaveAttribute('data-in-view', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(pane.locator('.extra-pane[aria-busy="true"]')).toHaveCount(0, { timeout });
}

/** Waits until the transcript diff has compared the current before and after. */
export async function waitForDiff(page: Page): Promise<void> {
  await showPane(page, 'diff');
  await expect(page.locator('#pane-diff .monaco-diff-editor')).toBeAttached();
  await expect(page.locator('#pane-diff [data-current="true"] .cp-transcript')).toHaveAttribute(
    'data-state',
    'done',
  );
}

/** Opens the quick fixes at a line and column of the config and applies the one titled `title`. */
export async function applyQuickFix(page: Page, line: number, column: number, title: string) {
  await editor(page, 'Config (TOML)').focus();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  for (let i = 1; i < column; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ControlOrMeta+.');
  const fix = page.locator('.action-widget').getByText(title, { exact: true });
  await expect(fix).toBeVisible();
  await fix.click();
}

/**
 * The text pieces, between a name's break chances (<wbr>), that the browser
 * laid out over more than one line: a name broken mid-word.
 */
export function findPiecesBrokenMidWord(names: Locator): Promise<string[]> {
  return names.evaluateAll((elements) =>
    elements.flatMap((element) =>
      [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .filter((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          return tops.size > 1;
        })
        .map((node) => node.textContent ?? ''),
    ),
  );
}

/**
 * Opens the header's Advanced settings (encoding, now, view, readings,
 * Compact and Reset) if they are closed, and waits until they show.
 */
export async function openAdvanced(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Advanced/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}
