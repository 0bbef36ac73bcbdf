/**
 * Tool names that are also Object.prototype members once made the page hang:
 * a plain-object lookup found `Object.prototype.toString` as a "hint", the
 * result could not be cloned, and the worker never answered. This opens such
 * a stream through the real worker and compares each row with the CLI.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import {
  cliReportRows,
  expect,
  findPiecesBrokenMidWord,
  openPlayground,
  readToolRows,
  results,
  setEditorText,
  showPane,
  test,
  waitForResults,
} from './helpers.ts';

const NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'];

/** Three turns; the middle one calls every tool, so the built-in rule strips those calls. */
function eventsJson(): string {
  const events: object[] = [];
  let call = 0;
  const at = (second: number) => `2025-07-02 14:00:${String(second).padStart(2, '0')}.0`;
  const turn = (tools: readonly string[]) => {
    const second = events.length;
    events.push({ timestamp: at(second), type: 'turn_start' });
    events.push({ timestamp: at(second), type: 'chat_request', content: 'Look it up.' });
    for (const name of tools) {
      call++;
      const id = `call_${call}`;
      events.push({
        timestamp: at(second),
        type: 'tool_call_request',
        id,
        name,
        arguments: { query: `what ${name} returns`, call },
      });
      events.push({
        timestamp: at(second),
        type: 'tool_call_response',
        id,
        content: `${name} answered call ${call} with a long, detailed reply.`,
        is_error: false,
      });
    }
    events.push({ timestamp: at(second), type: 'chat_response', message: 'Done.' });
  };
  turn(['toString']);
  turn(NAMES);
  turn(['valueOf', '__proto__']);
  return JSON.stringify(events, null, 2);
}

test('tools named like Object.prototype members get one row each, with the CLI figures', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'playground-names-'));
  const file = join(dir, 'events.json');
  writeFileSync(file, eventsJson());

  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', '');
  await page.getByLabel('Open events.json').setInputFiles(file);
  await waitForResults(page);
  await expect(results(page)).toHaveAttribute('data-status', 'done');

  const rows = await readToolRows(page);
  // Code-point order, as the CLI sorts: "_" comes before the lowercase letters.
  expect(rows.map((row) => row.name)).toEqual([
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'toString',
    'valueOf',
  ]);
  // Calls by hand: toString 2, valueOf 2, __proto__ 2, the others 1.
  expect(rows.map((row) => row.calls)).toEqual([2, 1, 1, 2, 2]);
  // The middle turn's calls are stripped by the built-in rule: every row saves something.
  for (const row of rows) expect(row.saved).toBeGreaterThan(0);
  expect(rows).toEqual(cliReportRows('', file));
});

/** An MCP-style tool name of 120 characters. */
const LONG_NAME = `mcp__${'very_long_server_name_'.repeat(5)}`.padEnd(119, 'x').concat('z');

/** Two turns, each calling the long-named tool once; the built-in rule strips the first. */
function longNameEvents(): string {
  const at = (second: number) => `2025-07-02 14:00:${String(second).padStart(2, '0')}.0`;
  const events: object[] = [];
  for (const turn of [1, 2]) {
    events.push({ timestamp: at(turn), type: 'turn_start' });
    events.push({ timestamp: at(turn), type: 'chat_request', content: 'Look it up.' });
    events.push({
      timestamp: at(turn),
      type: 'tool_call_request',
      id: `call_${turn}`,
      name: LONG_NAME,
      arguments: { query: 'what the server knows' },
    });
    events.push({
      timestamp: at(turn),
      type: 'tool_call_response',
      id: `call_${turn}`,
      content: 'A long, detailed reply from the server.',
      is_error: false,
    });
    events.push({ timestamp: at(turn), type: 'chat_response', message: 'Done.' });
  }
  return JSON.stringify(events, null, 2);
}

/** True when the element's box scrolls sideways (its content is wider than it). */
function scrollsSideways(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
}

/** True when `inner` lies within `outer`'s box, left to right. */
async function withinSideways(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
  return a !== null && b !== null && a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;
}

for (const width of [1440, 1024]) {
  test(`a 120-character tool name at ${width} px: cut with an ellipsis, whole on hover and in the accessible name; no sideways scroll`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openPlayground(page);
    await page.getByLabel('Open events.json').setInputFiles({
      name: 'events.json',
      mimeType: 'application/json',
      buffer: Buffer.from(longNameEvents()),
    });
    await waitForResults(page);

    const table = page.getByRole('table', { name: 'Savings per tool' });
    const header = table.getByRole('rowheader', { name: LONG_NAME, exact: true });
    await expect(header).toBeVisible();
    await expect(header.locator('[title]')).toHaveAttribute('title', LONG_NAME);
    // On one line, cut: never wrapped at its separators at this width.
    expect(
      await header.locator('[title]').evaluate((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }),
    ).toBe(1);
    const box = page.locator('#pane-savings .cp-tools').locator('xpath=..');
    expect(await scrollsSideways(box), 'the savings table scrolls sideways').toBe(false);
    expect(
      await withinSideways(table.getByRole('columnheader', { name: /Hint in force/ }), box),
    ).toBe(true);

    await showPane(page, 'what-if');
    const grid = page.getByRole('grid', { name: 'What if: every tool under each hint choice' });
    await expect(grid.getByRole('rowheader', { name: LONG_NAME, exact: true })).toBeVisible();
    const pane = page.locator('#pane-what-if .what-if');
    expect(await scrollsSideways(pane), 'the what-if grid scrolls sideways').toBe(false);
    expect(
      await withinSideways(grid.getByRole('columnheader', { name: 'Beyond the rule' }), pane),
    ).toBe(true);
  });
}

test('at 390 px the savings table wraps tool names only at their separators', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  const names = page
    .getByRole('table', { name: 'Savings per tool' })
    .locator('th[scope="row"] .cp-truncate');
  // The example's names (build_watch, fs_modify_file…) are wider than the column at this width.
  await expect(names.filter({ hasText: 'fs_modify_file' })).toBeVisible();
  // More than one line box: the name wraps.
  const wrapped = await names.evaluateAll(
    (spans) =>
      spans.filter((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
      }).length,
  );
  expect(wrapped, 'some names wrap at this width, or the test proves nothing').toBeGreaterThan(0);
  expect(await findPiecesBrokenMidWord(names)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
