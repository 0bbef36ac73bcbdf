/**
 * Export → another agent's config (issue 22): each dialog opens from the
 * keyboard and heads with the runtime's own clearing replayed with the
 * exported config and at its defaults. The expected side is `replay
 * --policy <runtime> --set … --json` run by node, with the parameters read
 * back from the dialog's own snippet (never from the page's figures); a
 * target with no replayed runtime shows no figure at all. At 390 px tool
 * names wrap only at their separators and nothing scrolls sideways.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  findPiecesBrokenMidWord,
  openPlayground,
  setEditorText,
  showPane,
  test,
  waitForResults,
} from './helpers.ts';
import { costPane, dollars, writeTemporary } from './replay-helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const CONFIG = [
  '[[conversation.compaction.rules]]',
  'keep_first = 1',
  'keep_last = 1',
  'tool_calls = "strip"',
  '',
  '[conversation.tools.fs_read_file]',
  'compaction = "keep"',
  '',
  '[conversation.tools.search_code_index]',
  'compaction = "strip-responses"',
  '',
  '[conversation.tools.fs_modify_file]',
  'compaction = "omit"',
].join('\n');

/**
 * Three turns of four tool calls, each result 40,000 characters (10,000
 * tokens under chars/4): 120,000 tokens in all, so Anthropic's default
 * trigger (100,000 input tokens) is passed and something is cleared.
 */
function buildStream(): string {
  const events: object[] = [];
  const names = [
    'fs_read_file',
    'run_shell_command',
    'search_code_index',
    'fs_modify_file',
    'fs_read_file',
    'run_shell_command',
  ];
  let n = 0;
  for (const turn of [0, 1, 2]) {
    const at = (s: number) => `2026-03-01 10:0${turn}:${String(s).padStart(2, '0')}.0`;
    events.push({ timestamp: at(0), type: 'turn_start' });
    events.push({ timestamp: at(0), type: 'chat_request', content: `question ${turn}` });
    for (const name of names.slice(turn, turn + 4)) {
      n++;
      events.push({
        timestamp: at(n),
        type: 'tool_call_request',
        id: `c${n}`,
        name,
        arguments: { n },
      });
      events.push({
        timestamp: at(n),
        type: 'tool_call_response',
        id: `c${n}`,
        content: 'x'.repeat(40_000),
        is_error: false,
      });
    }
    events.push({ timestamp: at(30), type: 'chat_response', message: `answer ${turn}` });
  }
  return JSON.stringify(events);
}

const STREAM = buildStream();

/** The fields of `replay --policy … --json` read here. */
interface PolicyReplay {
  policy: { name: string };
  requests: { cleared_tool_uses?: number }[];
  totals: {
    baseline: { prompt_tokens: number; cost: number };
    saved: { prompt_tokens: number; cost: number };
  };
}

function cliPolicyReplay(policy: string, sets: string[]): PolicyReplay {
  const config = writeTemporary('config.toml', CONFIG);
  const stream = writeTemporary('events.json', STREAM);
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'replay',
      '--config',
      config,
      '--tokenizer',
      'chars',
      '--json',
      '--policy',
      policy,
      ...sets.flatMap((set) => ['--set', set]),
      stream,
    ],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return JSON.parse(output) as PolicyReplay;
}

const count = (n: number) => new Intl.NumberFormat('en-US').format(n);

async function openStream(page: Page): Promise<void> {
  await openPlayground(page);
  await page.getByLabel('Tokenizer').selectOption('chars');
  await waitForResults(page);
  await setEditorText(page, 'Config (TOML)', CONFIG);
  await waitForResults(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name: 'events.json',
    mimeType: 'application/json',
    buffer: Buffer.from(STREAM),
  });
  await waitForResults(page, 60_000);
}

