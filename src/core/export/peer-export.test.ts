import { describe, expect, it } from 'vitest';
import {
  argsOf,
  hasPython,
  readPythonSnippet,
  readTypeScriptSnippet,
} from '../../test/snippet-parsers.ts';
import type { ToolHint } from '../types.ts';
import { getNearestHint, getRulesHint } from './hints-in-force.ts';
import { getPeerTarget, type PeerTargetId, type ToolInForce } from './peer-export.ts';

/** One tool per hint: each name says what its config asks. */
const ALL_HINTS: ToolInForce[] = [
  { name: 'keep_me', hint: 'keep', source: 'tool', calls: 2 },
  { name: 'strip_both', hint: 'strip', source: 'tool', calls: 2 },
  { name: 'strip_req', hint: 'strip-requests', source: 'tool', calls: 2 },
  { name: 'strip_res', hint: 'strip-responses', source: 'tool', calls: 2 },
  { name: 'omit_me', hint: 'omit', source: '*', calls: 2 },
];

/** A recorded name no language may see bare: quotes, a backslash, a non-ASCII letter. */
const ODD_NAME = 'mcp__x__say "hi"\\now ✓';

const render = (target: PeerTargetId, tools: readonly ToolInForce[]) =>
  getPeerTarget(target).render(tools);

/** Per tool: the nearest hint, and whether it was flagged as not expressible. */
function flags(target: PeerTargetId, tools: readonly ToolInForce[]) {
  return Object.fromEntries(
    render(target, tools).tools.map((tool) => [
      tool.name,
      `${tool.expressible ? 'exported' : 'flagged'}: ${tool.nearest}`,
    ]),
  );
}

describe('nearest hint', () => {
  // By hand from the D17 table: the nearest strips only what the hint strips, as much as it can.
  it('never strips what the hint keeps', () => {
    const cases: [ToolHint, ToolHint[], ToolHint][] = [
      ['omit', ['keep', 'strip', 'strip-responses'], 'strip'],
      ['omit', ['keep', 'strip-responses'], 'strip-responses'],
      ['strip', ['keep', 'strip-responses'], 'strip-responses'],
      ['strip-requests', ['keep', 'strip-responses', 'strip'], 'keep'],
      ['strip-responses', ['keep', 'omit'], 'keep'],
      ['strip', ['keep', 'omit'], 'keep'],
      ['keep', ['keep', 'omit'], 'keep'],
    ];
    for (const [hint, expressible, nearest] of cases) {
      expect(getNearestHint(hint, expressible), `${hint} in ${expressible}`).toBe(nearest);
    }
  });

  it('reads what the rules do to a tool without a hint', () => {
    const rule = (tool_calls: ToolHint | null) => ({
      keep_first: { turns: 1 },
      keep_last: { turns: 1 },
      reasoning: null,
      tool_calls: tool_calls === 'keep' ? null : tool_calls,
      summary: null,
    });
    expect(getRulesHint([rule('strip')])).toBe('strip');
    expect(getRulesHint([rule(null)])).toBe('keep');
    // Two rules that disagree: only what both strip.
    expect(getRulesHint([rule('strip'), rule('strip-responses')])).toBe('strip-responses');
    expect(getRulesHint([rule('omit'), rule('strip-requests')])).toBe('strip-requests');
    expect(getRulesHint([rule('strip-requests'), rule('strip-responses')])).toBe('keep');
  });
});

describe('Anthropic context editing', () => {
  // Fields of BetaClearToolUses20250919Edit (anthropic-sdk-typescript, docs/peer-exports.md).
  const DOCUMENTED = [
    'type',
    'trigger',
    'keep',
    'clear_at_least',
    'exclude_tools',
    'clear_tool_inputs',
  ];

  it('is a clear_tool_uses_20250919 edit in context_management.edits', () => {
    const body = JSON.parse(render('anthropic', ALL_HINTS).snippet);
    expect(Object.keys(body)).toEqual(['context_management']);
    const edits = body.context_management.edits;
    expect(edits).toHaveLength(1);
    const [edit] = edits;
    for (const key of Object.keys(edit)) expect(DOCUMENTED).toContain(key);
    expect(edit.type).toBe('clear_tool_uses_20250919');
    expect(edit.exclude_tools).toEqual(['keep_me', 'strip_req']);
    // clear_tool_inputs as a list of names: the tools that also lose their inputs.
    expect(edit.clear_tool_inputs).toEqual(['omit_me', 'strip_both']);
  });

  it('flags strip-requests and omit', () => {
    expect(flags('anthropic', ALL_HINTS)).toEqual({
      keep_me: 'exported: keep',
      omit_me: 'flagged: strip',
      strip_both: 'exported: strip',
      strip_req: 'flagged: keep',
      strip_res: 'exported: strip-responses',
    });
    const note = render('anthropic', ALL_HINTS).tools.find((tool) => tool.name === 'strip_req');
    expect(note?.note).toMatch(/^not expressible in Anthropic context editing: nearest is keep/);
  });

  it('leaves out what would only repeat a default', () => {
    const [edit] = JSON.parse(
      render('anthropic', [{ name: 'a', hint: 'strip-responses', source: 'rule', calls: 1 }])
        .snippet,
    ).context_management.edits;
    expect(edit).toEqual({ type: 'clear_tool_uses_20250919' });
  });
});

