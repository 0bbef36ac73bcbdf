import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { GOOD_CONFIG, GOOD_STREAM } from '../test/bad-input-cases.ts';

const BIN = resolve(import.meta.dirname, '../../bin/compaction-playground.mjs');

it('caps a 5 MB metadata.json title in --by-conversation rows (issue 24)', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-title-'));
  const folder = join(work, 'fake-conversation');
  mkdirSync(folder);
  writeFileSync(join(folder, 'events.json'), GOOD_STREAM);
  writeFileSync(join(folder, 'metadata.json'), JSON.stringify({ title: 'T'.repeat(5_000_000) }));
  const config = join(work, 'good.toml');
  writeFileSync(config, GOOD_CONFIG);
  const result = spawnSync(
    process.execPath,
    [BIN, 'report', '--config', config, '--tokenizer', 'chars', '--by-conversation', work],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  expect(result.status).toBe(0);
  const row = result.stdout.split('\n').find((line) => line.startsWith('T'));
  // 79 characters of the title and "…", then the figures.
  expect(row?.startsWith(`${'T'.repeat(79)}…  `)).toBe(true);
  expect(result.stdout.length).toBeLessThan(5_000);
});
