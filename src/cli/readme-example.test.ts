/**
 * The README's `report` and `replay` on a real Claude Code session, re-run: the config
 * block is written to `strip.toml`, the command line after `$ ` is run from
 * the corpus folder through the real binary, and what it prints must be the
 * README's block, character for character. A change in the figures or in
 * the table's layout then fails here until the README shows it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { SHARED_DIR } from '../test/conformance.ts';

const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin/compaction-playground.mjs');
const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The README's fenced blocks, in order: their info string and their text. */
function fencedBlocks(markdown: string): { info: string; text: string }[] {
  return [...markdown.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    info: match[1] ?? '',
    text: match[2] ?? '',
  }));
}

/**
 * Finds the README block whose text starts with `start`, writes the TOML
 * block right before it to `strip.toml`, runs the command line after `$ `
 * from the corpus folder through the real binary, and compares.
 */
function rerunReadmeBlock(start: string): void {
  const blocks = fencedBlocks(README);
  const at = blocks.findIndex((block) => block.text.startsWith(start));
  expect(at, `the README has the block starting "${start}"`).toBeGreaterThan(0);
  const config = blocks[at - 1];
  const shown = blocks[at]?.text ?? '';
  expect(config?.info, 'a TOML block comes right before it').toBe('toml');

  const work = mkdtempSync(join(tmpdir(), 'readme-report-'));
  writeFileSync(join(work, 'strip.toml'), config?.text ?? '');
  const [command = '', ...printed] = shown.split('\n');
  const args = command.replace('$ compaction-playground ', '').split(' ');
  const configAt = args.indexOf('--config');
  args[configAt + 1] = join(work, 'strip.toml');
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: join(SHARED_DIR, 'corpus', 'agent-transcripts'),
    encoding: 'utf8',
  });
  // Standard error has only the loss guard's line: every call of the file is counted.
  expect(result.stderr).toMatch(
    /^claude-code\/toolpath__convo\.jsonl: import: read as Claude Code session \(JSONL\); 19 tool calls in the file, all counted; [^\n]*\n$/,
  );
  expect(result.status).toBe(0);
  expect(result.stdout).toBe(printed.join('\n'));
}

it("re-runs the README's report on a Claude Code session and prints its block exactly", () => {
  rerunReadmeBlock('$ compaction-playground report --config strip.toml claude-code/');
});

it("re-runs the README's replay on a Claude Code session and prints its block exactly", () => {
  rerunReadmeBlock(
    '$ compaction-playground replay --config strip.toml --schedule every-turn claude-code/',
  );
});
