/**
 * Share links, playground files, autosave, the config guidance and the
 * exports, in the browser against the production build. Every test also
 * checks, through the helpers' fixture, that no request leaves the origin
 * and the console shows no error; pages opened in a second context are
 * watched the same way.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Download, Page } from '@playwright/test';
import { parseEventsText } from '../../src/core/stream/codec.ts';
import { decodeStorage } from '../../src/core/stream/storage.ts';
import {
  applyQuickFix,
  editor,
  expect,
  ORIGIN,
  openAdvanced,
  openPlayground,
  problemItems,
  readToolRows,
  recordConsoleErrors,
  recordForeignRequests,
  setEditorText,
  showPane,
  statusLine,
  test,
  toolRow,
  waitForEditors,
  waitForResults,
} from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'src/test/fixtures/share-links');
const CODING_SESSION_TOML = readFileSync(join(REPO, 'src/examples/coding-session.toml'), 'utf8');

/** A page in a context of its own (no shared storage), watched like the fixture's page. */
async function freshPage(browser: Browser) {
  const context = await browser.newContext({
    baseURL: ORIGIN,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const foreign = recordForeignRequests(page, ORIGIN);
  const errors = recordConsoleErrors(page);
  return {
    page,
    async close() {
      await context.close();
      expect(foreign, 'requests that left the origin').toEqual([]);
      expect(errors, 'console errors').toEqual([]);
    },
  };
}

/** Opens a URL of the app (a link, usually) and waits for its first results. */
async function openUrl(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForEditors(page);
  await waitForResults(page);
}

/** The headline and every row of the savings table's two tables, as text. */
/**
 * The headline's saving as the pinned links recorded it: the figure, without
 * the clause that says what it is out of (added since, issue 24).
 */
async function headlineSaving(page: Page): Promise<string | undefined> {
  const text = await statusLine(page).textContent();
  return text?.replace(/ of the [\d,]+ tokens the next request would carry/, '');
}

async function figures(page: Page) {
  return {
    status: await headlineSaving(page),
    rows: await page.locator('#pane-savings table tbody tr').evaluateAll((rows) =>
      rows.map((row) =>
        [...(row as HTMLTableRowElement).cells]
          .map((cell) => cell.firstChild?.textContent?.trim() ?? '')
          .slice(0, 5)
          .join(' | '),
      ),
    ),
  };
}

/**
 * A pinned v1 link's headline as it reads now: its figures unchanged, and
 * the reading it opens under named, since v1 links predate the base (JP
 * 4c1c39f1, what their authors saw).
 */
function underV1Base(status: string): string {
  return status.replace(/\.$/, ', under D17 readings base=2026-08.');
}

/** Presses Copy link and reads the link from its panel. */
async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const panel = page.getByRole('dialog', { name: 'Link to this state' });
  await expect(panel).toBeVisible();
  const url = await panel.getByRole('textbox', { name: 'Link' }).inputValue();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  return url;
}

async function saveDownload(download: Download, name: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'playground-share-')), name);
  await download.saveAs(path);
  return path;
}

function cli(...args: string[]): string {
  return execFileSync(process.execPath, ['bin/compaction-playground.mjs', ...args], {
    cwd: REPO,
    encoding: 'utf8',
  });
}

