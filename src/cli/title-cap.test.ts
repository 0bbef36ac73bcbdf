import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { GOOD_CONFIG, GOOD_STREAM } from '../test/bad-input-cases.ts';
import { runBin } from '../test/run-cli.ts';

/** `report --by-conversation` over `work` under the good config (written beside it): exit 0, and what it printed. */
function reportByConversation(work: string): { stdout: string } {
  const config = join(work, 'good.toml');
  writeFileSync(config, GOOD_CONFIG);
  const result = runBin([
    'report',
    '--config',
    config,
    '--tokenizer',
    'chars',
    '--by-conversation',
    work,
  ]);
  expect(result.code).toBe(0);
  return result;
}

it('caps a 5 MB metadata.json title in --by-conversation rows (issue 24)', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-title-'));
  const folder = join(work, 'fake-conversation');
  mkdirSync(folder);
  writeFileSync(join(folder, 'events.json'), GOOD_STREAM);
  writeFileSync(join(folder, 'metadata.json'), JSON.stringify({ title: 'T'.repeat(5_000_000) }));
  const result = reportByConversation(work);
  const row = result.stdout.split('\n').find((line) => line.startsWith('T'));
  // 79 characters of the title and "…", then the figures.
  expect(row?.startsWith(`${'T'.repeat(79)}…  `)).toBe(true);
  expect(result.stdout.length).toBeLessThan(5_000);
});

it('titles a Claude Code session in --by-conversation by what the user wrote, not /clear (issue 24, item 14)', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-title-'));
  const record = (uuid: string, parentUuid: string | null, content: string, second: number) => ({
    type: 'user',
    uuid,
    parentUuid,
    timestamp: `2026-03-01T10:00:0${second}.000Z`,
    sessionId: 'fake',
    message: { role: 'user', content },
  });
  writeFileSync(
    join(work, 'fake-session.jsonl'),
    [
      record('u1', null, '<command-name>/clear</command-name>\n<command-args></command-args>', 1),
      record('u2', 'u1', 'Rename the fake widget', 2),
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );
  const result = reportByConversation(work);
  expect(result.stdout).toContain('Rename the fake widget');
  expect(result.stdout).not.toContain('command-name');
});
