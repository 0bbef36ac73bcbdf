/**
 * Codex CLI: every tool output is truncated to `tool_output_token_limit`
 * as it is recorded (head and tail kept, a marker between), and the
 * history is summarised once it passes `model_auto_compact_token_limit`
 * (256,000, `DEFAULT_AUTO_COMPACT_TOKEN_LIMIT` in `openai_model_info.rs`).
 * One limit for every tool: a per-tool hint cannot be said.
 */
import { summariseAbove } from './helpers.ts';
import { type PolicyDefinition, type Replacement, replacementKey } from './types.ts';

export interface CodexParameters {
  [key: string]: number | boolean | string | readonly string[];
  tool_output_token_limit: number;
  auto_compact: boolean;
  model_auto_compact_token_limit: number;
  summary_ratio: number;
}

/** The marker Codex leaves where it cut an output (its wording: "…N tokens truncated…"). */
export function getTruncationMarker(removed: number): string {
  return `…${removed} tokens truncated…`;
}

export const codex: PolicyDefinition<CodexParameters> = {
  name: 'codex',
  title: 'Codex CLI (tool output truncation and auto-compaction)',
  fields: [
    {
      key: 'tool_output_token_limit',
      source: 'https://developers.openai.com/codex/config-reference',
      kind: 'count',
      min: 1,
      doc: 'tokens an output keeps',
    },
    {
      key: 'auto_compact',
      source: 'https://github.com/openai/codex/pull/29815',
      kind: 'boolean',
      doc: 'summarise past the limit',
    },
    {
      key: 'model_auto_compact_token_limit',
      source: 'https://developers.openai.com/codex/config-reference',
      kind: 'count',
      doc: 'summarise once the input (the invisible prefix included) passes this; 0 summarises at every request',
    },
    {
      key: 'summary_ratio',
      kind: 'ratio',
      doc: "the summary's size over what it replaces (an estimate)",
    },
  ],
  defaults: {
    tool_output_token_limit: 10_000,
    auto_compact: true,
    model_auto_compact_token_limit: 256_000,
    summary_ratio: 0.05,
  },
  step(parameters, request, previous) {
    const replaced = new Map<string, Replacement>();
    let clearedHere = 0;
    const limit = parameters.tool_output_token_limit;
    for (const item of request.items) {
      if (item.kind !== 'result' || item.tokens <= limit) continue;
      const key = replacementKey(item.origin, item.kind);
      const marker = request.counter.tokens(getTruncationMarker(item.tokens - limit));
      replaced.set(key, { tokens: limit + marker, what: 'truncated' });
      if (!previous?.replaced.has(key)) clearedHere++;
    }
    const compactAt = parameters.model_auto_compact_token_limit;
    const summary = parameters.auto_compact
      ? summariseAbove(request, previous, replaced, compactAt, parameters.summary_ratio)
      : null;
    return { replaced, summary, clearedHere };
  },
  fromHints(tools, defaults) {
    const stripped = tools.filter((tool) => tool.hint !== 'keep').map((tool) => tool.name);
    return {
      parameters: defaults,
      notes: [
        stripped.length > 0
          ? `Codex has one output limit for every tool: the hints for ${stripped.join(', ')} cannot be said per tool (a low tool_output_token_limit is the nearest, for all tools).`
          : 'Codex has one output limit for every tool: hints change nothing.',
      ],
    };
  },
};