test.describe('share links', () => {
  test('a copied link opens, in a fresh browser, to the same figures and settings', async ({
    page,
    browser,
  }) => {
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
    await openPlayground(page);
    await setEditorText(
      page,
      'Config (TOML)',
      CODING_SESSION_TOML.replace('compaction = "omit"', 'compaction = "strip-requests"'),
    );
    await page.getByLabel('Tokenizer').selectOption('cl100k');
    await openAdvanced(page);
    await page.getByRole('radio', { name: 'Bare' }).click();
    await waitForResults(page);
    await toolRow(page, 'build_watch').click();
    await showPane(page, 'diff');
    await page.locator('#pane-diff').getByRole('checkbox', { name: 'Side by side' }).uncheck();
    const before = await figures(page);
    const rowsBefore = await readToolRows(page);

    const url = await copyLink(page);
    expect(url).toMatch(new RegExp(`^${ORIGIN}/#v2/[A-Za-z0-9+$-]+$`));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    const other = await freshPage(browser);
    await openUrl(other.page, url);
    expect(await figures(other.page)).toEqual(before);
    expect(await readToolRows(other.page)).toEqual(rowsBefore);
    await expect(other.page.getByLabel('Tokenizer')).toHaveValue('cl100k');
    await openAdvanced(other.page);
    await expect(other.page.getByRole('radio', { name: 'Bare' })).toBeChecked();
    await expect(toolRow(other.page, 'build_watch')).toHaveAttribute('aria-selected', 'true');
    await showPane(other.page, 'diff');
    await expect(
      other.page.locator('#pane-diff').getByRole('checkbox', { name: 'Side by side' }),
    ).not.toBeChecked();
    await expect(other.page.getByRole('dialog')).toHaveCount(0);
    await other.close();
  });

  test('the address follows the state, and a reload keeps it', async ({ page }) => {
    await openPlayground(page);
    await expect(page).toHaveURL(/#v2\//);
    const first = page.url();
    await page.getByLabel('Tokenizer').selectOption('chars');
    await waitForResults(page);
    await expect(page).not.toHaveURL(first);
    const status = await statusLine(page).textContent();
    const url = page.url();
    await page.reload();
    await waitForEditors(page);
    await waitForResults(page);
    await expect(page.getByLabel('Tokenizer')).toHaveValue('chars');
    await expect(statusLine(page)).toHaveText(status ?? '');
    expect(page.url()).toBe(url);
  });

  test('a link pasted into the address of an open tab opens without a reload', async ({ page }) => {
    const pinned = JSON.parse(readFileSync(join(FIXTURES, 'app-v1.json'), 'utf8')) as {
      links: { name: string; hash: string; status: string }[];
    };
    const link = pinned.links.find((candidate) => candidate.name.startsWith('another example'));
    if (!link) throw new Error('the fixture lost its link');
    await openPlayground(page);
    // Only the hash changes: the page is not loaded again.
    await page.goto(`/${link.hash}`);
    await waitForResults(page);
    await expect(statusLine(page)).toHaveText(/the next request would carry/);
    expect(await headlineSaving(page)).toBe(underV1Base(link.status));
    await expect(page.getByLabel('Tokenizer')).toHaveValue('cl100k');
  });

  test('a damaged link opens a dialog that says so, and the app still works', async ({
    page: first,
    browser,
  }) => {
    await openPlayground(first);
    await first.getByLabel('Tokenizer').selectOption('cl100k');
    await waitForResults(first);
    const url = await copyLink(first);
    // Flip one character in the middle of the payload.
    const at = url.indexOf('#v2/') + 12;
    const damaged = `${url.slice(0, at)}${url[at] === 'A' ? 'B' : 'A'}${url.slice(at + 1)}`;

    // In a browser of its own: no autosave to fall back on.
    const other = await freshPage(browser);
    const page = other.page;
    await page.goto(damaged);
    const dialog = page.getByRole('dialog', { name: 'This link could not be opened' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(dialog).toContainText('damaged');
    await expect(dialog).toContainText('shows the default example');
    await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused();
    // Focus stays in the dialog.
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The app works: a hint edit reaches its row.
    await waitForEditors(page);
    await waitForResults(page);
    await setEditorText(
      page,
      'Config (TOML)',
      `${CODING_SESSION_TOML}\n[conversation.tools.run_tests]\ncompaction = "keep"\n`,
    );
    await waitForResults(page);
    await expect(toolRow(page, 'run_tests').locator('td').last()).toHaveText('keep own hint');
    await other.close();
  });

  test('the pinned app links keep opening to the same figures', async ({ browser }) => {
    // One fresh page per pinned link, each loading the editors: room on a loaded machine.
    test.setTimeout(180_000);
    const pinned = JSON.parse(readFileSync(join(FIXTURES, 'app-v1.json'), 'utf8')) as {
      links: { name: string; hash: string; status: string; rows: string[] }[];
    };
    for (const link of pinned.links) {
      const other = await freshPage(browser);
      await openUrl(other.page, `/${link.hash}`);
      expect(await figures(other.page), link.name).toEqual({
        status: underV1Base(link.status),
        rows: link.rows,
      });
      await expect(other.page.getByRole('dialog')).toHaveCount(0);
      await other.close();
    }
  });

  test('the codec fixture links open through the URL', async ({ page, browser }) => {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, 'v1.json'), 'utf8')) as {
      links: { name: string; hash: string; state: { now: string; tokenizer: string } }[];
      broken: { name: string; hash: string }[];
    };
    // Its own config, stream and "now": every field that differs from either set of defaults is in it.
    const own = fixture.links.find((link) => link.name === 'its own config, stream and now');
    if (!own) throw new Error('the fixture lost its link');
    await openUrl(page, `/${own.hash}`);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await openAdvanced(page);
    await expect(page.getByRole('textbox', { name: 'Now' })).toHaveValue(own.state.now);
    await expect(page.getByLabel('Tokenizer')).toHaveValue(own.state.tokenizer);
    await expect(page.locator('#config-panel .view-lines')).toContainText('« lire »');
    // This v1 link predates the reading base: it opens under JP 4c1c39f1, the JP its author saw,
    // says so, and its keep_first = "@2" (which JP main refuses) gives its author's figures.
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
      /This link is an old one\. .*under JP 4c1c39f1 \(base 2026-08\)/,
    );
    await expect(problemItems(page, 'error')).toHaveCount(0);
    await expect(toolRow(page, 'fs_read_file')).toBeVisible();
    await openAdvanced(page);
    await page.getByRole('button', { name: /^D17 readings/ }).click();
    const readings = page.getByRole('dialog', { name: 'D17 readings' });
    await expect(readings.getByRole('radio', { name: /^JP 4c1c39f1 \(2026-08\)/ })).toBeChecked();
    await page.keyboard.press('Escape');

    const cut = fixture.broken.find((link) => link.name === 'a link cut in half');
    if (!cut) throw new Error('the fixture lost its broken link');
    const other = await freshPage(browser);
    await other.page.goto(`/${cut.hash}`);
    await expect(
      other.page.getByRole('dialog', { name: 'This link could not be opened' }),
    ).toContainText(/cut off/);
    await other.close();
  });
});