describe.skipIf(!hasPython)('LangChain ClearToolUsesEdit (Python)', () => {
  // Its dataclass fields (libs/langchain_v1/langchain/agents/middleware/context_editing.py).
  const DOCUMENTED = [
    'trigger',
    'clear_at_least',
    'keep',
    'clear_tool_inputs',
    'exclude_tools',
    'placeholder',
    'model',
  ];

  it('is a ContextEditingMiddleware with one ClearToolUsesEdit', () => {
    const shape = readPythonSnippet(render('langchain-py', ALL_HINTS).snippet);
    expect(shape.imports).toEqual([
      'langchain.agents.middleware: ClearToolUsesEdit',
      'langchain.agents.middleware: ContextEditingMiddleware',
    ]);
    expect(Object.keys(argsOf(shape, 'ContextEditingMiddleware'))).toEqual(['edits']);
    const edit = argsOf(shape, 'ClearToolUsesEdit');
    for (const key of Object.keys(edit)) expect(DOCUMENTED).toContain(key);
    expect(edit.exclude_tools).toEqual(['keep_me', 'strip_req']);
    // strip_res keeps its requests, and the switch is one for all: inputs stay.
    expect(edit.clear_tool_inputs).toBe(false);
  });

  it('flags per-tool input clearing, strip-requests and omit', () => {
    expect(flags('langchain-py', ALL_HINTS)).toEqual({
      keep_me: 'exported: keep',
      omit_me: 'flagged: strip-responses',
      strip_both: 'flagged: strip-responses',
      strip_req: 'flagged: keep',
      strip_res: 'exported: strip-responses',
    });
  });

  it('clears inputs when every cleared tool strips both sides', () => {
    const tools = ALL_HINTS.filter((tool) => ['keep', 'strip', 'omit'].includes(tool.hint));
    const edit = argsOf(
      readPythonSnippet(render('langchain-py', tools).snippet),
      'ClearToolUsesEdit',
    );
    expect(edit.clear_tool_inputs).toBe(true);
    expect(flags('langchain-py', tools)).toEqual({
      keep_me: 'exported: keep',
      omit_me: 'flagged: strip',
      strip_both: 'exported: strip',
    });
  });
});

describe('LangChain ClearToolUsesEdit (JS)', () => {
  // ClearToolUsesEditConfig (libs/langchain/src/agents/middleware/contextEditing.ts).
  const DOCUMENTED = [
    'trigger',
    'keep',
    'clearToolInputs',
    'excludeTools',
    'placeholder',
    'triggerTokens',
    'keepMessages',
    'clearAtLeast',
  ];

  it('is a contextEditingMiddleware with one ClearToolUsesEdit', () => {
    const shape = readTypeScriptSnippet(render('langchain-js', ALL_HINTS).snippet);
    expect(shape.imports).toEqual([
      'langchain: ClearToolUsesEdit',
      'langchain: contextEditingMiddleware',
    ]);
    expect(Object.keys(argsOf(shape, 'contextEditingMiddleware'))).toEqual(['edits']);
    const edit = argsOf(shape, 'ClearToolUsesEdit');
    for (const key of Object.keys(edit)) expect(DOCUMENTED).toContain(key);
    expect(edit).toEqual({ excludeTools: ['keep_me', 'strip_req'], clearToolInputs: false });
  });

  it('flags the same hints as the Python edit', () => {
    expect(flags('langchain-js', ALL_HINTS)).toEqual(flags('langchain-py', ALL_HINTS));
  });
});

