/**
 * A line cut mid-write in every JSON Lines format (issue 20): the counting
 * commands say on standard error which line did not read, and the figures
 * lack exactly the call that line held, counted as left out when its result
 * on a later line names it, or said to be uncountable when nothing does.
 * Each row cuts a corpus file just past a call's id on the line (read by
 * hand) that requests it; the counts are the corpus's independent ones
 * (expected-tool-calls.json, and the jq counts of agent-transcripts.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../test/conformance.ts';
import { AGENT_TRANSCRIPTS } from '../test/fixtures/agent-transcripts.ts';
import { reportCalls } from '../test/run-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'cut-lines-cli-'));
const config = join(work, 'rules.toml');
writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\n');

const CORPUS = join(SHARED_DIR, 'corpus');
const EXPECTED_2026 = JSON.parse(
  readFileSync(join(CORPUS, 'agent-transcripts-2026/expected-tool-calls.json'), 'utf8'),
) as Record<string, Record<string, number>>;

function expectedCalls(path: string): Record<string, number> {
  const [folder, ...rest] = path.split('/');
  const inFolder = rest.join('/');
  if (folder === 'agent-transcripts-2026') return EXPECTED_2026[inFolder] ?? {};
  const entry = AGENT_TRANSCRIPTS.find((e) => e.path === inFolder);
  if (!entry) throw new Error(`no expected counts for ${path}`);
  return entry.calls;
}

interface Cut {
  label: string;
  /** Under the shared corpus folder (or an absolute path for the generated LHAR sample). */
  path: string;
  /** The 1-based line cut. */
  line: number;
  /** The calls the line requests (id and tool), the first named first; none when it holds none. */
  calls?: { id: string; tool: string }[];
  /** How many of those calls a result on a later line names (by an id the cut text keeps), so the import can tell they were lost. */
  told: number;
  /** The counts the uncut file imports to, where they are not in the corpus tables. */
  expected?: Record<string, number>;
}

const CUTS: Cut[] = [
  {
    label: 'Claude Code',
    path: 'agent-transcripts-2026/claude-code/kimi-cli__6f__b0000a4ae0__3__full.jsonl',
    line: 5,
    calls: [{ id: 'toolu_01WZaVU3pU1jT7kGLEBNU5pz', tool: 'Bash' }],
    told: 1,
  },
  {
    label: 'Codex',
    path: 'agent-transcripts/codex/toolpath__convo.jsonl',
    line: 39,
    calls: [{ id: 'call_YrsZZmJxxRTadsHqQUDeG7KT', tool: 'exec_command' }],
    told: 1,
  },
  {
    label: 'Copilot CLI',
    path: 'agent-transcripts-2026/copilot-cli/toolpath__convo.jsonl',
    line: 14,
    calls: [{ id: 'c4', tool: 'grep_search' }],
    told: 1,
  },
  {
    label: 'OpenClaw',
    path: 'agent-transcripts-2026/openclaw/toolpath__convo.jsonl',
    line: 6,
    calls: [{ id: 'toolu_01J9Y1N7BpHYmjkYckBct86R', tool: 'exec' }],
    told: 1,
  },
  {
    label: 'Kimi CLI',
    path: 'agent-transcripts-2026/kimi-cli/kimi-cli__531d195b-6436-426e-b010-4bf723a992de.jsonl',
    line: 25,
    calls: [{ id: 'Bash:4', tool: 'Bash' }],
    told: 1,
  },
  {
    label: 'Kimi Code',
    path: 'agent-transcripts-2026/kimi-code/agent-sessions__kimi__subagent_agent-0.jsonl',
    line: 19,
    calls: [{ id: 'Bash_1', tool: 'Bash' }],
    told: 1,
  },
  {
    label: 'Amp (--stream-json)',
    path: 'agent-transcripts-2026/amp/toolpath__stream.jsonl',
    line: 13,
    calls: [{ id: 'TU-033wt8aXdOd7dVwr43YzvE', tool: 'shell_command' }],
    told: 1,
  },
  // Pi's samples hold no tool call: the cut line is still named.
  { label: 'Pi', path: 'agent-transcripts-2026/pi/toolpath__convo.jsonl', line: 5, told: 0 },
  // Gemini CLI keeps a call's result inside the call: no later line tells the cut call was there.
  {
    label: 'Gemini CLI (JSONL)',
    path: 'agent-transcripts/gemini-cli/toolpath__convo.jsonl',
    line: 6,
    calls: [{ id: 'list_directory_1778178485667_0', tool: 'list_directory' }],
    told: 0,
  },
  // An LHAR entry's calls are answered in the next entry's request: the first call's id survives the cut, the second's does not.
  {
    label: 'Context Lens LHAR',
    path: join(import.meta.dirname, '../test/fixtures/lhar/openclaw-convo.lhar'),
    line: 6,
    calls: [
      { id: 'toolu_01UNZfvfHQrdHjujs9cEHL5d', tool: 'exec' },
      { id: 'toolu_01LB8rA7gSUboxKoJnYwEQiK', tool: 'exec' },
    ],
    told: 1,
    expected: EXPECTED_2026['openclaw/toolpath__convo.jsonl'],
  },
];