test.describe('playground files and autosave', () => {
  test('a downloaded playground file opens to the same state elsewhere', async ({
    page,
    browser,
  }) => {
    await openPlayground(page);
    await setEditorText(
      page,
      'Config (TOML)',
      CODING_SESSION_TOML.replace('compaction = "strip-requests"', 'compaction = "keep"'),
    );
    await openAdvanced(page);
    await page.getByRole('textbox', { name: 'Now' }).fill('2025-07-02 00:00:00.0');
    await page.getByLabel('Tokenizer').selectOption('chars');
    await waitForResults(page);
    const before = await figures(page);

    await page.getByRole('button', { name: 'File', exact: true }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download playground file' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('compaction-playground.json');
    const path = await saveDownload(download, 'compaction-playground.json');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      format: 'compaction-playground',
      version: 2,
      state: {
        tokenizer: 'chars',
        now: '2025-07-02 00:00:00.0',
        stream: { exampleId: 'coding-session' },
      },
    });

    const other = await freshPage(browser);
    await openPlayground(other.page);
    await other.page.getByRole('button', { name: 'File', exact: true }).click();
    await other.page.getByLabel('Open playground file').setInputFiles(path);
    await waitForResults(other.page);
    await expect(other.page.getByLabel('Tokenizer')).toHaveValue('chars');
    expect(await figures(other.page)).toEqual(before);

    // A file that is not a playground file changes nothing and says why.
    await other.page.getByRole('button', { name: 'File', exact: true }).click();
    await other.page.getByLabel('Open playground file').setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"fake": true}'),
    });
    const dialog = other.page.getByRole('dialog', { name: 'notes.json could not be opened' });
    await expect(dialog).toContainText('not a playground file');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await figures(other.page)).toEqual(before);
    await other.close();
  });

  test('autosave survives a reload in the middle of typing', async ({ page }) => {
    // Two full page loads and Start fresh: more than one default timeout on a busy machine.
    test.slow();
    await openPlayground(page);
    await page.getByLabel('Tokenizer').selectOption('cl100k');
    await waitForResults(page);
    // The address already holds a link, one edit behind what follows.
    await expect(page).toHaveURL(/#v2\//);
    const config = editor(page, 'Config (TOML)');
    await config.focus();
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.insertText('# typed just before the reload\n');
    // The editor holds the edit; the reload comes before the quiet time is over
    // (the page saves what is pending when it is hidden).
    await expect(page.locator('#config-panel .view-lines')).toContainText(
      'typed just before the reload',
    );
    await page.reload();
    await waitForEditors(page);
    await waitForResults(page);
    await expect(page.locator('#config-panel .view-lines')).toContainText(
      'typed just before the reload',
    );
    await expect(page.getByLabel('Tokenizer')).toHaveValue('cl100k');

    // Start fresh forgets it.
    await page.getByRole('button', { name: 'File', exact: true }).click();
    await page.getByRole('button', { name: 'Start fresh…' }).click();
    await page.getByRole('button', { name: 'Start fresh', exact: true }).click();
    await waitForResults(page);
    await expect(page.locator('#config-panel .view-lines')).not.toContainText(
      'typed just before the reload',
    );
  });
});