/** Opens a target's dialog from the keyboard and waits for its export. */
async function openDialog(page: Page, title: string): Promise<Locator> {
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  await exportButton.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: title }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Hints for ${title}` });
  await expect(dialog.locator('[data-status]')).toHaveAttribute('data-status', 'done');
  return dialog;
}

/** The dialog's row for one run equals the CLI's replay: tool uses cleared, prompt tokens and dollars saved. */
async function expectRow(dialog: Locator, run: 'exported' | 'defaults', expected: PolicyReplay) {
  const row = dialog.getByTestId('peer-replay').locator(`tr[data-run="${run}"]`);
  const cleared = expected.requests.reduce((sum, r) => sum + (r.cleared_tool_uses ?? 0), 0);
  await expect(row.locator('[data-figure="cleared"]')).toHaveText(count(cleared));
  await expect(row.locator('[data-figure="prompt-tokens"]')).toHaveText(
    `${count(expected.totals.saved.prompt_tokens)} of ${count(expected.totals.baseline.prompt_tokens)}`,
  );
  await expect(row.locator('[data-figure="cost"]')).toContainText(
    `${dollars(expected.totals.saved.cost)} (`,
  );
  await expect(row.locator('[data-figure="cost"]')).toContainText(
    `of ${dollars(expected.totals.baseline.cost)})`,
  );
}

/** The names in a Python or TypeScript list or set literal, as the snippet writes them. */
function quotedNames(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
}

/** Per target: its menu title, the policy replayed, and the `--set` words read from its snippet. */
const TARGETS: {
  title: string;
  policy: string;
  sets: (snippet: string) => string[];
}[] = [
  {
    title: 'Anthropic context editing',
    policy: 'anthropic-context-editing',
    sets: (snippet) => {
      const edit = JSON.parse(snippet).context_management.edits[0];
      const inputs = edit.clear_tool_inputs ?? false;
      return [
        `exclude_tools=${(edit.exclude_tools ?? []).join(',')}`,
        `clear_tool_inputs=${Array.isArray(inputs) ? inputs.join(',') : String(inputs)}`,
      ];
    },
  },
  {
    title: 'LangChain ClearToolUsesEdit (Python)',
    policy: 'anthropic-context-editing',
    sets: (snippet) => [
      `exclude_tools=${quotedNames(/exclude_tools=\[([^\]]*)\]/.exec(snippet)?.[1] ?? '').join(',')}`,
      `clear_tool_inputs=${/clear_tool_inputs=True/.test(snippet)}`,
    ],
  },
  {
    title: 'LangChain ClearToolUsesEdit (JS)',
    policy: 'anthropic-context-editing',
    sets: (snippet) => [
      `exclude_tools=${quotedNames(/excludeTools: \[([^\]]*)\]/.exec(snippet)?.[1] ?? '').join(',')}`,
      `clear_tool_inputs=${/clearToolInputs: true/.test(snippet)}`,
    ],
  },
  {
    title: 'OpenAI Agents SDK ToolOutputTrimmer',
    policy: 'openai-agents',
    sets: (snippet) => [
      `trimmable_tools=${quotedNames(/trimmable_tools=\{([^}]*)\}/.exec(snippet)?.[1] ?? '').join(',')}`,
    ],
  },
];

for (const target of TARGETS) {
  test(`${target.title}: the dialog's figure is replay --policy ${target.policy} with the exported parameters and at its defaults`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await openStream(page);
    const dialog = await openDialog(page, target.title);
    const sets = target.sets(await dialog.getByTestId('peer-snippet').inputValue());
    // The snippet was read: fs_read_file (keep) is excluded, or left out of the trimmable tools.
    expect(sets[0]).toMatch(
      target.policy === 'openai-agents'
        ? /^trimmable_tools=(?!.*fs_read_file).*search_code_index/
        : /^exclude_tools=fs_read_file$/,
    );
    const exported = cliPolicyReplay(target.policy, sets);
    const defaults = cliPolicyReplay(target.policy, []);
    // The input tells the two apart, and each clears something: otherwise the test proves little.
    expect(exported.totals.saved.prompt_tokens).not.toBe(defaults.totals.saved.prompt_tokens);
    expect(exported.totals.saved.prompt_tokens).toBeGreaterThan(0);
    await expectRow(dialog, 'exported', exported);
    await expectRow(dialog, 'defaults', defaults);
    // No JP-rule figure in the dialog.
    await expect(dialog.getByTestId('peer-saving')).toHaveCount(0);
    await expect(dialog.getByTestId('peer-cannot')).toContainText('cannot express');
  });
}