/** The file with line `line` cut 12 characters past its first call's id (or in its middle). */
function cutFile(cut: Cut): string {
  const source = cut.path.startsWith('/') ? cut.path : join(CORPUS, cut.path);
  const lines = readFileSync(source, 'utf8').split('\n');
  const original = lines[cut.line - 1] as string;
  const [first] = cut.calls ?? [];
  const end =
    first === undefined
      ? original.length >> 1
      : Math.min(
          original.indexOf(JSON.stringify(first.id)) + first.id.length + 12,
          original.length - 1,
        );
  // The cut must take every call of the line with it, and keep the first one's id.
  for (const { id } of cut.calls ?? []) {
    const at = original.indexOf(JSON.stringify(id));
    if (at < 0 || (id !== first?.id && at < end)) throw new Error(`bad cut for ${id}`);
  }
  if (end >= original.length) throw new Error('the cut would keep the whole line');
  lines[cut.line - 1] = original.slice(0, end);
  const path = join(work, `${cut.label.replace(/\W+/g, '-')}.jsonl`);
  writeFileSync(path, lines.join('\n'));
  return path;
}

const total = (calls: Record<string, number>) =>
  Object.values(calls).reduce((sum, n) => sum + n, 0);

describe('a line cut mid-write, in every JSON Lines format', () => {
  for (const cut of CUTS) {
    it(`${cut.label}: names line ${cut.line} on standard error and counts what it held`, async () => {
      const path = cutFile(cut);
      const expected = { ...(cut.expected ?? expectedCalls(cut.path)) };
      const inFile = total(expected);
      for (const { tool } of cut.calls ?? []) {
        expected[tool] = (expected[tool] ?? 0) - 1;
        if (expected[tool] === 0) delete expected[tool];
      }
      const { code, stderr, calls } = await reportCalls(config, path);
      expect(code).toBe(0);
      expect(calls).toEqual(expected);
      // The cut line's warning, with its number.
      expect(stderr).toContain(`${path}:${cut.line}:`);
      const account = stderr.split('\n').find((l) => l.startsWith(`${path}: import: `)) ?? '';
      const lost = cut.calls?.length ?? 0;
      const counted = inFile - lost;
      // What the file holds as far as the import can tell: the calls read, and those told lost.
      const known = counted + cut.told;
      const inFileText = `${known} tool call${known === 1 ? '' : 's'} in the file`;
      expect(account).toContain(
        cut.told > 0
          ? `${inFileText}, ${counted} counted: ${cut.told} by import/bad-line`
          : `${inFileText}, all counted`,
      );
      expect(account).toContain(
        `1 line unreadable and skipped (line ${cut.line}): a call in it is known only where a later result names it`,
      );
    });
  }
});
