/**
 * Claude Code's own clearing, reconstructed (its source is not published;
 * docs/runtime-policies.md says from what): the time-based microcompact
 * clears the results of its clearable tools once the gap since the last
 * answer passes `gap_threshold_minutes` (the prompt cache is cold, so the
 * cleared prefix costs nothing more), keeping the last `keep_recent`; the
 * placeholder stays in the client's history. Auto-compact summarises the
 * conversation once it nears the context window (window − output reserve −
 * buffer).
 */
import { getLiveItems, summariseAbove, toolsWithHint } from './helpers.ts';
import { type PolicyDefinition, type Replacement, replacementKey } from './types.ts';

export interface ClaudeCodeParameters {
  [key: string]: number | boolean | string | readonly string[];
  microcompact: boolean;
  gap_threshold_minutes: number;
  keep_recent: number;
  compactable_tools: readonly string[];
  auto_compact: boolean;
  context_window: number;
  auto_compact_buffer: number;
  summary_output_reserve: number;
  summary_ratio: number;
}

/** Claude Code's clearable tools: file read, shell, search, glob, web search and fetch, edit and write. */
export const CLAUDE_CODE_COMPACTABLE_TOOLS: readonly string[] = [
  'Read',
  'Bash',
  'PowerShell',
  'Grep',
  'Glob',
  'WebSearch',
  'WebFetch',
  'Edit',
  'Write',
];

export const MICROCOMPACT_PLACEHOLDER = '[Old tool result content cleared]';

export const claudeCode: PolicyDefinition<ClaudeCodeParameters> = {
  name: 'claude-code',
  title: 'Claude Code (microcompact and auto-compact, reconstructed)',
  fields: [
    {
      key: 'microcompact',
      source: 'https://code.claude.com/docs/en/how-claude-code-works#when-context-fills-up',
      kind: 'boolean',
      doc: 'time-based clearing on (a server flag in shipped builds)',
    },
    {
      key: 'gap_threshold_minutes',
      source: 'https://code.claude.com/docs/en/how-claude-code-works#when-context-fills-up',
      kind: 'count',
      doc: 'clear after this idle gap, in minutes (the cache time to live)',
    },
    {
      key: 'keep_recent',
      source: 'https://code.claude.com/docs/en/how-claude-code-works#when-context-fills-up',
      kind: 'count',
      min: 1,
      doc: 'the last clearable results kept',
    },
    {
      key: 'compactable_tools',
      source: 'https://code.claude.com/docs/en/how-claude-code-works#when-context-fills-up',
      kind: 'tools',
      doc: 'the clearable tools (a fixed list, not configurable in Claude Code)',
    },
    {
      key: 'auto_compact',
      source: 'https://code.claude.com/docs/en/settings#available-settings',
      kind: 'boolean',
      doc: 'summarise near the window',
    },
    {
      key: 'context_window',
      source: 'https://code.claude.com/docs/en/env-vars',
      kind: 'count',
      min: 1,
      doc: "Claude Code's window, which it summarises near (1,000,000 with a [1m] model; the model's own if smaller)",
    },
    {
      key: 'auto_compact_buffer',
      source: 'https://code.claude.com/docs/en/env-vars',
      kind: 'count',
      doc: 'tokens below the effective window where it summarises',
    },
    {
      key: 'summary_output_reserve',
      kind: 'count',
      doc: 'tokens kept for the summary',
    },
    {
      key: 'summary_ratio',
      kind: 'ratio',
      doc: "the summary's size over what it replaces (an estimate)",
    },
  ],
  defaults: {
    microcompact: true,
    gap_threshold_minutes: 60,
    keep_recent: 5,
    compactable_tools: CLAUDE_CODE_COMPACTABLE_TOOLS,
    auto_compact: true,
    context_window: 200_000,
    auto_compact_buffer: 13_000,
    summary_output_reserve: 20_000,
    summary_ratio: 0.05,
  },
  step(parameters, request, previous) {
    const replaced = new Map<string, Replacement>(previous?.replaced ?? []);
    let clearedHere = 0;
    const cold =
      request.gapSeconds !== null && request.gapSeconds > parameters.gap_threshold_minutes * 60;
    if (parameters.microcompact && cold) {
      const clearable = getLiveItems(request.items, previous).filter(
        (item) => item.kind === 'result' && parameters.compactable_tools.includes(item.tool ?? ''),
      );
      const placeholder = request.counter.tokens(MICROCOMPACT_PLACEHOLDER);
      for (const item of clearable.slice(
        0,
        Math.max(0, clearable.length - parameters.keep_recent),
      )) {
        const key = replacementKey(item.origin, item.kind);
        if (replaced.has(key)) continue;
        replaced.set(key, { tokens: placeholder, what: 'cleared' });
        clearedHere++;
      }
    }
    const window = Math.min(request.contextWindow, parameters.context_window);
    const limit = window - parameters.summary_output_reserve - parameters.auto_compact_buffer;
    const summary = parameters.auto_compact
      ? summariseAbove(request, previous, replaced, limit, parameters.summary_ratio)
      : (previous?.summary ?? null);
    return { replaced, summary, clearedHere };
  },
  fromHints(tools, defaults) {
    const cleared = new Set(toolsWithHint(tools, ['strip', 'strip-responses', 'omit']));
    const kept = new Set(toolsWithHint(tools, ['keep', 'strip-requests']));
    const notes: string[] = [];
    for (const tool of tools) {
      const fixed = defaults.compactable_tools.includes(tool.name);
      if (cleared.has(tool.name) && !fixed) {
        notes.push(`${tool.name}: your hint ${tool.hint} clears it; Claude Code never clears it`);
      }
      if (kept.has(tool.name) && fixed) {
        notes.push(
          `${tool.name}: your hint ${tool.hint} keeps its result; Claude Code clears it when the cache is cold`,
        );
      }
    }
    notes.push(
      "Claude Code's clearable tools are fixed: the list with your hints is a what-if, not a setting.",
    );
    const compactable = [
      ...defaults.compactable_tools.filter((name) => !kept.has(name)),
      ...[...cleared].filter((name) => !defaults.compactable_tools.includes(name)),
    ];
    return { parameters: { ...defaults, compactable_tools: compactable }, notes };
  },
};
