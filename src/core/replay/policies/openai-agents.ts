/**
 * The OpenAI Agents SDK's `ToolOutputTrimmer` (`agents.extensions`), a
 * `call_model_input_filter` run before each model call on the input as the
 * run holds it: items before the `recent_turns`-th user message from the
 * end are old; an old tool output longer than `max_output_chars` (of a
 * `trimmable_tools` tool, or any tool when that is `*`) becomes a header
 * and a `preview_chars` preview, when that is shorter.
 */
import { getNearestHint } from '../../export/hints-in-force.ts';
import { getResultText, toolsWithHint } from './helpers.ts';
import {
  NOTHING_DECIDED,
  type PolicyDefinition,
  type Replacement,
  replacementKey,
} from './types.ts';

export interface TrimmerParameters {
  [key: string]: number | boolean | string | readonly string[];
  recent_turns: number;
  max_output_chars: number;
  preview_chars: number;
  /** `['*']`: every tool (the SDK's `None`). */
  trimmable_tools: readonly string[];
}

/** The trimmer's replacement text (its f-string, character for character). */
export function getTrimmedText(tool: string, output: string, previewChars: number): string {
  const preview = [...output].slice(0, previewChars).join('');
  return `[Trimmed: ${tool || 'unknown_tool'} output — ${[...output].length} chars → ${previewChars} char preview]\n${preview}...`;
}

export const openaiAgents: PolicyDefinition<TrimmerParameters> = {
  name: 'openai-agents',
  title: 'OpenAI Agents SDK ToolOutputTrimmer',
  fields: [
    {
      key: 'recent_turns',
      source: 'https://openai.github.io/openai-agents-python/ref/extensions/tool_output_trimmer',
      kind: 'count',
      min: 1,
      doc: 'user messages from the end whose items stay whole',
    },
    {
      key: 'max_output_chars',
      source: 'https://openai.github.io/openai-agents-python/ref/extensions/tool_output_trimmer',
      kind: 'count',
      min: 1,
      doc: 'outputs longer than this are trimmed',
    },
    {
      key: 'preview_chars',
      source: 'https://openai.github.io/openai-agents-python/ref/extensions/tool_output_trimmer',
      kind: 'count',
      doc: 'characters of preview kept',
    },
    {
      key: 'trimmable_tools',
      source: 'https://openai.github.io/openai-agents-python/ref/extensions/tool_output_trimmer',
      kind: 'tools',
      doc: 'tools that may be trimmed, * for all',
    },
  ],
  defaults: { recent_turns: 2, max_output_chars: 500, preview_chars: 200, trimmable_tools: ['*'] },
  step(parameters, request) {
    let users = 0;
    let boundary = 0;
    for (let index = request.items.length - 1; index >= 0; index--) {
      if (request.items[index]?.kind !== 'user') continue;
      users++;
      if (users >= parameters.recent_turns) {
        boundary = index;
        break;
      }
    }
    if (boundary === 0) return NOTHING_DECIDED;
    const all = parameters.trimmable_tools.includes('*');
    const replaced = new Map<string, Replacement>();
    for (const item of request.items.slice(0, boundary)) {
      if (item.kind !== 'result') continue;
      const output = getResultText(item);
      const length = request.counter.chars(output);
      if (length <= parameters.max_output_chars) continue;
      if (!all && !parameters.trimmable_tools.includes(item.tool ?? '')) continue;
      const text = getTrimmedText(item.tool ?? '', output, parameters.preview_chars);
      if (request.counter.chars(text) >= length) continue;
      replaced.set(replacementKey(item.origin, item.kind), {
        tokens: request.counter.tokens(text),
        what: 'trimmed',
      });
    }
    return { replaced, summary: null, clearedHere: replaced.size };
  },
  fromHints(tools, defaults) {
    const nearest = tools.map((tool) => ({
      name: tool.name,
      hint: getNearestHint(tool.hint, ['keep', 'strip-responses']),
      own: tool.hint,
    }));
    const notes = nearest
      .filter((tool) => tool.hint !== tool.own)
      .map((tool) => `${tool.name}: ${tool.own} cannot be said here; nearest is ${tool.hint}`);
    notes.push('A trimmed output keeps a preview: strip-responses is approximate.');
    return {
      parameters: { ...defaults, trimmable_tools: toolsWithHint(nearest, ['strip-responses']) },
      notes,
    };
  },
};
