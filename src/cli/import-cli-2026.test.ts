import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecordedUsage } from '../core/import/recorded-usage.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { callsPerTool } from '../test/corpus.ts';
import { CORPUS_2026 } from '../test/fixtures/agent-transcripts-2026.ts';
import { reportCalls, reportedCalls, runBin, runCli } from '../test/run-cli.ts';

const CORPUS = join(SHARED_DIR, 'corpus');
const DIR = join(CORPUS, 'agent-transcripts-2026');
const EXPECTED = JSON.parse(readFileSync(join(DIR, 'expected-tool-calls.json'), 'utf8')) as Record<
  string,
  Record<string, number>
>;
const work = mkdtempSync(join(tmpdir(), 'import-cli-2026-'));
const config = join(work, 'rules.toml');
writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n');

const run = runCli;

const fileOf = (path: string, old?: boolean) =>
  join(old ? join(CORPUS, 'agent-transcripts') : DIR, path);

describe('import and report on the 2026 corpus', () => {
  for (const entry of CORPUS_2026.filter((e) => !e.old && e.format !== null)) {
    it(`import writes ${entry.path} as a JP events.json the stream reader reads, its calls per tool as counted without the product`, async () => {
      const { code, stdout } = await run(['import', fileOf(entry.path)]);
      expect(code).toBe(0);
      const parsed = parseEventsText(stdout, 'storage');
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(callsPerTool(parsed.elements ?? [])).toEqual(EXPECTED[entry.path]);
    });

    it(`report --json counts ${entry.path} per tool as counted without the product`, async () => {
      const { code, calls } = await reportCalls(config, fileOf(entry.path));
      expect(code).toBe(0);
      expect(calls).toEqual(EXPECTED[entry.path]);
    });
  }

  for (const entry of CORPUS_2026.filter((e) => e.usage !== undefined)) {
    it(`the usage recorded per response in ${entry.path} survives import and reads back from its events.json`, async () => {
      const path = fileOf(entry.path, entry.old);
      const { stdout } = await run(['import', path]);
      const parsed = parseEventsText(stdout, 'storage');
      const kept = (parsed.elements ?? []).flatMap((e) => {
        const usage = readRecordedUsage(e.metadata);
        return usage ? [usage] : [];
      });
      expect(kept).toEqual(entry.usage?.(readFileSync(path, 'utf8')));
    });
  }
});

describe('report over the 2026 corpus folder, through the real binary', () => {
  it('counts every transcript per tool as the independent counts add up, and names each file it skips', () => {
    const result = runBin(['report', '--json', '--tokenizer', 'chars', '--config', config, DIR]);
    expect(result.code).toBe(0);
    const sum: Record<string, number> = {};
    for (const calls of Object.values(EXPECTED)) {
      for (const [name, count] of Object.entries(calls)) sum[name] = (sum[name] ?? 0) + count;
    }
    expect(reportedCalls(result.stdout)).toEqual(sum);
    // The two JSON files that are not transcripts: the counts and the LHAR schema.
    expect(result.stderr).toContain('expected-tool-calls.json:1:1: error');
    expect(result.stderr).toContain('context-lens__lhar.schema.json:1:1: error');
  });
});
