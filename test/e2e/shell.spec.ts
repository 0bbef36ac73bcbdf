import type { Page } from '@playwright/test';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import {
  editor,
  expect,
  openAdvanced,
  openPlayground,
  problemItems,
  readToolRows,
  results,
  setEditorText,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('loads with both editors labelled and the first results announced', async ({ page }) => {
  await expect(editor(page, 'Config (TOML)')).toHaveAttribute('aria-label', 'Config (TOML)');
  await expect(editor(page, 'Event stream (JSON)')).toHaveAttribute(
    'aria-label',
    'Event stream (JSON)',
  );
  const status = statusLine(page);
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(status).toHaveText(
    /^Saved -?[\d,]+ tokens \(-?\d+\.\d%\) of the [\d,]+ tokens the next request would carry\.$/,
  );
  for (const id of ['pane-savings', 'pane-diff', 'pane-explain', 'pane-timeline']) {
    await expect(page.locator(`#${id}`)).toBeVisible();
  }
  // Guidance (infos) may be listed; nothing in either input is wrong.
  await expect(page.locator('.problems')).toBeVisible();
  await expect(problemItems(page, 'error')).toHaveCount(0);
  // The build's Content-Security-Policy is in force (a violation would be a console error).
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
    'content',
    /script-src 'self'/,
  );
});

test('marks an unknown hint in the config, with its line and column', async ({ page }) => {
  await setEditorText(
    page,
    'Config (TOML)',
    '[conversation.tools.fs_read_file]\ncompaction = "strip-response"\n',
  );
  await waitForResults(page);
  const problem = page.getByRole('button', { name: /Config 2:14/ });
  await expect(problem).toContainText('strip-response');
  await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
  await expect(results(page)).toHaveAttribute('data-stale', 'true');
  await expect(statusLine(page)).toContainText('1 error in the input');

  // A click puts the cursor on the problem.
  await problem.click();
  await expect(editor(page, 'Config (TOML)')).toBeFocused();

  await setEditorText(
    page,
    'Config (TOML)',
    '[conversation.tools.fs_read_file]\ncompaction = "strip-responses"\n',
  );
  await waitForResults(page);
  // Guidance (infos) may be listed; nothing in either input is wrong.
  await expect(page.locator('.problems')).toBeVisible();
  await expect(problemItems(page, 'error')).toHaveCount(0);
  await expect(results(page)).toHaveAttribute('data-stale', 'false');
});

/** One turn calling `ledger_read` once; its `arguments` and response `content` as given. */
function ledgerStream(content: string, args: { path: string } = LEDGER_ARGUMENTS): string {
  return JSON.stringify([
    { timestamp: '2025-07-02 14:04:00.0', type: 'turn_start' },
    { timestamp: '2025-07-02 14:04:00.1', type: 'chat_request', content: 'Check the ledger.' },
    {
      timestamp: '2025-07-02 14:04:01.0',
      type: 'tool_call_request',
      id: 'call_1',
      name: 'ledger_read',
      arguments: args,
    },
    {
      timestamp: '2025-07-02 14:04:02.0',
      type: 'tool_call_response',
      id: 'call_1',
      content,
      is_error: false,
    },
    { timestamp: '2025-07-02 14:04:03.0', type: 'chat_response', message: 'Done.' },
  ]);
}

const LEDGER_ARGUMENTS = { path: 'Überprüfung/Rechnungsbeträge-2025.csv' };
const LEDGER_REPLY = 'Prüfsumme ungültig: 2.675 → 2.68 gerundet; Lieferant «Ærøskøbing Æblegård».';

/** The counts computed here, straight from gpt-tokenizer and the chars/4 rule (spec 14.4). */
const COUNTERS = {
  o200k: countO200k,
  cl100k: countCl100k,
  chars: (text: string) => Math.ceil([...text].length / 4),
} as const;

async function ledgerRow(page: Page) {
  const row = (await readToolRows(page)).find((candidate) => candidate.name === 'ledger_read');
  return row ? { request: row.requestBefore, response: row.responseBefore } : null;
}

