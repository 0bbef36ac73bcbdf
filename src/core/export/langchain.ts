/**
 * LangChain's `ContextEditingMiddleware` with a `ClearToolUsesEdit`, in
 * Python (`langchain.agents.middleware`) and in JavaScript (`langchain`).
 * The edit clears the results of every tool not in `exclude_tools`;
 * `clear_tool_inputs` is one boolean for all of them, so inputs are cleared
 * for every cleared tool or for none.
 */
import type { ToolHint } from '../types.ts';
import { formatList, mapTools, namesWith, type PeerTarget } from './peer-target.ts';
import type { PeerConfig, ToolInForce } from './types.ts';

/** What differs between the Python and the JavaScript edit: names and syntax. */
interface Flavor {
  id: 'langchain-py' | 'langchain-js';
  title: string;
  language: PeerConfig['language'];
  docs: string[];
  excludeKey: string;
  inputsKey: string;
  write(kept: readonly string[], clearInputs: boolean): string;
}

/**
 * The hints the edit can say for these tools. Inputs are cleared for all
 * cleared tools or none: the export clears them only when every cleared
 * tool strips both sides, since clearing them for a tool that keeps its
 * requests would strip more than asked.
 */
function getExpressible(tools: readonly ToolInForce[]): readonly ToolHint[] {
  const silent = { exportedAs: () => '', whyNot: () => '' };
  const cleared = mapTools(tools, '', ['keep', 'strip-responses', 'strip'], silent).filter(
    (tool) => tool.nearest !== 'keep',
  );
  const allStrip = cleared.length > 0 && cleared.every((tool) => tool.nearest === 'strip');
  return allStrip ? ['keep', 'strip'] : ['keep', 'strip-responses'];
}

function createTarget(flavor: Flavor): PeerTarget {
  const wording = {
    exportedAs: (hint: ToolHint) =>
      hint === 'keep'
        ? `an ${flavor.excludeKey} entry (never cleared)`
        : hint === 'strip'
          ? `a cleared tool, with ${flavor.inputsKey} on for every cleared tool`
          : 'a cleared tool (the default for a tool not excluded)',
    whyNot: (hint: ToolHint) =>
      hint === 'omit'
        ? 'the edit replaces a result with a placeholder and keeps the call; it cannot drop the call'
        : hint === 'strip-requests'
          ? 'the edit clears inputs only together with the result'
          : `${flavor.inputsKey} is one setting for every cleared tool, and another cleared tool keeps its requests`,
  };
  return {
    id: flavor.id,
    title: flavor.title,
    language: flavor.language,
    docs: flavor.docs,
    cannotExpress: 'per-tool input clearing, strip-requests, omit',
    render(tools) {
      const mapped = mapTools(tools, flavor.title, getExpressible(tools), wording);
      const clearInputs = namesWith(mapped, 'strip').length > 0;
      return {
        target: flavor.id,
        title: flavor.title,
        language: flavor.language,
        snippet: flavor.write(namesWith(mapped, 'keep'), clearInputs),
        tools: mapped,
        notes: [
          'trigger and keep are left at their defaults (edit once the conversation reaches 100,000 tokens; keep the 3 most recent tool results): the middleware counts tokens and tool results, not the turns your rules keep; the replayed figure runs the edit itself at every request with these settings.',
          `A cleared result reads "[cleared]" (the default placeholder). A tool not listed here is cleared too: only ${flavor.excludeKey} is never cleared.`,
        ],
        docs: flavor.docs,
      };
    },
  };
}

export const langchainPythonTarget = createTarget({
  id: 'langchain-py',
  title: 'LangChain ClearToolUsesEdit (Python)',
  language: 'python',
  docs: [
    'https://reference.langchain.com/python/langchain/agents/middleware/context_editing/ClearToolUsesEdit',
    'langchain-ai/langchain libs/langchain_v1/langchain/agents/middleware/context_editing.py',
  ],
  excludeKey: 'exclude_tools',
  inputsKey: 'clear_tool_inputs',
  write(kept, clearInputs) {
    const args: string[] = [];
    if (kept.length > 0) args.push(`exclude_tools=${formatList(kept, '            ', '[', ']')},`);
    args.push(`clear_tool_inputs=${clearInputs ? 'True' : 'False'},`);
    return [
      'from langchain.agents.middleware import ClearToolUsesEdit, ContextEditingMiddleware',
      '',
      'context_editing = ContextEditingMiddleware(',
      '    edits=[',
      '        ClearToolUsesEdit(',
      ...args.map((arg) => `            ${arg}`),
      '        ),',
      '    ],',
      ')',
      '',
      '# create_agent(model, tools=tools, middleware=[context_editing])',
      '',
    ].join('\n');
  },
});

export const langchainJsTarget = createTarget({
  id: 'langchain-js',
  title: 'LangChain ClearToolUsesEdit (JS)',
  language: 'typescript',
  docs: [
    'https://reference.langchain.com/javascript/classes/langchain.index.ClearToolUsesEdit.html',
    'langchain-ai/langchainjs libs/langchain/src/agents/middleware/contextEditing.ts',
  ],
  excludeKey: 'excludeTools',
  inputsKey: 'clearToolInputs',
  write(kept, clearInputs) {
    const args: string[] = [];
    if (kept.length > 0) args.push(`excludeTools: ${formatList(kept, '      ', '[', ']')},`);
    args.push(`clearToolInputs: ${clearInputs ? 'true' : 'false'},`);
    return [
      'import { ClearToolUsesEdit, contextEditingMiddleware } from "langchain";',
      '',
      'const contextEditing = contextEditingMiddleware({',
      '  edits: [',
      '    new ClearToolUsesEdit({',
      ...args.map((arg) => `      ${arg}`),
      '    }),',
      '  ],',
      '});',
      '',
      '// createAgent({ model, tools, middleware: [contextEditing] });',
      '',
    ].join('\n');
  },
});
