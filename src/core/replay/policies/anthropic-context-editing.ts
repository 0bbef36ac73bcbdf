/**
 * Anthropic context editing, `clear_tool_uses_20250919` (Messages API,
 * beta `context-management-2025-06-27`; docs/runtime-policies.md has the
 * sources). Applied by the server to the full history the client sends, so
 * afresh at every request: once the input passes `trigger`, the oldest tool
 * results are replaced by a placeholder, all but the last `keep` tool uses,
 * never those of `exclude_tools`; `clear_tool_inputs` clears the calls'
 * inputs too (all, or the listed tools'). When the clearing would free
 * fewer than `clear_at_least` tokens it is not applied.
 */
import { getNearestHint } from '../../export/hints-in-force.ts';
import { toolsWithHint } from './helpers.ts';
import {
  getBilledInput,
  NOTHING_DECIDED,
  type PolicyDefinition,
  type PolicyItem,
  type Replacement,
  replacementKey,
} from './types.ts';

export interface ContextEditingParameters {
  [key: string]: number | boolean | string | readonly string[];
  trigger: number;
  trigger_type: 'input_tokens' | 'tool_uses';
  keep: number;
  clear_at_least: number;
  exclude_tools: readonly string[];
  clear_tool_inputs: boolean | readonly string[];
}

/** The text a cleared result holds (LangChain's `DEFAULT_TOOL_PLACEHOLDER`; the API's own is not published). */
export const CLEARED_PLACEHOLDER = '[cleared]';

/** What a cleared tool input holds: the API's `input` is an object, so an empty one. */
export const CLEARED_INPUT = '{}';

function clearsInputs(parameters: ContextEditingParameters, tool: string): boolean {
  const inputs = parameters.clear_tool_inputs;
  return typeof inputs === 'boolean' ? inputs : inputs.includes(tool);
}

export const anthropicContextEditing: PolicyDefinition<ContextEditingParameters> = {
  name: 'anthropic-context-editing',
  title: 'Anthropic context editing (clear_tool_uses_20250919)',
  fields: [
    {
      key: 'trigger',
      source: 'https://platform.claude.com/docs/en/build-with-claude/context-editing',
      kind: 'count',
      min: 1,
      doc: 'clear once the input (the invisible prefix included) passes this',
    },
    {
      key: 'trigger_type',
      source: 'https://platform.claude.com/docs/en/build-with-claude/context-editing',
      kind: 'choice',
      choices: ['input_tokens', 'tool_uses'],
      doc: 'what trigger counts',
    },
    {
      key: 'keep',
      source: 'https://platform.claude.com/docs/en/build-with-claude/context-editing',
      kind: 'count',
      doc: 'the last tool uses left whole',
    },
    {
      key: 'clear_at_least',
      source: 'https://platform.claude.com/docs/en/build-with-claude/context-editing',
      kind: 'count',
      doc: 'apply only when this many tokens are freed',
    },
    {
      key: 'exclude_tools',
      source: 'https://platform.claude.com/docs/en/build-with-claude/context-editing',
      kind: 'tools',
      doc: 'tools never cleared, comma-separated',
    },
    {
      key: 'clear_tool_inputs',
      source: 'https://platform.claude.com/docs/en/build-with-claude/context-editing',
      kind: 'tools-or-boolean',
      doc: 'also clear the inputs: true, false or a tool list',
    },
  ],
  defaults: {
    trigger: 100_000,
    trigger_type: 'input_tokens',
    keep: 3,
    clear_at_least: 0,
    exclude_tools: [],
    clear_tool_inputs: false,
  },
  step(parameters, request) {
    const calls: PolicyItem[] = [];
    const results = new Map<string, PolicyItem>();
    let tokens = 0;
    let hidden = 0;
    for (const item of request.items) {
      tokens += item.tokens;
      hidden += item.hidden;
      if (item.kind === 'call') calls.push(item);
      if (item.kind === 'result' && typeof item.element.id === 'string') {
        results.set(item.element.id, item);
      }
    }
    // The server counts the whole input it is sent: the invisible prefix included.
    const measured =
      parameters.trigger_type === 'input_tokens'
        ? getBilledInput(request, tokens, hidden)
        : calls.length;
    if (measured <= parameters.trigger) return NOTHING_DECIDED;
    const placeholder = request.counter.tokens(CLEARED_PLACEHOLDER);
    const emptyInput = request.counter.tokens(CLEARED_INPUT);
    const replaced = new Map<string, Replacement>();
    let freed = 0;
    let cleared = 0;
    for (const call of calls.slice(0, Math.max(0, calls.length - parameters.keep))) {
      const tool = call.tool ?? '';
      if (parameters.exclude_tools.includes(tool)) continue;
      const result = typeof call.element.id === 'string' ? results.get(call.element.id) : undefined;
      if (result) {
        replaced.set(replacementKey(result.origin, 'result'), {
          tokens: placeholder,
          what: 'cleared',
        });
        freed += result.tokens - placeholder;
      }
      if (clearsInputs(parameters, tool)) {
        replaced.set(replacementKey(call.origin, 'call'), {
          tokens: emptyInput,
          what: 'input cleared',
        });
        freed += call.tokens - emptyInput;
      }
      cleared++;
    }
    // clear_at_least is in the tokens the server counts.
    if (cleared === 0 || request.tokenFactor * freed < parameters.clear_at_least) {
      return NOTHING_DECIDED;
    }
    return { replaced, summary: null, clearedHere: cleared };
  },
  fromHints(tools, defaults) {
    const nearest = tools.map((tool) => ({
      name: tool.name,
      hint: getNearestHint(tool.hint, ['keep', 'strip-responses', 'strip']),
      own: tool.hint,
    }));
    const notes = nearest
      .filter((tool) => tool.hint !== tool.own)
      .map((tool) => `${tool.name}: ${tool.own} cannot be said here; nearest is ${tool.hint}`);
    notes.push('The trigger, keep and clear_at_least stay at their values: hints have no window.');
    const stripped = toolsWithHint(nearest, ['strip']);
    return {
      parameters: {
        ...defaults,
        exclude_tools: toolsWithHint(nearest, ['keep']),
        clear_tool_inputs: stripped.length > 0 ? stripped : false,
      },
      notes,
    };
  },
};
