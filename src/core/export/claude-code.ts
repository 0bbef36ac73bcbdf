/**
 * Claude Code's own settings (issue 41): what a user can set about its
 * clearing, as the replay's `claude-code` policy prices it. Auto-compaction
 * can be turned off (`autoCompactEnabled`) and its window set
 * (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, 100,000 to 1,000,000 tokens); the
 * time-based clearing of old tool results (microcompact), its idle gap,
 * the results it keeps and its list of clearable tools are not settings,
 * so the export replays them at their defaults and says so. `/compact` by
 * hand is always there. Sources in docs/peer-exports.md.
 */
import { formatCount } from '../counting/format.ts';
import { claudeCode } from '../replay/policies/claude-code.ts';
import type { PolicyChoice } from '../replay/policies/policies.ts';
import { mapTools, type PeerTarget } from './peer-target.ts';
import type { RuntimeSetting } from './types.ts';

const TITLE = 'Claude Code (settings.json)';

const SETTINGS_DOC = 'https://code.claude.com/docs/en/settings';
const ENV_DOC = 'https://code.claude.com/docs/en/env-vars';
const CONTEXT_DOC = 'https://code.claude.com/docs/en/how-claude-code-works#when-context-fills-up';

const DOCS = [SETTINGS_DOC, ENV_DOC, CONTEXT_DOC, 'https://code.claude.com/docs/en/commands'];

const WHERE =
  '.claude/settings.json (the project), .claude/settings.local.json (you, this project) or ~/.claude/settings.json (you, every project)';

/** The auto-compact window Claude Code accepts (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`). */
const WINDOW_RANGE = { min: 100_000, max: 1_000_000 } as const;

/** The parameters no setting reaches: replayed at their defaults, whatever was chosen. */
const NOT_SETTINGS = ['microcompact', 'gap_threshold_minutes', 'keep_recent', 'compactable_tools'];

/**
 * The parameters Claude Code runs with when the snippet is applied:
 * auto-compaction on or off and its window (clamped to what Claude Code
 * accepts), every other parameter its default.
 */
export function getClaudeCodeExported(
  parameters: PolicyChoice['parameters'] | undefined,
): PolicyChoice['parameters'] {
  const given = { ...claudeCode.defaults, ...parameters };
  const window = Math.max(
    WINDOW_RANGE.min,
    Math.min(WINDOW_RANGE.max, Number(given.context_window)),
  );
  return {
    ...claudeCode.defaults,
    auto_compact: given.auto_compact === true,
    context_window: window,
  };
}

export const claudeCodeTarget: PeerTarget = {
  id: 'claude-code',
  title: TITLE,
  language: 'json',
  docs: DOCS,
  policy: 'claude-code',
  cannotExpress:
    'any per-tool hint, the clearing of old tool results (not a setting), a window under 100,000 tokens',
  render(tools, parameters) {
    const exported = getClaudeCodeExported(parameters);
    const on = exported.auto_compact === true;
    const window = Number(exported.context_window);
    const windowChanged = window !== claudeCode.defaults.context_window;
    const mapped = mapTools(tools, 'Claude Code', ['keep'], {
      exportedAs: () => 'what Claude Code does to every tool (no per-tool setting)',
      whyNot: () =>
        'Claude Code has no per-tool setting: its clearing of old results reads a fixed list of tools',
    });
    const settings: RuntimeSetting[] = [
      {
        key: 'autoCompactEnabled',
        value: String(on),
        meaning:
          'summarise the conversation as it nears the window (the /config "Auto-compact" toggle)',
        where: WHERE,
        doc: `${SETTINGS_DOC}#available-settings`,
      },
    ];
    if (windowChanged && on) {
      settings.push({
        key: 'CLAUDE_CODE_AUTO_COMPACT_WINDOW',
        value: `"${window}"`,
        meaning: `the window auto-compaction works in, ${formatCount(WINDOW_RANGE.min)} to ${formatCount(WINDOW_RANGE.max)} tokens, capped at the model's`,
        where: `the "env" object of ${WHERE}`,
        doc: ENV_DOC,
      });
    }
    const body: Record<string, unknown> = { autoCompactEnabled: on };
    if (windowChanged && on) body.env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(window) };
    const snippet = `${JSON.stringify(body, null, 2)}\n`;
    const notes = [
      `Put it in ${WHERE}.`,
      on
        ? '/compact [instructions] summarises by hand at any time; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (a percentage of the window) can only make auto-compaction earlier.'
        : 'Auto-compaction off: /compact [instructions] still summarises by hand (DISABLE_AUTO_COMPACT=1 in "env" does the same for one environment).',
      'The clearing of old tool results after an idle gap (microcompact), its gap, the results it keeps and its tools are not settings: the replay runs them as Claude Code does.',
    ];
    const given = { ...claudeCode.defaults, ...parameters };
    const unset = NOT_SETTINGS.filter(
      (key) => JSON.stringify(given[key]) !== JSON.stringify(claudeCode.defaults[key]),
    );
    if (unset.length > 0) {
      notes.push(
        `Your ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not a Claude Code setting: the export replays the default.`,
      );
    }
    const asked = Number(given.context_window);
    if (asked !== window) {
      notes.push(
        `Claude Code takes a window of ${formatCount(WINDOW_RANGE.min)} to ${formatCount(WINDOW_RANGE.max)} tokens: your ${formatCount(asked)} is written as ${formatCount(window)}.`,
      );
    }
    return {
      target: 'claude-code',
      title: TITLE,
      language: 'json',
      snippet,
      tools: mapped,
      notes,
      docs: DOCS,
      settings,
    };
  },
};
