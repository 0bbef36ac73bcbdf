/**
 * The cost pane's test vocabulary: a generated conversation of a chosen
 * number of requests (with tool calls the README's config hints, a stored
 * compaction part-way and idle gaps past the cache's time to live), the
 * CLI's `replay --json` on the same input, and the pane's figures as a
 * person reads them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, openPlayground, setEditorText, showPane, waitForResults } from './helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const TOOLS = ['fs_read_file', 'fs_modify_file', 'Bash'];

/**
 * A JP `events.json` with `turns` turns of `perTurn` requests each: a user
 * message, `perTurn − 1` tool calls (each a request before it), then a
 * reply. Turns start 10 minutes apart every third turn (cold), 1 minute
 * otherwise; a compaction of turn 0 is stored after turn 2.
 */
export function buildConversation(turns: number, perTurn: number): string {
  const events: object[] = [];
  let seconds = 0;
  const at = () => {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor(seconds / 60) % 60;
    const s = seconds % 60;
    const pad = (n: number) => String(n).padStart(2, '0');
    return `2026-03-01 ${pad(10 + h)}:${pad(m)}:${pad(s)}.0`;
  };
  let call = 0;
  for (let turn = 0; turn < turns; turn++) {
    seconds += turn === 0 ? 0 : turn % 3 === 0 ? 600 : 60;
    events.push({ timestamp: at(), type: 'turn_start' });
    events.push({ timestamp: at(), type: 'chat_request', content: `Please look at part ${turn}.` });
    for (let k = 0; k < perTurn - 1; k++) {
      seconds += 2;
      const name = TOOLS[call % TOOLS.length] as string;
      const id = `call_${call++}`;
      events.push({
        timestamp: at(),
        type: 'tool_call_request',
        id,
        name,
        arguments: { path: `src/file_${call}.rs`, note: 'x'.repeat(20 + (call % 7) * 5) },
      });
      seconds += 1;
      events.push({
        timestamp: at(),
        type: 'tool_call_response',
        id,
        content: `${'line of output '.repeat(6 + (call % 11))}end ${call}`,
        is_error: false,
      });
    }
    seconds += 3;
    events.push({ timestamp: at(), type: 'chat_response', message: `Done with part ${turn}.` });
    if (turn === 2) {
      events.push({
        type: 'compaction',
        timestamp: at(),
        from_turn: 0,
        to_turn: 0,
        tool_calls: { policy: 'strip', request: true, response: true },
      });
    }
  }
  return JSON.stringify(events);
}

/** The fields of `replay --json` these tests read (issue 21's shape). */
export interface CliReplay {
  schedule: string;
  requests: {
    index: number;
    prompt_tokens: number;
    cache_read: number;
    cache_write: number;
    output_tokens: number;
    cost: number;
    cold: boolean;
    prefix_broken: boolean;
    under_minimum?: boolean;
    baseline: { cost: number; prompt_tokens: number };
    compactions_created: number;
    recorded: { prompt_tokens: number } | null;
  }[];
  totals: { schedule: { prompt_tokens: number; cost: number } };
  schedules: Record<string, number>;
  tools: {
    name: string;
    hint: string;
    what_if_cost: Record<string, number>;
    drawn_on_later: { results: number; drawn: number };
  }[];
  recorded: {
    prompt_tokens: number;
    cache_read_tokens: number;
    cache_write_tokens: number;
    output_tokens: number;
  } | null;
}

/** `replay --config <config> --json --schedule <schedule> [args] <target>`, run by node. */
export function cliReplay(
  config: string,
  target: string,
  schedule: string,
  args: string[] = [],
): CliReplay {
  const dir = mkdtempSync(join(tmpdir(), 'playground-replay-'));
  const configPath = join(dir, 'config.toml');
  writeFileSync(configPath, config);
  const output = execFileSync(
    process.execPath,
    [
      'bin/compaction-playground.mjs',
      'replay',
      '--config',
      configPath,
      '--json',
      '--schedule',
      schedule,
      ...args,
      target,
    ],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return JSON.parse(output) as CliReplay;
}

/** Writes a text to a fresh temporary file and gives its path. */
export function writeTemporary(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'playground-replay-')), name);
  writeFileSync(path, text);
  return path;
}

/** Dollars as the page writes them: four decimals, digits grouped (written here, not imported from the page's code). */
export function dollars(value: number): string {
  const rounded = Math.round(value * 10_000) / 10_000;
  const digits = Math.abs(rounded).toLocaleString('en-US', {
    minimumFractionDigits: 4,
    maximumFractionDigits: 4,
  });
  return `${rounded < 0 ? '-' : ''}$${digits}`;
}

/** A count as the page shows it, back to a number ("12,345" → 12345). */
export function count(text: string | null): number {
  return Number((text ?? '').replaceAll(',', '').trim());
}

/** The cost pane. */
export function costPane(page: Page) {
  return page.locator('#pane-cost');
}

/**
 * Opens a section of the cost pane a person opens to see it ("Policies side
 * by side", "Per tool, in money"), by its summary, and waits until what it
 * asked the worker for has arrived.
 */
export async function openCostSection(page: Page, title: string, timeout = 60_000): Promise<void> {
  const section = costPane(page).locator('details.cost-section', {
    has: page.locator('summary', { hasText: title }),
  });
  await section.locator('summary').click();
  // Its frame shows the latest input's answer (`data-current`), never an older one.
  await expect(section.locator('.deferred-pane[data-current="true"]')).toHaveCount(1, { timeout });
}

/**
 * Opens the playground with `config`, opens `text` as an `events.json`,
 * waits for its figures (up to `timeout` ms: a long conversation takes a
 * while on a loaded machine) and brings the cost pane into view.
 */
export async function openStream(
  page: Page,
  text: string,
  config: string,
  timeout = 60_000,
): Promise<void> {
  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', config);
  await waitForResults(page);
  await page.getByLabel('Open events.json').setInputFiles({
    name: 'events.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await waitForResults(page, timeout);
  await showPane(page, 'cost');
}
