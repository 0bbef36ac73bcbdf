/**
 * The cost pane's runtime policies (issue 22): under each policy the pane's
 * figures equal `replay --policy P --json` run by node on the same input
 * (the expected side is the CLI's JSON, never the page), a Claude Code
 * transcript opens on Claude Code's own policy with the sentence that says
 * why, a share link restores the policy and its parameters, and the pane
 * with its parameters open is axe clean and fits a 390 px screen.
 */
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { POLICY_NAMES } from '../../src/core/replay/policies/types.ts';
import {
  expect,
  openPlayground,
  README_CONFIG_TOML,
  setEditorText,
  showPane,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';
import {
  buildConversation,
  type CliReplay,
  cliReplay,
  costPane,
  count,
  dollars,
  openCostSection,
  writeTemporary,
} from './replay-helpers.ts';

// Every policy the replay speaks: a new one is tested here without a change.
const POLICIES = POLICY_NAMES;

/** 6 turns of 5 requests, gaps past the cache's time to live every third turn. */
const STREAM = buildConversation(6, 5);

const CLAUDE_CODE = fileURLToPath(
  new URL(
    '../../../shared/corpus/agent-transcripts/claude-code/toolpath__convo.jsonl',
    import.meta.url,
  ),
);

async function openStream(page: Page, text: string, name = 'events.json'): Promise<void> {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', README_CONFIG_TOML);
  await waitForResults(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await waitForResults(page, 60_000);
  await showPane(page, 'cost');
}

/** Presses Copy link and reads the link from its panel (as share.spec.ts does). */
async function copyLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const panel = page.getByRole('dialog', { name: 'Link to this state' });
  await expect(panel).toBeVisible();
  const url = await panel.getByRole('textbox', { name: 'Link' }).inputValue();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  return url;
}

/** The policy selector. */
function policySelect(page: Page) {
  return costPane(page).getByLabel('Clearing policy', { exact: true });
}

/** Chooses a policy and waits for the pane to show its figures. */
async function choosePolicy(page: Page, policy: string): Promise<void> {
  await policySelect(page).selectOption(policy);
  await showPane(page, 'cost');
  await expect(costPane(page).getByTestId('cost-model')).toContainText(
    policy === 'jp' ? 'Under stored' : `Under ${policy}`,
  );
}

/** Sets one parameter's text and applies it with Enter. */
async function setParameter(page: Page, key: string, value: string): Promise<void> {
  const input = costPane(page).getByLabel(key, { exact: true });
  await input.fill(value);
  await input.press('Enter');
}

/** The per-request figures of the pane's request table: the chosen policy's cache and its cost column. */
async function readRequests(page: Page) {
  return costPane(page)
    .locator('.cost-requests-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => ({
        read: tr.querySelector('td[data-figure="cache_read"]')?.textContent ?? '',
        write: tr.querySelector('td[data-figure="cache_write"]')?.textContent ?? '',
        output: tr.querySelector('td[data-figure="output_tokens"]')?.textContent ?? '',
      })),
    );
}

test("under each policy the pane's figures are replay --policy P --json's", async ({ page }) => {
  test.setTimeout(300_000);
  const target = writeTemporary('events.json', STREAM);
  // Parameters that make each runtime act on this small conversation (its defaults clear nothing here).
  const sets: Record<string, string[]> = {
    'anthropic-context-editing': ['trigger=400', 'keep=2'],
    'anthropic-compaction': [],
    'claude-code': ['gap_threshold_minutes=5', 'keep_recent=1'],
    codex: ['tool_output_token_limit=20'],
    'openai-agents': ['max_output_chars=40', 'preview_chars=10'],
    'gemini-cli': ['tool_protection_threshold=100', 'min_prunable_tokens_threshold=50'],
    jp: [],
  };
  await openStream(page, STREAM);
  const pane = costPane(page);
  for (const policy of POLICIES) {
    const set = sets[policy] ?? [];
    const expected: CliReplay = cliReplay(README_CONFIG_TOML, target, 'stored', [
      '--policy',
      policy,
      ...set.flatMap((assignment) => ['--set', assignment]),
    ]);
    await choosePolicy(page, policy);
    for (const assignment of set) {
      const [key = '', value = ''] = assignment.split('=');
      await setParameter(page, key, value);
    }
    await showPane(page, 'cost');
    // The headline's dollars, then the requests' cache figures, one by one.
    await expect(pane.getByTestId('cost-headline'), policy).toContainText(
      `; ${policy === 'jp' ? 'stored' : policy} ${dollars(expected.totals.schedule.cost)}; saved`,
    );
    const rows = await readRequests(page);
    expect(rows, policy).toEqual(
      expected.requests.map((request) => ({
        read: request.cache_read.toLocaleString('en-US'),
        write: request.cache_write.toLocaleString('en-US'),
        output: request.output_tokens.toLocaleString('en-US'),
      })),
    );
    if (policy !== 'jp') {
      // The runtime's own column in the request table: its cost per request.
      const column = await pane
        .locator(`.cost-requests-table td[data-overlay="${policy} (yours)"]`)
        .allTextContents();
      expect(column, policy).toEqual(expected.requests.map((r) => dollars(r.cost)));
    }
  }
  // The policies side by side: each row is `replay --compare --json`'s.
  const compare = JSON.parse(cliCompare(README_CONFIG_TOML, target)) as {
    policy: { name: string };
    with: string;
    totals: { schedule: { prompt_tokens: number; cost: number } };
  }[];
  await openCostSection(page, 'Policies side by side');
  const shown = await pane.locator('.cost-policies tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      name: tr.getAttribute('data-policy'),
      with: tr.getAttribute('data-with'),
      tokens: tr.querySelector('td[data-figure="prompt_tokens"]')?.textContent ?? '',
      cost: tr.querySelector('td[data-figure="cost"]')?.textContent ?? '',
    })),
  );
  expect(shown).toEqual(
    compare.map((row) => ({
      name: row.policy.name,
      with: row.with,
      tokens: row.totals.schedule.prompt_tokens.toLocaleString('en-US'),
      cost: dollars(row.totals.schedule.cost),
    })),
  );
  // What a policy cannot say with the hints is said, as the core reports it.
  await expect(pane.getByTestId('cost-policy-notes')).toContainText('codex (hints):');
});

