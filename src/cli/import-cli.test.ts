import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../core/stream/codec.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { callsPerTool } from '../test/corpus.ts';
import { AGENT_TRANSCRIPTS } from '../test/fixtures/agent-transcripts.ts';
import { reportCalls, reportedCalls, runBin, runCli } from '../test/run-cli.ts';

const DIR = join(SHARED_DIR, 'corpus', 'agent-transcripts');
const work = mkdtempSync(join(tmpdir(), 'import-cli-'));
const config = join(work, 'rules.toml');
writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n');

const run = runCli;

function sumCalls(paths: readonly string[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const entry of AGENT_TRANSCRIPTS) {
    if (!paths.includes(entry.path)) continue;
    for (const [name, calls] of Object.entries(entry.calls)) sum[name] = (sum[name] ?? 0) + calls;
  }
  return sum;
}

describe('import', () => {
  for (const expected of AGENT_TRANSCRIPTS) {
    it(`prints ${expected.path} as a JP events.json, with its notes on stderr`, async () => {
      const { code, stdout, stderr } = await run(['import', join(DIR, expected.path)]);
      expect(code).toBe(0);
      const parsed = parseEventsText(stdout, 'storage');
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(callsPerTool(parsed.elements ?? [])).toEqual(expected.calls);
      for (const [line] of expected.errors) expect(stderr).toContain(`:${line}:`);
      if (expected.notes.length > 0) expect(stderr).toContain(': note: ');
    });
  }

  it('says on stderr which format it read and what in the file decided it (class 5)', async () => {
    const codex = join(DIR, 'codex/toolpath__convo.jsonl');
    // The rollout's line 1 is {"timestamp", "type": "session_meta", "payload": {…}}.
    const rollout = await run(['import', codex]);
    expect(rollout.stderr).toContain(
      `${codex}: import: read as Codex CLI rollout (JSONL): its first record (line 1) is a "session_meta" with a "payload"; `,
    );
    // An Amp thread export: {"v": 73, "id": "T-019fa4db-…", …, "messages": […]}.
    const amp = join(SHARED_DIR, 'corpus', 'agent-transcripts-2026', 'amp', 'toolpath__convo.json');
    const thread = await run(['import', amp]);
    expect(thread.stderr).toContain(
      `${amp}: import: read as Amp thread (export or --stream-json): its "id" is an Amp thread id ("T-…") beside "v" and "messages"; 11 tool calls in the file, all counted`,
    );
    // Forced, the line says so, and what in the file fits.
    const forced = await run(['import', '--from', 'codex', codex]);
    expect(forced.stderr).toContain(
      'read as Codex CLI rollout (JSONL): the format was asked for (codex), and its first record (line 1) is a "session_meta" with a "payload"; ',
    );
  });

  it('refuses a file in no known format with one line naming the formats', async () => {
    const path = join(work, 'notes.json');
    writeFileSync(path, '{"hello": "world"}');
    await expect(run(['import', path])).rejects.toThrow(/Claude Code session.*Codex CLI rollout/);
  });
});

describe('report', () => {
  for (const expected of AGENT_TRANSCRIPTS) {
    it(`counts ${expected.path} (${expected.format}) per tool as counted with jq`, async () => {
      const { code, calls } = await reportCalls(config, join(DIR, expected.path));
      expect(code).toBe(0);
      expect(calls).toEqual(expected.calls);
    });
  }
});

describe('report over a folder of mixed Claude Code and Codex sessions', () => {
  it('counts every session, subagents included, through the real binary', () => {
    const folder = join(work, 'mixed');
    cpSync(join(DIR, 'claude-code'), join(folder, 'claude'), { recursive: true });
    cpSync(join(DIR, 'codex'), join(folder, 'codex', '2026', '01', '02'), { recursive: true });
    const result = runBin(['report', '--json', '--tokenizer', 'chars', '--config', config, folder]);
    expect(result.code).toBe(0);
    const calls = reportedCalls(result.stdout);
    const sessions = sumCalls(
      AGENT_TRANSCRIPTS.filter((e) => e.format === 'claude-code' || e.format === 'codex').map(
        (e) => e.path,
      ),
    );
    // Found in a folder, a session's inline subagents are conversations too: sidechain_integrated's
    // sidechain lines hold one Grep call (line 4, counted by hand), beside the parent's Task.
    expect(calls).toEqual({ ...sessions, Grep: (sessions.Grep ?? 0) + 1 });
    // The malformed rollout's bad line is a warning; the file still counts.
    expect(result.stderr).toContain(
      'rollout-66666666-6666-4666-8666-666666666666.jsonl:3:2: warning',
    );
  });

  it('names subagents under their session, and lists a file that does not read with its error', async () => {
    const folder = join(work, 'with-bad');
    cpSync(join(DIR, 'claude-code', 'claude-code-log__minimal_showcase'), folder, {
      recursive: true,
    });
    writeFileSync(join(folder, 'broken.jsonl'), 'not json at all\n');
    const { code, stdout, stderr } = await run([
      'report',
      '--by-conversation',
      '--tokenizer',
      'chars',
      '--config',
      config,
      folder,
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/skipped: .*broken\.jsonl:1:1: error/);
    const lines = stdout.split('\n');
    const parent = lines.findIndex((l) => l.startsWith('Give me a tour of the repository'));
    expect(lines[parent + 1]).toContain('› agent-showcol1: Survey the web module');
    expect(lines[parent + 2]).toContain('› agent-showcol2: Survey the jobs module');
    // The bad file is a line of the table too, its error in the last column.
    expect(lines[0]).toMatch(/saved %\s+not read$/);
    const bad = lines.find((l) => l.startsWith(join(folder, 'broken.jsonl')));
    expect(bad).toMatch(/^\S+broken\.jsonl\s+–\s+–\s+–\s+–\s+–\s+1:1: error: This text is neither/);
    expect(lines.indexOf(bad ?? '')).toBeLessThan(lines.indexOf(''));
    expect(stdout).toContain('over 3 conversations');
  });
});