describe('Vercel AI SDK pruneMessages', () => {
  it('lists the omitted tools in toolCalls', () => {
    const shape = readTypeScriptSnippet(render('vercel', ALL_HINTS).snippet);
    expect(shape.imports).toEqual(['ai: pruneMessages']);
    const args = argsOf(shape, 'pruneMessages');
    // The documented options: messages, reasoning, toolCalls, emptyMessages.
    for (const key of Object.keys(args)) {
      expect(['messages', 'reasoning', 'toolCalls', 'emptyMessages']).toContain(key);
    }
    const toolCalls = args.toolCalls as { type: string; tools: string[] }[];
    expect(toolCalls).toHaveLength(1);
    expect(Object.keys(toolCalls[0] ?? {}).sort()).toEqual(['tools', 'type']);
    expect(toolCalls[0]?.type).toMatch(/^(all|before-last-message|before-last-\d+-messages)$/);
    expect(toolCalls[0]?.tools).toEqual(['omit_me']);
  });

  it('flags strips of any kind', () => {
    expect(flags('vercel', ALL_HINTS)).toEqual({
      keep_me: 'exported: keep',
      omit_me: 'exported: omit',
      strip_both: 'flagged: keep',
      strip_req: 'flagged: keep',
      strip_res: 'flagged: keep',
    });
  });

  it('prunes no tool when none is omitted', () => {
    const args = argsOf(
      readTypeScriptSnippet(render('vercel', ALL_HINTS.slice(0, 1)).snippet),
      'pruneMessages',
    );
    expect(args.toolCalls).toEqual([]);
  });
});

describe.skipIf(!hasPython)('OpenAI Agents SDK ToolOutputTrimmer', () => {
  // Its dataclass fields (src/agents/extensions/tool_output_trimmer.py).
  const DOCUMENTED = ['recent_turns', 'max_output_chars', 'preview_chars', 'trimmable_tools'];

  it('is a RunConfig filter with the trimmable tools', () => {
    const shape = readPythonSnippet(render('openai-agents', ALL_HINTS).snippet);
    expect(shape.imports).toEqual(['agents: RunConfig', 'agents.extensions: ToolOutputTrimmer']);
    expect(Object.keys(argsOf(shape, 'RunConfig'))).toEqual(['call_model_input_filter']);
    const trimmer = argsOf(shape, 'ToolOutputTrimmer');
    for (const key of Object.keys(trimmer)) expect(DOCUMENTED).toContain(key);
    expect(trimmer.trimmable_tools).toEqual(['omit_me', 'strip_both', 'strip_res']);
  });

  it('flags strip-requests, omit and the request side of strip', () => {
    expect(flags('openai-agents', ALL_HINTS)).toEqual({
      keep_me: 'exported: keep',
      omit_me: 'flagged: strip-responses',
      strip_both: 'flagged: strip-responses',
      strip_req: 'flagged: keep',
      strip_res: 'exported: strip-responses',
    });
  });

  it('writes an empty set rather than leaving every tool trimmable', () => {
    const trimmer = argsOf(
      readPythonSnippet(render('openai-agents', ALL_HINTS.slice(0, 1)).snippet),
      'ToolOutputTrimmer',
    );
    // None (left out) would trim every tool, including the kept one.
    expect(trimmer.trimmable_tools).toEqual([]);
  });
});

describe('tool names are data', () => {
  const odd = (hint: ToolHint): ToolInForce[] => [
    { name: ODD_NAME, hint, source: 'tool', calls: 1 },
  ];

  it('survive as string literals in every language', () => {
    const [edit] = JSON.parse(render('anthropic', odd('keep')).snippet).context_management.edits;
    expect(edit.exclude_tools).toEqual([ODD_NAME]);
    const js = readTypeScriptSnippet(render('langchain-js', odd('keep')).snippet);
    expect(argsOf(js, 'ClearToolUsesEdit').excludeTools).toEqual([ODD_NAME]);
    const vercel = readTypeScriptSnippet(render('vercel', odd('omit')).snippet);
    expect(argsOf(vercel, 'pruneMessages').toolCalls).toEqual([
      { type: 'before-last-message', tools: [ODD_NAME] },
    ]);
  });

  it.skipIf(!hasPython)('survive as Python string literals', () => {
    const py = readPythonSnippet(render('langchain-py', odd('keep')).snippet);
    expect(argsOf(py, 'ClearToolUsesEdit').exclude_tools).toEqual([ODD_NAME]);
    const trimmer = readPythonSnippet(render('openai-agents', odd('strip-responses')).snippet);
    expect(argsOf(trimmer, 'ToolOutputTrimmer').trimmable_tools).toEqual([ODD_NAME]);
  });

  it('wrap long lists one name a line, still valid', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      name: `tool_number_${i}`,
      hint: 'keep' as const,
      source: 'tool' as const,
      calls: 1,
    }));
    const js = readTypeScriptSnippet(render('langchain-js', many).snippet);
    expect(argsOf(js, 'ClearToolUsesEdit').excludeTools).toHaveLength(12);
  });
});
