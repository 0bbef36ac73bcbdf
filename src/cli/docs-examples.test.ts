/**
 * Every CLI run the README and `docs/` show, re-run: a block whose first line
 * is `$ compaction-playground …` is run from `../shared/corpus/` through the
 * real binary, with the TOML block right before it written under the name
 * its `--config` gives, and what it prints must be the block, character for
 * character. The figures in the paragraph after such a block must be among
 * what it printed. A change in the figures or in a table's layout then fails
 * here until the page that shows it is updated.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../test/conformance.ts';

const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin/compaction-playground.mjs');
const PROMPT = '$ compaction-playground ';

interface Block {
  info: string;
  text: string;
  /** Where the block's closing fence ends in the page. */
  end: number;
}

/** A page's fenced blocks, in order. */
function fencedBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    info: match[1] ?? '',
    text: match[2] ?? '',
    end: (match.index ?? 0) + match[0].length,
  }));
}

/** The paragraph right after a block (up to the next blank line after text). */
function paragraphAfter(markdown: string, end: number): string {
  return (
    markdown
      .slice(end)
      .trimStart()
      .split(/\n\s*\n/)[0] ?? ''
  );
}

/** The figures a sentence quotes: money, grouped numbers, decimals with % or ×. */
function quotedFigures(paragraph: string): string[] {
  return [
    ...paragraph.matchAll(/\$\d{1,3}(?:,\d{3})*\.\d+|\d{1,3}(?:,\d{3})+|\d+\.\d+(?=[%×])/g),
  ].map((match) => match[0]);
}

const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const runs = PAGES.flatMap((page) => {
  const markdown = readFileSync(join(REPO, page), 'utf8');
  const blocks = fencedBlocks(markdown);
  return blocks.flatMap((block, at) =>
    block.text.startsWith(PROMPT) ? [{ page, markdown, blocks, block, at }] : [],
  );
});

describe('the CLI runs shown in the README and docs/', () => {
  it('the README shows at least one real run', () => {
    expect(runs.filter((run) => run.page === 'README.md').length).toBeGreaterThan(0);
  });

  it.each(runs.map((run) => [`${run.page}: ${run.block.text.split('\n')[0]}`, run] as const))(
    '%s prints its block exactly',
    (_name, { markdown, blocks, block, at }) => {
      const [command = '', ...printed] = block.text.split('\n');
      const args = command.slice(PROMPT.length).split(' ');
      const work = mkdtempSync(join(tmpdir(), 'docs-run-'));
      const configAt = args.indexOf('--config');
      if (configAt >= 0) {
        const config = blocks[at - 1];
        expect(config?.info, 'a TOML block comes right before it').toBe('toml');
        args[configAt + 1] = join(work, args[configAt + 1] ?? 'config.toml');
        writeFileSync(args[configAt + 1] ?? '', config?.text ?? '');
      }
      const result = spawnSync(process.execPath, [BIN, ...args], {
        cwd: join(SHARED_DIR, 'corpus'),
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      // Standard error holds at most the loss guard's line per imported file,
      // and it says every call of the file is counted.
      for (const line of result.stderr.split('\n').filter(Boolean)) {
        expect(line).toMatch(/: import: read as .*; (\d+) tool calls in the file, all counted/);
      }
      expect(result.stdout).toBe(printed.join('\n'));
      for (const figure of quotedFigures(paragraphAfter(markdown, block.end))) {
        expect(result.stdout, `the paragraph after the block quotes ${figure}`).toContain(figure);
      }
    },
  );
});