/** `replay --compare --json` on a file, run by node. */
function cliCompare(config: string, target: string): string {
  return JSON.stringify(cliReplay(config, target, 'stored', ['--compare']));
}

test('a parameter that does not read is refused at its field, and the figures stay', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openStream(page, STREAM);
  await choosePolicy(page, 'anthropic-context-editing');
  const before = await costPane(page).getByTestId('cost-headline').textContent();
  const keep = costPane(page).getByLabel('keep', { exact: true });
  await keep.fill('three');
  await keep.press('Enter');
  await expect(keep).toHaveAttribute('aria-invalid', 'true');
  const error = costPane(page).locator('[data-parameter="keep"] [role="alert"]');
  await expect(error).toHaveText('keep takes a whole number of 0 or more, not "three"');
  // The error is read with the field.
  const describedBy = (await keep.getAttribute('aria-describedby')) ?? '';
  expect(describedBy.split(' ')).toContain(await error.getAttribute('id'));
  await expect(costPane(page).getByTestId('cost-headline')).toHaveText(before ?? '');
});

test("a Claude Code transcript opens on Claude Code's policy, says once why JP saves nothing, and links to it", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openPlayground(page);
  await page.getByLabel('Open events.json').setInputFiles(CLAUDE_CODE);
  await expect(page.getByTestId('import-summary')).toContainText('toolpath__convo.jsonl');
  await waitForResults(page, 60_000);
  // One user prompt, 19 tool calls (src/test/fixtures/agent-transcripts.ts counts them with jq).
  const why =
    "JP compacts whole turns; this session has 1 turn holding 19 tool calls, so JP's rule saves nothing until the turn ends. Your runtime clears within the turn.";
  await expect(statusLine(page)).toContainText(why);
  // Once in the results: the status line says it, and nothing else there repeats it.
  await expect(
    page.getByRole('region', { name: 'Results' }).getByText('JP compacts whole turns'),
  ).toHaveCount(1);
  await page.getByTestId('runtime-replay-link').click();
  await showPane(page, 'cost');
  await expect(policySelect(page)).toHaveValue('claude-code');
  const expected = cliReplay(README_CONFIG_TOML, CLAUDE_CODE, 'stored', [
    '--policy',
    'claude-code',
  ]);
  await expect(costPane(page).getByTestId('cost-model')).toContainText('Under claude-code');
  const rows = await readRequests(page);
  expect(rows.map((r) => count(r.write))).toEqual(
    expected.requests.slice(0, rows.length).map((r) => r.cache_write),
  );
});

test('a Claude Code transcript opens the pane on claude-code without a click', async ({ page }) => {
  test.setTimeout(120_000);
  await openPlayground(page);
  await page.getByLabel('Open events.json').setInputFiles(CLAUDE_CODE);
  await waitForResults(page, 60_000);
  await showPane(page, 'cost');
  await expect(policySelect(page)).toHaveValue('claude-code');
});

test('a share link restores the policy and its parameters', async ({ page }) => {
  test.setTimeout(180_000);
  await openStream(page, STREAM);
  await choosePolicy(page, 'openai-agents');
  await setParameter(page, 'recent_turns', '1');
  await expect(costPane(page).getByTestId('cost-model')).toContainText('recent_turns=1');
  await setParameter(page, 'trimmable_tools', 'Bash,fs_read_file');
  await expect(costPane(page).getByTestId('cost-model')).toContainText(
    'trimmable_tools=Bash,fs_read_file',
  );
  const link = await copyLink(page);
  const other = await page.context().newPage();
  await other.goto(link);
  await waitForResults(other, 60_000);
  await showPane(other, 'cost');
  await expect(policySelect(other)).toHaveValue('openai-agents');
  await expect(costPane(other).getByLabel('recent_turns', { exact: true })).toHaveValue('1');
  await expect(costPane(other).getByLabel('trimmable_tools', { exact: true })).toHaveValue(
    'Bash,fs_read_file',
  );
  await other.close();
});

test("the pane with a policy's parameters open is axe clean and fits 390 px", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openStream(page, STREAM);
  await choosePolicy(page, 'claude-code');
  await expect(costPane(page).locator('.cost-chart')).toHaveAttribute('data-drawn', '30');
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  const { violations } = await new AxeBuilder({ page }).include('#pane-cost').analyze();
  // Of any impact, minor included.
  const found = violations.flatMap((v) =>
    v.nodes.map((node) => `${v.impact} ${v.id}: ${node.target.join(' ')}`),
  );
  expect(found).toEqual([]);
});
