/**
 * Codex CLI's own settings (issue 41): the two `config.toml` keys the
 * replay's `codex` policy prices, `tool_output_token_limit` (each tool
 * output as kept in the history) and `model_auto_compact_token_limit` (the
 * context size past which the history is summarised), with the scope that
 * limit counts. Codex has one limit for every tool, so no per-tool hint can
 * be said; auto-compaction cannot be turned off (docs/peer-exports.md
 * says from what).
 */
import { formatCount } from '../counting/format.ts';
import { codex } from '../replay/policies/codex.ts';
import type { PolicyChoice } from '../replay/policies/policies.ts';
import { mapTools, type PeerTarget } from './peer-target.ts';
import type { RuntimeSetting } from './types.ts';

const TITLE = 'Codex CLI (config.toml)';

const CONFIG_REFERENCE = 'https://developers.openai.com/codex/config-reference';
const CONFIG_ADVANCED = 'https://developers.openai.com/codex/config-advanced';

const DOCS = [
  CONFIG_REFERENCE,
  CONFIG_ADVANCED,
  'openai/codex codex-rs/core/src/config (tool_output_token_limit, model_auto_compact_token_limit)',
  'https://github.com/openai/codex/pull/22870 (model_auto_compact_token_limit_scope)',
];

/** Where the keys go: the top level of the user's config (profiles' tables do not read them). */
const WHERE = '~/.codex/config.toml (or $CODEX_HOME/config.toml), top level';

/**
 * The parameters Codex will run with when the snippet is applied: the two
 * limits from `parameters`, everything else the policy's defaults (the
 * summary's size is an estimate, not a setting), and auto-compaction on,
 * since Codex has no switch for it.
 */
export function getCodexExported(
  parameters: PolicyChoice['parameters'] | undefined,
): PolicyChoice['parameters'] {
  const given = { ...codex.defaults, ...parameters };
  return {
    ...codex.defaults,
    tool_output_token_limit: given.tool_output_token_limit,
    model_auto_compact_token_limit: given.model_auto_compact_token_limit,
  };
}

export const codexTarget: PeerTarget = {
  id: 'codex',
  title: TITLE,
  language: 'toml',
  docs: DOCS,
  policy: 'codex',
  cannotExpress: 'any per-tool hint (one output limit for every tool), turning auto-compaction off',
  render(tools, parameters) {
    const exported = getCodexExported(parameters);
    const outputLimit = Number(exported.tool_output_token_limit);
    const compactLimit = Number(exported.model_auto_compact_token_limit);
    const mapped = mapTools(tools, 'Codex', ['keep'], {
      exportedAs: () => `whole up to ${formatCount(outputLimit)} tokens per output, as every tool`,
      whyNot: () => 'Codex has one output limit for every tool',
    });
    const settings: RuntimeSetting[] = [
      {
        key: 'tool_output_token_limit',
        value: String(outputLimit),
        meaning: 'tokens each tool output keeps in the history (head and tail, a marker between)',
        where: WHERE,
        doc: CONFIG_REFERENCE,
      },
      {
        key: 'model_auto_compact_token_limit',
        value: String(compactLimit),
        meaning:
          'the context size (in tokens) past which Codex summarises the history; Codex caps it at 90% of the context window',
        where: WHERE,
        doc: CONFIG_REFERENCE,
      },
      {
        key: 'model_auto_compact_token_limit_scope',
        value: '"total"',
        meaning:
          'what the limit counts: the whole context, as the replay does (the default; "body_after_prefix" counts only what grew after the carried prefix)',
        where: WHERE,
        doc: 'https://github.com/openai/codex/pull/22870',
      },
    ];
    const snippet = [
      '# ~/.codex/config.toml (or $CODEX_HOME/config.toml), at the top level:',
      '# Codex reads these keys there, not under [profiles.NAME].',
      '',
      '# Each tool output is kept to this many tokens in the history.',
      `tool_output_token_limit = ${outputLimit}`,
      '# The history is summarised once the context passes this many tokens.',
      `model_auto_compact_token_limit = ${compactLimit}`,
      '# The limit counts the whole context (the default).',
      'model_auto_compact_token_limit_scope = "total"',
      '',
    ].join('\n');
    const oneOff = settings
      .slice(0, 2)
      .map((setting) => `-c ${setting.key}=${setting.value}`)
      .join(' ');
    const notes = [
      `For one run instead: codex ${oneOff}.`,
      'Auto-compaction cannot be turned off in Codex (its switch was removed in June 2026): a very high limit is capped at 90% of the context window, so the replay runs with auto-compaction on.',
      'Codex truncates every tool output the same way: your per-tool hints cannot be said here; the replayed figure is Codex with these two limits.',
    ];
    if (parameters && parameters.auto_compact === false) {
      notes.push('Your auto_compact=false is not a Codex setting: the export replays it on.');
    }
    return {
      target: 'codex',
      title: TITLE,
      language: 'toml',
      snippet,
      tools: mapped,
      notes,
      docs: DOCS,
      settings,
    };
  },
};