test('switches the tokenizer: the row counts what that tokenizer counts', async ({ page }) => {
  await setEditorText(page, 'Config (TOML)', '');
  await setEditorText(page, 'Event stream (JSON)', ledgerStream(LEDGER_REPLY));
  await openAdvanced(page);
  await page.getByLabel('Encoding').selectOption('plain');
  const expected = Object.entries(COUNTERS).map(([id, count]) => ({
    id,
    request: count(JSON.stringify(LEDGER_ARGUMENTS)),
    response: count(LEDGER_REPLY),
  }));
  // The three tokenizers disagree on this text, so a switch that changed nothing would show.
  expect(new Set(expected.map((figures) => figures.response)).size).toBe(3);
  for (const { id, request, response } of expected) {
    await page.getByLabel('Tokenizer').selectOption(id);
    await waitForResults(page);
    await expect.poll(() => ledgerRow(page)).toEqual({ request, response });
  }
  await expect(page.getByText(/chars\/4 \(an estimate\)/)).toBeVisible();
});

test('switches the encoding: storage counts the decoded text, plain the text as written', async ({
  page,
}) => {
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const encoded = base64(LEDGER_REPLY);
  await setEditorText(page, 'Config (TOML)', '');
  await setEditorText(
    page,
    'Event stream (JSON)',
    ledgerStream(encoded, { path: base64(LEDGER_ARGUMENTS.path) }),
  );
  await openAdvanced(page);
  const encoding = page.getByLabel('Encoding');
  await encoding.selectOption('auto');
  await waitForResults(page);
  await expect(encoding.locator('option[value="auto"]')).toHaveText('auto (storage)');
  await expect.poll(async () => (await ledgerRow(page))?.response).toBe(countO200k(LEDGER_REPLY));

  await encoding.selectOption('plain');
  await waitForResults(page);
  await expect(encoding).toHaveValue('plain');
  await expect.poll(async () => (await ledgerRow(page))?.response).toBe(countO200k(encoded));

  await encoding.selectOption('storage');
  await waitForResults(page);
  await expect(encoding).toHaveValue('storage');
  await expect.poll(async () => (await ledgerRow(page))?.response).toBe(countO200k(LEDGER_REPLY));
});

test('toggles the view', async ({ page }) => {
  await openAdvanced(page);
  const bare = page.getByRole('radio', { name: 'Bare' });
  await bare.click();
  await expect(bare).toBeChecked();
  await waitForResults(page);
  // The radios are reachable from the keyboard like any radio group.
  await bare.press('ArrowLeft');
  await openAdvanced(page);
  await expect(page.getByRole('radio', { name: 'Sanitized' })).toBeChecked();
  await waitForResults(page);
});

test('opens an events.json in storage form from the file input', async ({ page }) => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const at = '2025-07-01 00:00:00.0';
  const events = [
    { timestamp: at, type: 'turn_start' },
    { timestamp: at, type: 'chat_request', content: 'Read the fake file.' },
    {
      timestamp: at,
      type: 'tool_call_request',
      id: 'fake-1',
      name: 'fs_read_file',
      arguments: { path: b64('fake.txt') },
    },
    {
      timestamp: at,
      type: 'tool_call_response',
      id: 'fake-1',
      content: b64('fake contents\n'.repeat(20)),
      is_error: false,
    },
    { timestamp: at, type: 'chat_response', message: 'Done.' },
  ];
  await page.getByLabel('Open events.json').setInputFiles({
    name: 'events.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(events, null, 2)),
  });
  await waitForResults(page);
  await openAdvanced(page);
  const encoding = page.getByLabel('Encoding');
  await expect(encoding).toHaveValue('auto');
  await expect(encoding.locator('option[value="auto"]')).toHaveText('auto (storage)');
  await expect(page.locator('#editors').getByText('events.json', { exact: true })).toBeVisible();
  // Guidance (infos) may be listed; nothing in either input is wrong.
  await expect(page.locator('.problems')).toBeVisible();
  await expect(problemItems(page, 'error')).toHaveCount(0);
});

test('opens an events.json dropped anywhere on the stream editor', async ({ page }) => {
  const events = [
    { timestamp: '2025-07-01 00:00:00.0', type: 'turn_start' },
    { timestamp: '2025-07-01 00:00:00.0', type: 'chat_request', content: 'A dropped fake file.' },
  ];
  const dataTransfer = await page.evaluateHandle(
    (text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
      return transfer;
    },
    // One line, so the text checked below is on the first line: Monaco renders
    // only the lines in view, and Problems can leave the editor a few lines tall.
    JSON.stringify(events),
  );
  // Drop onto Monaco's own text layer: the shell must take the file, not Monaco.
  const target = page.locator('.drop-zone .view-lines');
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await waitForResults(page);
  await expect(page.getByText('dropped.json', { exact: true })).toBeVisible();
  await expect(page.locator('.drop-zone .view-lines')).toContainText('A dropped fake file.');
});
