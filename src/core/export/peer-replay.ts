/**
 * The figure beside a peer export, replayed: the runtime's own clearing
 * (src/core/replay/policies/) run with the parameters the export writes,
 * and with the runtime's defaults, on the conversation's requests (issue
 * 22). Anthropic's edit and LangChain's `ClearToolUsesEdit` (which follows
 * it) are `anthropic-context-editing`; the OpenAI Agents trimmer is
 * `openai-agents`; Codex's and Claude Code's own settings are their
 * policies with the parameters the snippet writes; Vercel's `pruneMessages`
 * has no replayed policy.
 */
import { type PolicyChoice, parsePolicyChoice } from '../replay/policies/policies.ts';
import type { ReplaySettings, ReplayTotals } from '../replay/replay.ts';
import { replayStream } from '../replay/replay.ts';
import type { StreamElement } from '../types.ts';
import { getClaudeCodeExported } from './claude-code.ts';
import { getCodexExported } from './codex.ts';
import { namesWith } from './peer-target.ts';
import type { PeerTargetId, ToolMapping } from './types.ts';

/** One replay of the conversation under a policy. */
export interface PeerPolicyRun {
  policy: PolicyChoice;
  totals: ReplayTotals;
  /** Tool uses cleared (or trimmed) summed over the requests. */
  cleared: number;
}

/** The replay under the exported parameters and under the runtime's defaults. */
export interface PeerReplay {
  exported: PeerPolicyRun;
  defaults: PeerPolicyRun;
}

/** The runtime policy of a target with the exported parameters, or null when none is replayed. */
export function getExportedPolicy(
  target: PeerTargetId,
  tools: readonly ToolMapping[],
  parameters?: PolicyChoice['parameters'],
): PolicyChoice | null {
  const kept = namesWith(tools, 'keep');
  const withInputs = namesWith(tools, 'strip');
  switch (target) {
    case 'anthropic':
      return {
        name: 'anthropic-context-editing',
        parameters: withDefaults('anthropic-context-editing', {
          exclude_tools: kept,
          clear_tool_inputs: withInputs.length > 0 ? withInputs : false,
        }),
      };
    case 'langchain-py':
    case 'langchain-js':
      // One boolean for every cleared tool, as the export writes it.
      return {
        name: 'anthropic-context-editing',
        parameters: withDefaults('anthropic-context-editing', {
          exclude_tools: kept,
          clear_tool_inputs: withInputs.length > 0,
        }),
      };
    case 'openai-agents':
      return {
        name: 'openai-agents',
        parameters: withDefaults('openai-agents', {
          trimmable_tools: namesWith(tools, 'strip-responses'),
        }),
      };
    case 'codex':
      return { name: 'codex', parameters: getCodexExported(parameters) };
    case 'claude-code':
      return { name: 'claude-code', parameters: getClaudeCodeExported(parameters) };
    case 'vercel':
      return null;
  }
}

function withDefaults(
  name: PolicyChoice['name'],
  exported: PolicyChoice['parameters'],
): PolicyChoice['parameters'] {
  const defaults = parsePolicyChoice(name, []);
  return { ...(defaults.ok ? defaults.value.parameters : {}), ...exported };
}

function run(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
  policy: PolicyChoice,
): PeerPolicyRun {
  const replay = replayStream(
    elements,
    { ...settings, policy },
    { schedules: false, tools: false },
  );
  return {
    policy,
    totals: replay.totals,
    cleared: replay.requests.reduce((n, request) => n + (request.cleared_tool_uses ?? 0), 0),
  };
}

/** The replayed figure of a target's export on a conversation, or null for a target without a policy. */
export function replayPeerExport(
  elements: readonly StreamElement[],
  target: PeerTargetId,
  tools: readonly ToolMapping[],
  settings: ReplaySettings,
  parameters?: PolicyChoice['parameters'],
): PeerReplay | null {
  const exported = getExportedPolicy(target, tools, parameters);
  if (!exported) return null;
  const defaults = parsePolicyChoice(exported.name, []);
  if (!defaults.ok) return null;
  return {
    exported: run(elements, settings, exported),
    defaults: run(elements, settings, defaults.value),
  };
}
