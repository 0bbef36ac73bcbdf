/**
 * `replay --policy` on every corpus agent transcript: each policy runs and
 * exits 0, and Anthropic context editing clears, at every request, the
 * tool uses an independent reading of its documentation says. That
 * reading is written here from the docs (platform.claude.com context
 * editing: past `trigger`, clear the oldest tool results, all but the last
 * `keep` tool uses), on the stream as `import` prints it, at the requests
 * the tests' own walk finds (src/test/request-cuts.ts); it imports no
 * product code. The token counts it triggers on are the replay's own
 * baseline prompts (the uncleared input the API would measure).
 */
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POLICY_NAMES } from '../core/replay/policies/types.ts';
import type { StreamElement } from '../core/types.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { findRequestCuts } from '../test/request-cuts.ts';
import { runCli } from '../test/run-cli.ts';

const FOLDERS = [
  join(SHARED_DIR, 'corpus', 'agent-transcripts'),
  join(SHARED_DIR, 'corpus', 'agent-transcripts-2026'),
];
// An empty config: the policies' own defaults, no hints.
const CONFIG = join(mkdtempSync(join(tmpdir(), 'replay-policies-')), 'empty.toml');
writeFileSync(CONFIG, '');
// Every policy the replay speaks: a new one is tested here without a change.
const POLICIES = POLICY_NAMES;

/** Every transcript file under the folders (not the licences, notices, schemas or expectations). */
function listTranscripts(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'licenses' ? [] : listTranscripts(path);
    if (!/\.jsonl?$/.test(name) || /expected|schema/.test(name)) return [];
    return [path];
  });
}

/** Tool uses in the prompt of each request, at the cuts the independent walk finds (request-cuts.ts). */
function toolUsesPerRequest(elements: readonly StreamElement[]): number[] {
  const before: number[] = [];
  let seen = 0;
  for (const element of elements) {
    before.push(seen);
    if (element.type === 'tool_call_request') seen++;
  }
  return findRequestCuts(elements).map((cut) => before[cut] as number);
}

describe('replay --policy on every corpus agent transcript', () => {
  it.each(POLICIES)(
    '%s runs on both folders, exit 0, and names itself',
    async (policy) => {
      const result = await runCli([
        'replay',
        '--config',
        CONFIG,
        '--policy',
        policy,
        '--json',
        ...FOLDERS,
      ]);
      expect(result.code, result.stderr).toBe(0);
      const replay = JSON.parse(result.stdout);
      expect(replay.policy.name).toBe(policy);
      expect(replay.conversations.length).toBeGreaterThan(15);
    },
    120_000,
  );

  const files = FOLDERS.flatMap(listTranscripts);
  it.each([
    { set: ['trigger_type=tool_uses', 'trigger=5', 'keep=2'], byTokens: false },
    { set: ['trigger=2000', 'keep=3'], byTokens: true },
  ])(
    'anthropic-context-editing $set clears what the docs say at every request',
    async ({ set, byTokens }) => {
      let checked = 0;
      let clearedSomewhere = 0;
      for (const file of files) {
        // A file that is not a transcript on its own (a subagent's meta) is left out, as a folder run skips it.
        const imported = await runCli(['import', file]).catch(() => null);
        if (imported === null || imported.code !== 0) continue;
        const elements: StreamElement[] = JSON.parse(imported.stdout);
        const result = await runCli([
          'replay',
          '--config',
          CONFIG,
          '--no-sanitize',
          '--policy',
          'anthropic-context-editing',
          ...set.flatMap((s) => ['--set', s]),
          '--json',
          file,
        ]);
        expect(result.code, `${file}: ${result.stderr}`).toBe(0);
        const replay = JSON.parse(result.stdout);
        const trigger = Number(set.find((s) => s.startsWith('trigger='))?.slice(8));
        const keep = Number(set.find((s) => s.startsWith('keep='))?.slice(5));
        const uses = toolUsesPerRequest(elements);
        const expected = uses.map((count, k) => {
          const measured = byTokens ? replay.requests[k].baseline.prompt_tokens : count;
          return measured > trigger ? Math.max(0, count - keep) : 0;
        });
        const actual = replay.requests.map(
          (r: { cleared_tool_uses: number }) => r.cleared_tool_uses,
        );
        expect(actual, file).toEqual(expected);
        checked++;
        clearedSomewhere += actual.some((n: number) => n > 0) ? 1 : 0;
      }
      expect(checked).toBeGreaterThan(15);
      // The check means something: several transcripts clear at some request.
      expect(clearedSomewhere).toBeGreaterThan(3);
    },
    300_000,
  );
});