/**
 * The runtimes' own settings (issue 41): the cost pane's parameters for the
 * runtime's policy are what the export writes; the dialog's replayed rows
 * equal `replay --policy … --json` with the settings read back from the
 * snippet (TOML keys, settings.json), and at the policy's defaults. On this
 * stream each result is 10,000 tokens: Codex's default limit (10,000) cuts
 * none and 2,000 cuts every one; Claude Code summarises nothing under its
 * default 200,000 window and does in a 100,000 one.
 */
const RUNTIME_TARGETS: {
  title: string;
  policy: string;
  parameter: [string, string];
  sets: (snippet: string) => string[];
}[] = [
  {
    title: 'Codex CLI (config.toml)',
    policy: 'codex',
    parameter: ['tool_output_token_limit', '2000'],
    sets: (snippet) =>
      ['tool_output_token_limit', 'model_auto_compact_token_limit'].map(
        (key) => `${key}=${new RegExp(`^${key} = (\\d+)$`, 'm').exec(snippet)?.[1]}`,
      ),
  },
  {
    title: 'Claude Code (settings.json)',
    policy: 'claude-code',
    parameter: ['context_window', '100000'],
    sets: (snippet) => {
      const settings = JSON.parse(snippet) as {
        autoCompactEnabled: boolean;
        env?: { CLAUDE_CODE_AUTO_COMPACT_WINDOW?: string };
      };
      return [
        `auto_compact=${settings.autoCompactEnabled}`,
        `context_window=${settings.env?.CLAUDE_CODE_AUTO_COMPACT_WINDOW ?? 200000}`,
      ];
    },
  },
];

for (const target of RUNTIME_TARGETS) {
  test(`${target.title}: the snippet writes the cost pane's ${target.parameter[0]}, and the dialog's figure is replay --policy ${target.policy} with it`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await openStream(page);
    await showPane(page, 'cost');
    const cost = costPane(page);
    await cost.getByLabel('Clearing policy').selectOption(target.policy);
    const [key, value] = target.parameter;
    const field = cost.locator(`[data-parameter="${key}"] input`);
    await field.fill(value);
    await field.press('Enter');
    await expect(cost.locator('.extra-pane[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
    const dialog = await openDialog(page, target.title);
    const snippet = await dialog.getByTestId('peer-snippet').inputValue();
    const sets = target.sets(snippet);
    expect(sets).toContain(`${key}=${value}`);
    const exported = cliPolicyReplay(target.policy, sets);
    const defaults = cliPolicyReplay(target.policy, []);
    // The setting changes what the runtime does here, or the test would prove little.
    expect(exported.totals.saved.prompt_tokens).not.toBe(defaults.totals.saved.prompt_tokens);
    await expectRow(dialog, 'exported', exported);
    await expectRow(dialog, 'defaults', defaults);
    // Each setting links to the runtime's own documentation.
    const links = dialog.getByTestId('peer-settings').locator('th[scope="row"] a');
    expect(await links.count()).toBeGreaterThan(0);
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      expect(href).toMatch(
        /^https:\/\/(developers\.openai\.com|github\.com\/openai\/codex|code\.claude\.com)\//,
      );
    }
  });
}

test('Vercel pruneMessages has no replayed runtime: the dialog shows no figure', async ({
  page,
}) => {
  await openPlayground(page);
  const dialog = await openDialog(page, 'Vercel AI SDK pruneMessages');
  await expect(dialog.getByTestId('peer-replay-none')).toBeVisible();
  await expect(dialog.getByTestId('peer-replay')).toHaveCount(0);
  await expect(dialog.getByTestId('peer-saving')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Keyboard users land back where they opened it from.
  await expect(page.getByRole('button', { name: 'Export', exact: true })).toBeFocused();
});

test('at 390 px the dialog wraps tool names only at their separators and does not scroll sideways', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(page);
  const dialog = await openDialog(page, 'Anthropic context editing');
  const names = dialog.getByTestId('peer-tools').locator('th[scope="row"] code');
  expect(await names.count()).toBeGreaterThan(2);
  // Each piece of a name between its break chances (<wbr>) sits on one line.
  const broken = await findPiecesBrokenMidWord(names);
  expect(broken).toEqual([]);
  for (const element of [
    dialog,
    dialog.getByTestId('peer-tools'),
    dialog.getByTestId('peer-replay'),
  ]) {
    const [scrollWidth, clientWidth] = await element
      .first()
      .evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth + 1);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
