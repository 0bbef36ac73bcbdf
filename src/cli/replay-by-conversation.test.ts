/**
 * `replay --by-conversation` on the corpus's Claude Code folder (sessions,
 * a session's `subagents/` files and inline subagents): each row is what
 * that conversation's own `replay --json` says it cost (its bill where every
 * request was recorded, else `stored`), and the folder's schedules are the
 * sums `replay --json FOLDER` already prints.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FolderMoney } from '../core/replay/folder-money.ts';
import type { Replay } from '../core/replay/types.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { runCliInMemory } from './run-in-memory.ts';

const FOLDER = join(SHARED_DIR, 'corpus', 'agent-transcripts', 'claude-code');
const SESSION = join(FOLDER, 'toolpath__convo.jsonl');
const CONFIG = join(mkdtempSync(join(tmpdir(), 'replay-money-')), 'rules.toml');
writeFileSync(
  CONFIG,
  '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\ntool_calls = "strip"\n',
);

const readText = (path: string) => readFileSync(path, 'utf8');

async function run(args: readonly string[]) {
  return runCliInMemory(['replay', '--config', CONFIG, ...args], readText);
}

async function json<T>(args: readonly string[]): Promise<T> {
  const result = await run([...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe('replay --by-conversation', () => {
  it('gives each conversation the cost its own replay says, and sums the schedules', async () => {
    const money = await json<FolderMoney>(['--by-conversation', FOLDER]);
    const folder = await json<Replay>([FOLDER]);
    // Five files, one session's two subagents/ files, and sidechain_integrated's two inline subagents.
    expect(money.conversations).toHaveLength(9);
    expect(money.conversations.map((row) => row.name)).toEqual(
      folder.conversations?.map((row) => row.name),
    );
    for (const [k, row] of money.conversations.entries()) {
      const own = folder.conversations?.[k];
      if (!own) throw new Error(`no row ${k}`);
      const billed = own.recorded !== null && own.recorded.requests === own.requests;
      expect(row.cost).toBe(billed ? own.recorded?.cost : own.schedules.stored);
      expect(row.basis === 'recorded').toBe(billed);
      expect(row.requests).toBe(own.requests);
    }
    for (const [schedule, cost] of Object.entries(folder.schedules)) {
      expect(money.total.schedules[schedule as keyof Replay['schedules']]).toBeCloseTo(cost, 12);
    }
    expect(money.total.cost).toBeCloseTo(
      money.conversations.reduce((sum, row) => sum + row.cost, 0),
      12,
    );
    expect(money.total.conversations).toBe(9);
    expect(money.total.recorded + money.total.modelled).toBe(9);
    // The cheapest over the folder is the cheapest of the summed schedules besides stored.
    const others = Object.entries(money.total.schedules).filter(([s]) => s !== 'stored');
    const lowest = Math.min(...others.map(([, cost]) => cost));
    if (lowest < money.total.stored) {
      expect(money.total.cheapest?.cost).toBe(lowest);
      expect(money.total.cheapest?.against).toBe('against the session as it ran');
    } else expect(money.total.cheapest).toBeNull();
    // Days add up to the total, conversation for conversation.
    expect(money.days.reduce((n, day) => n + day.conversations, 0)).toBe(9);
  });

  it('dates a conversation by its first request, in UTC', async () => {
    const money = await json<FolderMoney>(['--by-conversation', SESSION]);
    const replay = await json<Replay>([SESSION]);
    const first = replay.requests[0]?.time ?? '';
    expect(money.conversations[0]?.day).toBe(first.slice(0, 10));
    expect(money.days).toEqual([
      { day: first.slice(0, 10), conversations: 1, cost: money.conversations[0]?.cost },
    ]);
  });

  it('prints a row per conversation, a line per day and the total', async () => {
    const result = await run(['--by-conversation', FOLDER]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[2]).toMatch(
      /^conversation +day +requests +cost +basis +as ran +cheapest +saving$/,
    );
    expect(result.stdout).toMatch(
      /^Please review the change\. +2025-06-14 +1 +\$0\.0002 +recorded/m,
    );
    expect(result.stdout).toMatch(/^day +conversations +cost$/m);
    expect(result.stdout).toMatch(/^unknown +1 +\$0\.0000$/m);
    expect(result.stdout).toMatch(
      /^These 9 conversations cost about \$\d+\.\d{4} \(7 recorded, 2 modelled\)\.$/m,
    );
    expect(result.stdout).toMatch(/against the session as it ran/);
  });

  it('refuses --compare and --sweep', async () => {
    const compare = await run(['--by-conversation', '--compare', SESSION]);
    expect(compare.code).toBe(2);
    expect(compare.stderr).toContain('--by-conversation prints what each conversation cost');
  });
});
