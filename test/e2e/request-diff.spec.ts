/**
 * The diff pane's per-request view (issue 22): request k's prompt with
 * nothing cleared beside the same prompt under a runtime's policy. On a
 * hand-made stream a person can count: one turn, four `read_file` calls,
 * each result "FILE n CONTENT" five times (74 characters, 19 tokens under
 * chars/4; the user message 5). Request k's input is about 5 + 20·(k − 1)
 * tokens, so with `trigger=60 keep=1` context editing first clears at
 * request 4, and at request 5 it clears the results of calls 1 to 3 and
 * keeps call 4's. `replay --policy … --json` is asked the same.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, openPlayground, showPane, test, waitForDiff, waitForResults } from './helpers.ts';
import {
  buildConversation,
  cliReplay,
  costPane,
  openCostSection,
  openStream as openCostStream,
  writeTemporary,
} from './replay-helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

function buildStream(): string {
  const at = (s: number) => `2026-03-01 10:00:${String(s).padStart(2, '0')}.0`;
  const events: object[] = [
    { timestamp: at(0), type: 'turn_start' },
    { timestamp: at(0), type: 'chat_request', content: 'Read the four files.' },
  ];
  for (let n = 1; n <= 4; n++) {
    events.push({
      timestamp: at(n * 10),
      type: 'tool_call_request',
      id: `c${n}`,
      name: 'read_file',
      arguments: {},
    });
    events.push({
      timestamp: at(n * 10 + 1),
      type: 'tool_call_response',
      id: `c${n}`,
      content: `FILE ${n} CONTENT `.repeat(5).trim(),
      is_error: false,
    });
  }
  events.push({ timestamp: at(55), type: 'chat_response', message: 'Done.' });
  return JSON.stringify(events);
}

const STREAM = buildStream();
const SETS = ['trigger=60', 'keep=1'];

/** Tool uses cleared at each request, from the CLI. */
function cliCleared(): number[] {
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'replay',
      '--config',
      writeTemporary('config.toml', ''),
      '--tokenizer',
      'chars',
      '--json',
      '--policy',
      'anthropic-context-editing',
      ...SETS.flatMap((set) => ['--set', set]),
      writeTemporary('events.json', STREAM),
    ],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const replay = JSON.parse(output) as { requests: { cleared_tool_uses?: number }[] };
  return replay.requests.map((request) => request.cleared_tool_uses ?? 0);
}

async function openStream(page: Page): Promise<void> {
  await openPlayground(page);
  await page.getByLabel('Tokenizer').selectOption('chars');
  await waitForResults(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name: 'events.json',
    mimeType: 'application/json',
    buffer: Buffer.from(STREAM),
  });
  await waitForResults(page);
}

test('request k under context editing: the cleared results are cleared on the right and whole on the left', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Tall enough that the diff editor draws every line of both prompts (it draws only what is in view).
  await page.setViewportSize({ width: 1280, height: 1800 });
  // The hand count, and the CLI agrees: nothing until request 4, then 2, then 3.
  expect(cliCleared()).toEqual([0, 0, 0, 2, 3]);

  await openStream(page);
  await waitForDiff(page);
  const pane = page.locator('#pane-diff');
  const picker = pane.getByTestId('request-picker');
  await picker.getByLabel('Under').selectOption('anthropic-context-editing');
  const parameters = picker.getByLabel('Parameters (key=value)');
  await parameters.fill(SETS.join(' '));
  await parameters.press('Enter');
  const request = picker.getByLabel('Request', { exact: true });
  await request.fill('5');
  await expect(picker.getByTestId('request-time')).toHaveText(
    'of 5, made at 2026-03-01 10:00:55.0',
  );
  await waitForDiff(page);

  await expect(pane.getByTestId('diff-caption')).toContainText(
    'Right: request 5 under anthropic-context-editing: what the model would have seen (3 replaced;',
  );
  // Three blocks differ (results 1 to 3); result 4 is the same on both sides.
  await expect(pane.locator('.cp-transcript .cp-status')).toHaveText('3 changes');
  const original = pane.locator('.editor.original .view-lines');
  const modified = pane.locator('.editor.modified .view-lines');
  for (const n of [1, 2, 3]) await expect(original).toContainText(`FILE ${n} CONTENT`);
  await expect(modified).not.toContainText('FILE 1 CONTENT');
  // Monaco draws spaces as no-break spaces: \s matches both.
  await expect
    .poll(
      async () =>
        ((await modified.textContent()) ?? '').match(/\[cleared\s+by\s+anthropic-context-editing/g)
          ?.length ?? 0,
    )
    .toBe(3);

  // From the keyboard: two steps down is request 3, below the trigger: nothing cleared.
  await request.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(request).toHaveValue('3');
  await expect(picker.getByTestId('request-time')).toHaveText(
    'of 5, made at 2026-03-01 10:00:30.0',
  );
  await waitForDiff(page);
  await expect(pane.getByTestId('diff-caption')).toContainText('(0 replaced;');
  await expect(pane.locator('.cp-transcript .cp-status')).toHaveText('No changes');

  // Back to the whole conversation.
  await picker.getByLabel('Under').selectOption('');
  await waitForDiff(page);
  await expect(pane.getByTestId('diff-caption')).toContainText(
    'Left: what the model would see with no compaction',
  );
});

