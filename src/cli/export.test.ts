import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PeerExport, PeerTargetId } from '../core/export/peer-export.ts';
import type { CliIo } from './cli-io.ts';
import { runCommand } from './commands.ts';

const EXAMPLES = resolve(import.meta.dirname, '../examples');
const STREAM = readFileSync(resolve(EXAMPLES, 'coding-session.json'), 'utf8');
const CONFIG = readFileSync(resolve(EXAMPLES, 'coding-session.toml'), 'utf8');

/** The example's rule, written again by hand, so the nearest configs below stand on their own. */
const RULE = `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 1
reasoning = "strip"
tool_calls = "strip"
`;

const hints = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([tool, hint]) => `\n[conversation.tools.${tool}]\ncompaction = "${hint}"\n`)
    .join('');

/**
 * By hand, per target, from the example's hints (build_watch omit,
 * fs_modify_file strip-requests, fs_read_file strip-responses, run_tests
 * inheriting the rule's strip) and what each peer can say
 * (docs/peer-exports.md).
 */
const NEAREST: Record<PeerTargetId, string> = {
  anthropic: hints({
    build_watch: 'strip',
    fs_modify_file: 'keep',
    fs_read_file: 'strip-responses',
    run_tests: 'strip',
  }),
  // One clear_tool_inputs for all, and fs_read_file keeps its requests: no tool loses its inputs.
  'langchain-py': hints({
    build_watch: 'strip-responses',
    fs_modify_file: 'keep',
    fs_read_file: 'strip-responses',
    run_tests: 'strip-responses',
  }),
  'langchain-js': hints({
    build_watch: 'strip-responses',
    fs_modify_file: 'keep',
    fs_read_file: 'strip-responses',
    run_tests: 'strip-responses',
  }),
  vercel: hints({
    build_watch: 'omit',
    fs_modify_file: 'keep',
    fs_read_file: 'keep',
    run_tests: 'keep',
  }),
  'openai-agents': hints({
    build_watch: 'strip-responses',
    fs_modify_file: 'keep',
    fs_read_file: 'strip-responses',
    run_tests: 'strip-responses',
  }),
  // One output limit (Codex) or a fixed list (Claude Code) for every tool: no per-tool hint.
  codex: hints({
    build_watch: 'keep',
    fs_modify_file: 'keep',
    fs_read_file: 'keep',
    run_tests: 'keep',
  }),
  'claude-code': hints({
    build_watch: 'keep',
    fs_modify_file: 'keep',
    fs_read_file: 'keep',
    run_tests: 'keep',
  }),
};

function createIo(files: Record<string, string>) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    readText: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return text;
    },
  };
  return { io, out };
}

async function run(args: string[], files: Record<string, string>) {
  const { io, out } = createIo(files);
  const code = await runCommand(args[0] as string, args.slice(1), io);
  return { code, ...out };
}

interface ReportJson {
  tools: { saved: { tokens: number } }[];
  totals: { before: { tokens: number }; saved: { tokens: number } };
}

async function report(configText: string): Promise<ReportJson> {
  const result = await run(['report', '--config', 'c.toml', '--json', 'events.json'], {
    'c.toml': configText,
    'events.json': STREAM,
  });
  return JSON.parse(result.stdout) as ReportJson;
}

async function exportJson(target: PeerTargetId): Promise<PeerExport> {
  const result = await run(
    ['export', '--target', target, '--config', 'c.toml', '--json', 'events.json'],
    { 'c.toml': CONFIG, 'events.json': STREAM },
  );
  return JSON.parse(result.stdout) as PeerExport;
}

const toolCallsSaved = (json: ReportJson) =>
  json.tools.reduce((sum, row) => sum + row.saved.tokens, 0);

describe('export --json: the saving', () => {
  const targets = Object.keys(NEAREST) as PeerTargetId[];

  it.each(targets)("%s: the peer's saving is report's with the nearest hints", async (target) => {
    const exported = await exportJson(target);
    const nearest = await report(`${RULE}${NEAREST[target]}`);
    expect(exported.saving?.peer.total.tokens).toBe(nearest.totals.saved.tokens);
    expect(exported.saving?.peer.toolCalls.tokens).toBe(toolCallsSaved(nearest));
    // And the nearest hints are the ones written by hand above.
    const written = Object.fromEntries(exported.tools.map((tool) => [tool.name, tool.nearest]));
    expect(hints(written)).toBe(NEAREST[target]);
  });

  it("gives the playground's own figure beside it", async () => {
    const exported = await exportJson('vercel');
    const own = await report(CONFIG);
    expect(exported.saving?.playground.total.tokens).toBe(own.totals.saved.tokens);
    expect(exported.saving?.before.tokens).toBe(own.totals.before.tokens);
    // Vercel cannot strip, so it saves less here than the playground's hints.
    expect(exported.saving?.peer.total.tokens).toBeLessThan(own.totals.saved.tokens);
  });
});

describe('export, readable', () => {
  it('prints the snippet on stdout and the per-tool notes on stderr', async () => {
    const result = await run(['export', '--target', 'anthropic', '--config', 'c.toml', 'e.json'], {
      'c.toml': CONFIG,
      'e.json': STREAM,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).context_management.edits[0].type).toBe(
      'clear_tool_uses_20250919',
    );
    expect(result.stderr).toContain(
      'fs_modify_file: not expressible in Anthropic context editing: nearest is keep',
    );
    expect(result.stderr).toContain('fs_read_file: exported as');
    expect(result.stderr).toMatch(
      /On tool calls, the playground's config saves [\d,]+ tokens and /,
    );
  });

  it('exports the config alone without a conversation, with no saving', async () => {
    const result = await run(['export', '--target', 'vercel', '--config', 'c.toml', '--json'], {
      'c.toml': CONFIG,
    });
    const exported = JSON.parse(result.stdout) as PeerExport;
    expect(exported.saving).toBeNull();
    // The config names three tools; run_tests is only in the stream.
    expect(exported.tools.map((tool) => tool.name)).toEqual([
      'build_watch',
      'fs_modify_file',
      'fs_read_file',
    ]);
  });

  it('refuses an unknown target, naming the known ones', async () => {
    await expect(
      run(['export', '--target', 'crewai', '--config', 'c.toml'], { 'c.toml': CONFIG }),
    ).rejects.toThrow(
      /--target must be one of anthropic, langchain-py, langchain-js, vercel, openai-agents/,
    );
  });

  it('refuses a broken config with its position', async () => {
    await expect(
      run(['export', '--target', 'vercel', '--config', 'c.toml'], {
        'c.toml': '[conversation.tools.x]\ncompaction = "stirp"\n',
      }),
    ).rejects.toThrow(/^c\.toml:2:\d+: error: invalid tool compaction hint/);
  });
});
