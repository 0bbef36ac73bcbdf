/**
 * Anthropic context editing: a `clear_tool_uses_20250919` edit in the
 * Messages request's `context_management.edits` (beta header
 * `context-management-2025-06-27`). It clears the results of every tool not
 * in `exclude_tools`; `clear_tool_inputs` as a list of names also clears
 * those tools' inputs. A result cannot be kept while its input is cleared,
 * and a call cannot be dropped.
 */
import { escapeInvisibleInJson } from '../json/quote.ts';
import type { ToolHint } from '../types.ts';
import { type HintWording, mapTools, namesWith, type PeerTarget } from './peer-target.ts';

const TITLE = 'Anthropic context editing';

const DOCS = [
  'https://platform.claude.com/docs/en/build-with-claude/context-editing',
  'anthropics/anthropic-sdk-typescript src/resources/beta/messages/messages.ts (BetaClearToolUses20250919Edit)',
];

const WORDING: HintWording = {
  exportedAs: (hint) =>
    hint === 'keep'
      ? 'an exclude_tools entry (never cleared)'
      : hint === 'strip'
        ? 'a cleared tool listed in clear_tool_inputs'
        : 'a cleared tool (the default for a tool not in exclude_tools)',
  whyNot: (hint: ToolHint) =>
    hint === 'omit'
      ? 'the edit replaces a result with a placeholder and keeps the call; it cannot drop the call'
      : 'the edit clears inputs only together with the result',
};

export const anthropicTarget: PeerTarget = {
  id: 'anthropic',
  title: TITLE,
  language: 'json',
  docs: DOCS,
  cannotExpress: 'strip-requests, omit',
  render(tools) {
    const mapped = mapTools(tools, TITLE, ['keep', 'strip-responses', 'strip'], WORDING);
    const edit: Record<string, unknown> = { type: 'clear_tool_uses_20250919' };
    const kept = namesWith(mapped, 'keep');
    const inputs = namesWith(mapped, 'strip');
    if (kept.length > 0) edit.exclude_tools = kept;
    if (inputs.length > 0) edit.clear_tool_inputs = inputs;
    const fragment = { context_management: { edits: [edit] } };
    return {
      target: 'anthropic',
      title: TITLE,
      language: 'json',
      snippet: `${escapeInvisibleInJson(JSON.stringify(fragment, null, 2))}\n`,
      tools: mapped,
      notes: [
        'Merge this into the Messages request body and send the beta header anthropic-beta: context-management-2025-06-27.',
        'trigger and keep are left at their defaults (clear once the input reaches 100,000 tokens; keep the 3 most recent tool uses): the API counts tool uses and tokens, not the turns your rules keep; the replayed figure runs the edit itself at every request with these settings.',
        'A tool not listed here (one this conversation does not call) is cleared too: only exclude_tools is never cleared.',
      ],
      docs: DOCS,
    };
  },
};
