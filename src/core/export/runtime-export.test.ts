/**
 * The runtime targets (issue 41): Codex's `config.toml` and Claude Code's
 * `settings.json` write only keys the runtimes document (the lists below
 * are the documented names, copied from the sources docs/peer-exports.md
 * cites, and the doc names each), read back with the file's own parser,
 * and the replayed policy is what those keys say, nothing else.
 */
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parsePolicyChoice } from '../replay/policies/policies.ts';
import { getExportedPolicy } from './peer-replay.ts';
import { getPeerTarget } from './peer-targets.ts';
import type { ToolInForce } from './types.ts';

const DOC = readFileSync(new URL('../../../docs/peer-exports.md', import.meta.url), 'utf8');
const TOOLS: ToolInForce[] = [
  { name: 'Read', hint: 'strip-responses', source: 'tool', calls: 3 },
  { name: 'exec_command', hint: 'keep', source: 'tool', calls: 2 },
];

/** Codex's documented config.toml keys this export may write. */
const CODEX_KEYS = [
  'tool_output_token_limit',
  'model_auto_compact_token_limit',
  'model_auto_compact_token_limit_scope',
];
/** Claude Code's documented settings and environment variables this export may write. */
const CLAUDE_CODE_SETTINGS = ['autoCompactEnabled', 'env'];
const CLAUDE_CODE_ENV = ['CLAUDE_CODE_AUTO_COMPACT_WINDOW'];

function parametersOf(name: 'codex' | 'claude-code', set: string[]) {
  const parsed = parsePolicyChoice(name, set);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.value.parameters;
}

describe('Codex config.toml', () => {
  const target = getPeerTarget('codex');
  const parameters = parametersOf('codex', [
    'tool_output_token_limit=2000',
    'model_auto_compact_token_limit=120000',
    'summary_ratio=0.2',
  ]);
  const config = target.render(TOOLS, parameters);
  const toml = parseToml(config.snippet);

  it('writes documented top-level keys only, with the chosen limits', () => {
    expect(Object.keys(toml).every((key) => CODEX_KEYS.includes(key))).toBe(true);
    expect(toml.tool_output_token_limit).toBe(2000);
    expect(toml.model_auto_compact_token_limit).toBe(120000);
    expect(toml.model_auto_compact_token_limit_scope).toBe('total');
    for (const key of CODEX_KEYS) expect(DOC).toContain(`\`${key}\``);
  });

  it('replays what the file says: the two limits, everything else at the defaults', () => {
    const policy = getExportedPolicy('codex', config.tools, parameters);
    const expected = parametersOf('codex', [
      'tool_output_token_limit=2000',
      'model_auto_compact_token_limit=120000',
    ]);
    expect(policy).toEqual({ name: 'codex', parameters: expected });
  });

  it('says that no per-tool hint is a Codex setting', () => {
    expect(config.tools.find((tool) => tool.name === 'Read')?.expressible).toBe(false);
    expect(config.settings?.every((setting) => setting.doc.startsWith('https://'))).toBe(true);
  });
});

describe('Claude Code settings.json', () => {
  const target = getPeerTarget('claude-code');

  it('writes the window in env and auto-compaction on, documented names only', () => {
    const parameters = parametersOf('claude-code', ['context_window=150000']);
    const config = target.render(TOOLS, parameters);
    const json = JSON.parse(config.snippet) as Record<string, unknown>;
    expect(Object.keys(json).every((key) => CLAUDE_CODE_SETTINGS.includes(key))).toBe(true);
    expect(json.autoCompactEnabled).toBe(true);
    expect(json.env).toEqual({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' });
    for (const key of [...CLAUDE_CODE_SETTINGS, ...CLAUDE_CODE_ENV]) {
      expect(DOC).toContain(`\`${key}\``);
    }
  });

  it('turns auto-compaction off with no window, and clamps a window below 100,000', () => {
    const off = target.render(TOOLS, parametersOf('claude-code', ['auto_compact=false']));
    expect(JSON.parse(off.snippet)).toEqual({ autoCompactEnabled: false });
    const small = parametersOf('claude-code', ['context_window=50000']);
    const clamped = target.render(TOOLS, small);
    expect(JSON.parse(clamped.snippet).env).toEqual({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000' });
    expect(getExportedPolicy('claude-code', clamped.tools, small)?.parameters.context_window).toBe(
      100_000,
    );
  });

  it('replays microcompact at its defaults whatever was chosen, and says so', () => {
    const parameters = parametersOf('claude-code', ['microcompact=false', 'keep_recent=1']);
    const config = target.render(TOOLS, parameters);
    expect(getExportedPolicy('claude-code', config.tools, parameters)).toEqual({
      name: 'claude-code',
      parameters: parametersOf('claude-code', []),
    });
    expect(config.notes.join(' ')).toContain(
      'microcompact, keep_recent are not a Claude Code setting',
    );
  });
});
