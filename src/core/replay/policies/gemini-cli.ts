/**
 * Gemini CLI's `ToolOutputMaskingService` ("hybrid backward scanned
 * FIFO"): scanning tool outputs from the newest (the latest turn skipped
 * when `protect_latest_turn`), the newest `tool_protection_threshold`
 * tokens are protected; every older output is prunable, and when the
 * prunable tokens reach `min_prunable_tokens_threshold` they are all
 * masked: replaced by a preview and the path of the file holding them. The
 * masked history is kept. `EXEMPT_TOOLS` are never masked; `exempt_tools`
 * adds to them (not configurable in Gemini CLI: a what-if).
 */
import { getNearestHint } from '../../export/hints-in-force.ts';
import { getLiveItems, getResultText, toolsWithHint } from './helpers.ts';
import {
  type PolicyDefinition,
  type PolicyItem,
  type Replacement,
  replacementKey,
} from './types.ts';

export interface MaskingParameters {
  [key: string]: number | boolean | string | readonly string[];
  tool_protection_threshold: number;
  min_prunable_tokens_threshold: number;
  protect_latest_turn: boolean;
  exempt_tools: readonly string[];
}

/** Gemini CLI's `EXEMPT_TOOLS`: skill activation, memory, asking the user, plan mode. */
export const GEMINI_EXEMPT_TOOLS: readonly string[] = [
  'activate_skill',
  'save_memory',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
];

/** The masked snippet (its `formatMaskedSnippet`, with the simple preview). */
export function getMaskedText(tool: string, output: string): string {
  const chars = [...output];
  const preview =
    chars.length > 500
      ? `${chars.slice(0, 250).join('')}\n... [TRUNCATED] ...\n${chars.slice(-250).join('')}`
      : output;
  const path = `~/.gemini/tmp/project/tool-outputs/session/${tool.toLowerCase()}_call.txt`;
  return `<tool_output_masked>\n${preview}\n\nOutput too large. Full output available at: ${path}\n</tool_output_masked>`;
}

/** The items of the latest turn: the results after the last model output. */
function latestTurnStart(items: readonly PolicyItem[]): number {
  for (let index = items.length - 1; index >= 0; index--) {
    const kind = items[index]?.kind;
    if (kind === 'call' || kind === 'assistant') return index + 1;
  }
  return 0;
}

export const geminiCli: PolicyDefinition<MaskingParameters> = {
  name: 'gemini-cli',
  title: 'Gemini CLI ToolOutputMaskingService',
  fields: [
    {
      key: 'tool_protection_threshold',
      kind: 'count',
      doc: 'newest tool-output tokens never masked',
    },
    {
      key: 'min_prunable_tokens_threshold',
      kind: 'count',
      doc: 'mask only when this many are prunable',
    },
    {
      key: 'protect_latest_turn',
      kind: 'boolean',
      doc: 'never mask the latest turn',
    },
    {
      key: 'exempt_tools',
      kind: 'tools',
      doc: 'tools never masked besides EXEMPT_TOOLS (not configurable in Gemini CLI)',
    },
  ],
  defaults: {
    tool_protection_threshold: 50_000,
    min_prunable_tokens_threshold: 30_000,
    protect_latest_turn: true,
    exempt_tools: [],
  },
  step(parameters, request, previous) {
    const replaced = new Map<string, Replacement>(previous?.replaced ?? []);
    const live = getLiveItems(request.items, previous);
    const end = parameters.protect_latest_turn ? latestTurnStart(live) : live.length;
    let cumulative = 0;
    let boundaryReached = false;
    let prunableTokens = 0;
    const prunable: PolicyItem[] = [];
    for (let index = end - 1; index >= 0; index--) {
      const item = live[index] as PolicyItem;
      const tool = item.tool ?? '';
      if (item.kind !== 'result') continue;
      if (GEMINI_EXEMPT_TOOLS.includes(tool) || parameters.exempt_tools.includes(tool)) continue;
      if (replaced.has(replacementKey(item.origin, item.kind))) continue;
      if (!boundaryReached) {
        cumulative += item.tokens;
        if (cumulative <= parameters.tool_protection_threshold) continue;
        boundaryReached = true;
      }
      prunableTokens += item.tokens;
      prunable.push(item);
    }
    let clearedHere = 0;
    if (prunableTokens >= parameters.min_prunable_tokens_threshold && prunable.length > 0) {
      for (const item of prunable) {
        const tokens = request.counter.tokens(
          getMaskedText(item.tool ?? 'unknown_tool', getResultText(item)),
        );
        if (tokens >= item.tokens) continue;
        replaced.set(replacementKey(item.origin, item.kind), { tokens, what: 'masked' });
        clearedHere++;
      }
    }
    return { replaced, summary: previous?.summary ?? null, clearedHere };
  },
  fromHints(tools, defaults) {
    const nearest = tools.map((tool) => ({
      name: tool.name,
      hint: getNearestHint(tool.hint, ['keep', 'strip-responses']),
    }));
    return {
      parameters: { ...defaults, exempt_tools: toolsWithHint(nearest, ['keep']) },
      notes: [
        'Gemini CLI cannot exempt tools of your choice (EXEMPT_TOOLS is fixed): keep as exempt is a what-if.',
        'A masked output keeps a preview and a file path: strip-responses is approximate.',
      ],
    };
  },
};
