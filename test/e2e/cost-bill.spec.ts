/**
 * The cost pane says what the session cost first (issue 40): on a real
 * Claude Code transcript, the recorded bill, the calibrated `stored` beside
 * it and the basis of each figure equal `replay --json` run by node on the
 * same file (the expected side is the CLI's JSON, never the page's DOM);
 * each request's invisible prefix is a column of the table; the pane is axe
 * clean in both themes with its sections open.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, openPlayground, showPane, test, waitForResults } from './helpers.ts';
import { costPane, count, dollars, openCostSection } from './replay-helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLAUDE_CODE = fileURLToPath(
  new URL(
    '../../../shared/corpus/agent-transcripts/claude-code/toolpath__convo.jsonl',
    import.meta.url,
  ),
);

interface BillJson {
  calibration: { source: string; prefix_tokens: number };
  recorded: { cost: number; modelled_cost: number; requests: number } | null;
  requests: { prefix_tokens: number; recorded_cost: number | null }[];
  model: { name: string };
}

/**
 * `replay --json` on the file under JP's `stored`: no rule runs there, so
 * the config the page holds changes nothing and an empty one stands for it.
 */
function cliBill(): BillJson {
  const config = join(mkdtempSync(join(tmpdir(), 'cost-bill-')), 'empty.toml');
  writeFileSync(config, '');
  const output = execFileSync(
    process.execPath,
    ['bin/compaction-playground.mjs', 'replay', '--config', config, '--json', CLAUDE_CODE],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return JSON.parse(output) as BillJson;
}

for (const theme of ['light', 'dark'] as const) {
  test(`a Claude Code transcript's bill, its basis and prefix equal replay --json (${theme})`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: theme });
    const expected = cliBill();
    expect(expected.calibration.source).toBe('recorded');
    expect(expected.recorded).not.toBeNull();
    await openPlayground(page);
    await page.getByLabel('Open events.json').setInputFiles(CLAUDE_CODE);
    await waitForResults(page, 60_000);
    await showPane(page, 'cost');
    const pane = costPane(page);
    // The page opens a Claude Code file on its own runtime's policy: JP's schedules are what the CLI ran.
    await pane.getByLabel('Clearing policy').selectOption('jp');
    const bill = pane.getByTestId('cost-bill');
    await expect(bill.locator('[data-figure="recorded-cost"]')).toHaveText(
      dollars(expected.recorded?.cost ?? Number.NaN),
    );
    await expect(bill.locator('[data-figure="stored-cost"]')).toHaveText(
      dollars(expected.recorded?.modelled_cost ?? Number.NaN),
    );
    await expect(pane.getByTestId('cost-basis')).toContainText('calibrated');
    await expect(pane.getByTestId('cost-basis')).toContainText(
      expected.calibration.prefix_tokens.toLocaleString('en-US'),
    );
    // Each request's invisible prefix and recorded cost, as the CLI has them.
    const rows = await pane.locator('.cost-requests-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        prefix: tr.querySelector('td[data-figure="prefix_tokens"]')?.textContent ?? '',
        recorded: tr.querySelector('td[data-figure="recorded_cost"]')?.textContent ?? '',
      })),
    );
    expect(rows.map((row) => count(row.prefix))).toEqual(
      expected.requests.map((request) => request.prefix_tokens),
    );
    expect(rows.map((row) => row.recorded)).toEqual(
      expected.requests.map((request) =>
        request.recorded_cost === null ? '' : dollars(request.recorded_cost),
      ),
    );
    await openCostSection(page, 'Policies side by side');
    await openCostSection(page, 'Per tool, in money');
    const { violations } = await new AxeBuilder({ page }).include('#pane-cost').analyze();
    expect(
      violations.flatMap((v) =>
        v.nodes.map((node) => `${v.impact} ${v.id}: ${node.target.join(' ')}`),
      ),
    ).toEqual([]);
  });
}
