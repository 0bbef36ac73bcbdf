/** A folder walk reads Context Lens recordings (`*.lhar`) as conversations (issue 20). */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SHARED_DIR } from '../test/conformance.ts';
import { reportCalls } from '../test/run-cli.ts';

it('report over a folder counts the calls of an .lhar recording in it', async () => {
  const work = mkdtempSync(join(tmpdir(), 'lhar-folder-'));
  const folder = join(work, 'traces');
  mkdirSync(folder);
  copyFileSync(
    join(import.meta.dirname, '../test/fixtures/lhar/openclaw-convo.lhar'),
    join(folder, 'run.lhar'),
  );
  const config = join(work, 'rules.toml');
  writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\n');
  const { code, stderr, calls } = await reportCalls(config, folder);
  expect(code, stderr).toBe(0);
  expect(stderr).toContain('run.lhar: import: read as Context Lens LHAR recording');
  // The recording was made from this OpenClaw session; its counts are the corpus's own.
  const expected = JSON.parse(
    readFileSync(
      join(SHARED_DIR, 'corpus/agent-transcripts-2026/expected-tool-calls.json'),
      'utf8',
    ),
  ) as Record<string, Record<string, number>>;
  expect(calls).toEqual(expected['openclaw/toolpath__convo.jsonl']);
});