/**
 * Issue 41: request k opens from the cost pane under anything the pane
 * prices. Three turns of a read and two tool calls each (9 requests),
 * the rule keeping the last turn and stripping tool calls: under every-turn
 * the prompt at request 9 (turn 3) holds turn 2's results stripped (the
 * first turn is kept: JP's rules keep the first turn unless told otherwise). The
 * billed prompt the diff names is the CLI's `prompt_tokens` at that request.
 */
const TURNS_STREAM = buildConversation(3, 3);
const STRIP_CONFIG = `[[conversation.compaction.rules]]
keep_last = 1
tool_calls = "strip"
`;

/** The caption of the diff's right side, once it shows request `k`. */
async function expectRightCaption(page: Page, text: string): Promise<void> {
  await waitForDiff(page);
  await expect(page.locator('#pane-diff').getByTestId('diff-caption')).toContainText(text);
}

test('request k opens from a row and from the chart under a JP schedule and a runtime policy, and from a per-tool cell under its hint', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 1800 });
  const target = writeTemporary('events.json', TURNS_STREAM);
  const cli = cliReplay(STRIP_CONFIG, target, 'every-turn');
  expect(cli.requests).toHaveLength(9);
  await openCostStream(page, TURNS_STREAM, STRIP_CONFIG);
  const cost = costPane(page);
  await cost.getByLabel('Schedule', { exact: true }).selectOption('every-turn');
  await expect(cost.locator('tr[data-chosen="true"]')).toHaveAttribute(
    'data-schedule',
    'every-turn',
  );

  // A row: request 9 under every-turn.
  await cost.getByRole('button', { name: /^Request 9: open its prompt under every-turn/ }).click();
  const billed = cli.requests[8]?.prompt_tokens.toLocaleString('en-US');
  await expectRightCaption(page, `request 9 under jp every-turn: what the model would have seen (`);
  await expect(page.locator('#pane-diff').getByTestId('diff-caption')).toContainText(
    `${billed} tokens billed`,
  );
  const pane = page.locator('#pane-diff');
  const picker = pane.getByTestId('request-picker');
  await expect(picker.getByLabel('Under')).toHaveValue('jp');
  await expect(picker.getByLabel('Schedule')).toHaveValue('every-turn');
  await expect(picker.getByLabel('Request', { exact: true })).toHaveValue('9');
  // Turn 2's result (call 3, Bash) is whole on the left and stripped on the right.
  // (Monaco draws spaces as no-break spaces: \s matches both.)
  await expect(pane.locator('.editor.original .view-lines')).toContainText(
    /call_2line\sof\soutput/,
  );
  await expect(pane.locator('.editor.modified .view-lines')).not.toContainText(
    /call_2line\sof\soutput/,
  );
  await expect(pane.locator('.editor.modified .view-lines')).toContainText(/\[compacted\]\sBash/);

  // The chart under JP's schedule: request 8, from the keyboard, then Enter.
  await showPane(page, 'cost');
  const slider = cost.getByRole('slider', { name: 'Request on the chart' });
  await slider.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await expect(cost.getByTestId('cost-readout')).toContainText('Request 8:');
  await page.keyboard.press('Enter');
  await expectRightCaption(page, 'request 8 under jp every-turn:');

  // The chart under a runtime policy: the last point, then Enter; and a row.
  await showPane(page, 'cost');
  await cost.getByLabel('Clearing policy').selectOption('anthropic-context-editing');
  await slider.focus();
  await page.keyboard.press('End');
  await expect(cost.getByTestId('cost-readout')).toContainText('Request 9:');
  await page.keyboard.press('Enter');
  await expectRightCaption(page, 'request 9 under anthropic-context-editing:');
  await expect(picker.getByLabel('Under')).toHaveValue('anthropic-context-editing');
  await showPane(page, 'cost');
  await cost
    .getByRole('button', { name: /^Request 4: open its prompt under anthropic-context-editing/ })
    .click();
  await expectRightCaption(page, 'request 4 under anthropic-context-editing:');

  // A per-tool cell under JP: fs_read_file kept, at the last request.
  await showPane(page, 'cost');
  await cost.getByLabel('Clearing policy').selectOption('jp');
  await openCostSection(page, 'Per tool, in money');
  await cost
    .getByRole('button', {
      name: /^fs_read_file = keep: .* open the last request's prompt under every-turn/,
    })
    .click();
  await expectRightCaption(page, 'request 9 under jp every-turn with fs_read_file = keep:');
  await expect(picker.getByLabel('What-if for tool')).toHaveValue('fs_read_file');
  await expect(picker.getByLabel('Hint')).toHaveValue('keep');
});
