import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOOD_CONFIG, GOOD_STREAM } from '../test/bad-input-cases.ts';
import { runBin } from '../test/run-cli.ts';

const cli = runBin;

describe('--output FILE', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-output-'));
  const config = join(work, 'good.toml');
  writeFileSync(config, GOOD_CONFIG);

  it('replaces the input it read with the compacted stream, leaving no temporary file', () => {
    const stream = join(work, 'events.json');
    writeFileSync(stream, GOOD_STREAM);
    const result = cli(['compact', '--config', config, stream, '--output', stream]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const written = JSON.parse(readFileSync(stream, 'utf8')) as { type: string }[];
    // The good stream has 8 events; its one rule compacts turn 0, so one compaction is appended.
    expect(written.map((event) => event.type).slice(-1)).toEqual(['compaction']);
    expect(written).toHaveLength(9);
    expect(readdirSync(work).sort()).toEqual(['events.json', 'good.toml']);
  });

  it('leaves the file as it was when the command fails', () => {
    const target = join(work, 'kept.json');
    writeFileSync(target, 'the earlier contents');
    const broken = join(work, 'broken.json');
    writeFileSync(broken, '[');
    const result = cli(['compact', '--config', config, broken, '--output', target]);
    expect(result.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('the earlier contents');
    expect(readdirSync(work).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('says in one line, without a stack trace, when the output cannot be written', () => {
    const stream = join(work, 'read-only.json');
    writeFileSync(stream, GOOD_STREAM);
    const result = cli(['reset', stream, '--output', join(work, 'no-such-folder', 'out.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^.*out\.json: error: cannot write the output: no such folder\n$/,
    );
  });
});