/** One config-editor marker as F8 shows it: its spoken label and its code. */
interface Marker {
  label: string;
  code: string;
}

/** Every marker of the config editor, read with F8 (next problem) as a keyboard user would. */
async function configMarkers(page: Page): Promise<Marker[]> {
  const squiggles = page.locator(
    '#config-panel .squiggly-info, #config-panel .squiggly-warning, #config-panel .squiggly-error',
  );
  if ((await squiggles.count()) === 0) return [];
  await editor(page, 'Config (TOML)').focus();
  await page.keyboard.press('ControlOrMeta+Home');
  const message = page.locator('#config-panel .marker-widget .message');
  const markers: Marker[] = [];
  for (let i = 0; i < 20; i++) {
    // Monaco moves to the next marker while it handles the key: the widget is current after it.
    await page.keyboard.press('F8');
    await expect(message).toBeVisible();
    const label = (await message.getAttribute('aria-label')) ?? '';
    if (markers.some((marker) => marker.label === label)) break;
    markers.push({ label, code: (await message.locator('.code').textContent()) ?? '' });
  }
  await page.keyboard.press('Escape');
  return markers;
}

/** Waits until the config editor's markers include (or lack) one with this code. */
async function expectMarker(page: Page, code: string, present: boolean): Promise<Marker[]> {
  let found: Marker[] = [];
  await expect
    .poll(async () => {
      found = await configMarkers(page);
      return found.some((marker) => marker.code === `(${code})`);
    })
    .toBe(present);
  return found;
}

test.describe('guidance in the config editor', () => {
  const RULE = '[[conversation.compaction.rules]]\nkeep_first = 1\nkeep_last = 1\n';
  const ALL_HINTED = ['build_watch', 'fs_modify_file', 'fs_read_file', 'run_tests'].map(
    (tool) => `[conversation.tools.${tool}]\ncompaction = "keep"\n`,
  );

  const cases: {
    code: string;
    severity: 'Info' | 'Warning';
    text: RegExp;
    config: string;
    fixed: string;
  }[] = [
    {
      code: 'guidance/builtin-rule',
      severity: 'Info',
      text: /built-in default rule applies/,
      config: '[conversation.tools.run_tests]\ncompaction = "keep"\n',
      fixed: `${RULE}tool_calls = "strip"\n\n[conversation.tools.run_tests]\ncompaction = "keep"\n`,
    },
    {
      code: 'guidance/empty-range',
      severity: 'Warning',
      text: /Rule 1 compacts nothing on this stream/,
      config: '[[conversation.compaction.rules]]\nkeep_first = 10\ntool_calls = "strip"\n',
      fixed: '[[conversation.compaction.rules]]\nkeep_first = 1\ntool_calls = "strip"\n',
    },
    {
      code: 'guidance/summary-placeholder',
      severity: 'Info',
      text: /calls no model: this rule's summary is the placeholder/,
      config: `${RULE}summary = {}\n`,
      fixed: `${RULE}tool_calls = "strip"\n`,
    },
    {
      code: 'guidance/star-reaches',
      severity: 'Info',
      text: /'\*' gives strip to 4 tools/,
      config: `${RULE}tool_calls = "strip"\n\n[conversation.tools.'*']\ncompaction = "strip"\n`,
      fixed: `${RULE}tool_calls = "strip"\n`,
    },
    {
      code: 'guidance/inherits-default',
      severity: 'Info',
      text: /4 tools in this stream have no hint and follow the rule's tool_calls \(strip\)/,
      config: `${RULE}tool_calls = "strip"\n`,
      fixed: `${RULE}tool_calls = "strip"\n\n${ALL_HINTED.join('\n')}`,
    },
  ];

  for (const item of cases) {
    test(`${item.code} appears where it applies and goes when fixed`, async ({ page }) => {
      await openPlayground(page);
      await setEditorText(page, 'Config (TOML)', item.config);
      await waitForResults(page);
      const markers = await expectMarker(page, item.code, true);
      const marker = markers.find((candidate) => candidate.code === `(${item.code})`);
      expect(marker?.label).toMatch(new RegExp(`${item.severity}: `));
      expect(marker?.label).toMatch(item.text);
      // Guidance is listed in Problems with its severity, and is no error.
      await expect(
        problemItems(page, item.severity === 'Info' ? 'info' : 'warning')
          .filter({ hasText: item.text })
          .first(),
      ).toBeVisible();
      await expect(problemItems(page, 'error')).toHaveCount(0);

      await setEditorText(page, 'Config (TOML)', item.fixed);
      await waitForResults(page);
      await expectMarker(page, item.code, false);
    });
  }

  test('quick fixes: an alias, an inert hint and a misspelt tool', async ({ page }) => {
    await openPlayground(page);
    await setEditorText(
      page,
      'Config (TOML)',
      `${RULE}tool_calls = "s"\n\n[conversation.tools.run_test]\ncompaction = "keep"\n`,
    );
    await waitForResults(page);
    const markers = await expectMarker(page, 'guidance/alias', true);
    expect(markers.find((m) => m.code === '(guidance/alias)')?.label).toMatch(
      /Info: "s" is an alias of "strip"/,
    );
    expect(markers.find((m) => m.code === '(guidance/unknown-tool)')?.label).toMatch(
      /Warning: The stream never calls "run_test".*did you mean "run_tests"/,
    );
    await applyQuickFix(page, 4, 15, 'Write "strip"');
    await waitForResults(page);
    await expectMarker(page, 'guidance/alias', false);
    await applyQuickFix(page, 6, 21, 'Rename to run_tests');
    await waitForResults(page);
    await expectMarker(page, 'guidance/unknown-tool', false);
    await expect(toolRow(page, 'run_tests').locator('td').last()).toHaveText('keep own hint');

    // A rule without tool_calls makes every hint inert.
    await setEditorText(page, 'Config (TOML)', `${RULE}reasoning = "strip"\n\n${ALL_HINTED[3]}`);
    await waitForResults(page);
    const inert = await expectMarker(page, 'guidance/hint-inert', true);
    expect(inert.find((m) => m.code === '(guidance/hint-inert)')?.label).toMatch(
      /Warning: This hint has no effect/,
    );
    await applyQuickFix(page, 7, 15, 'Add tool_calls = "strip" to rule 1');
    await waitForResults(page);
    await expectMarker(page, 'guidance/hint-inert', false);
    await expect(page.locator('#config-panel .view-lines')).toContainText('tool_calls = "strip"');
  });
});

test.describe('exports and the quick rule', () => {
  test("the exported events.json is in storage form and projects to the app's own compaction", async ({
    page,
  }) => {
    await openPlayground(page);
    await page.getByRole('button', { name: 'Export' }).click();
    const exportMenu = page.getByRole('dialog', { name: 'Export' });
    const downloading = page.waitForEvent('download');
    await exportMenu.getByRole('button', { name: 'Compacted events.json for JP' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('events.json');
    const exported = await saveDownload(download, 'events.json');
    await expect(exportMenu.getByRole('status').first()).toContainText(
      'Downloaded events.json, with 1 new compaction.',
    );
    await exportMenu.getByRole('button', { name: 'Close' }).click();
    await expect(exportMenu).toBeHidden();

    const parsed = parseEventsText(readFileSync(exported, 'utf8'), 'auto');
    // The example is plain JSON; the export is JP's storage form all the same.
    expect(parsed.encoding).toBe('storage');
    const compaction = parsed.elements?.find((element) => element.type === 'compaction');
    expect(compaction?.tool_overrides).toMatchObject({
      fs_read_file: { policy: 'strip', request: false, response: true },
      build_watch: { policy: 'omit' },
    });

    // The app's own compacted stream: Compact, then the state as a playground file.
    await openAdvanced(page);
    await page.getByRole('button', { name: 'Compact', exact: true }).click();
    await waitForResults(page);
    await page.getByRole('button', { name: 'File', exact: true }).click();
    const saving = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download playground file' }).click();
    const file = JSON.parse(readFileSync(await saveDownload(await saving, 'state.json'), 'utf8'));
    const appCompacted = join(mkdtempSync(join(tmpdir(), 'playground-share-')), 'events.json');
    writeFileSync(appCompacted, file.state.stream.text);

    const fromExport = decodeStorage(JSON.parse(cli('project', '--sanitize', exported)));
    const fromApp = JSON.parse(cli('project', '--sanitize', '--encoding', 'plain', appCompacted));
    expect(fromExport.length).toBeGreaterThan(10);
    expect(fromExport).toEqual(fromApp);
  });

  test('the config exports as compaction.toml, and rules copy as --compact', async ({ page }) => {
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
    await openPlayground(page);
    await page.getByRole('button', { name: 'Export' }).click();
    const exportMenu = page.getByRole('dialog', { name: 'Export' });
    const downloading = page.waitForEvent('download');
    await exportMenu.getByRole('button', { name: 'Config as TOML' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('compaction.toml');
    expect(readFileSync(await saveDownload(download, 'compaction.toml'), 'utf8')).toBe(
      CODING_SESSION_TOML,
    );
    await exportMenu.getByRole('button', { name: 'Copy rule 1 as --compact=r+t' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('--compact=r+t');
  });

  test('the quick rule says what is wrong, and adds a rule on Enter', async ({ page }) => {
    await openPlayground(page);
    const field = page.getByLabel('Quick rule');
    await field.fill('r+t=sres:0..');
    await field.press('Enter');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#config-panel')).toContainText(
      'turn positions are 1-based, so 0 is no turn',
    );
    await field.fill('t=omit:2..-1');
    await expect(field).not.toHaveAttribute('aria-invalid');
    await field.press('Enter');
    await expect(page.locator('#config-panel')).toContainText('Added rule 2');
    await waitForResults(page);
    await showPane(page, 'timeline');
    await expect(page.locator('#pane-timeline .cp-plan')).toHaveCount(2);
    // Under JP main (the default base) -1 is the last turn (15.6): the rule keeps none at
    // the end, written "-1", and its shortest command leaves the end open.
    const plan = page.locator('#pane-timeline .cp-plan').nth(1);
    await expect(plan).toContainText('keep_first = 1, keep_last = "-1", tool_calls = "omit"');
    await expect(plan).toContainText('--compact=t=omit:2..');
  });
});
