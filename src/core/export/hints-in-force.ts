/**
 * The hint in force for each tool, as the peer exports read it, and the
 * nearest hint a peer can say when it cannot say the tool's own.
 *
 * "Nearest" never strips more than the hint asks: of the hints the peer can
 * say, the one that removes the most of what the hint removes and nothing it
 * keeps. So a tool the user keeps whole is never cleared by an export, and
 * the peer's saving is at most the playground's for each tool.
 */
import { TOOL_HINTS, toolHintToPolicy } from '../config/tool-hints.ts';
import type { ToolHintInfo } from '../playground/types.ts';
import type { CompactionRule, ToolHint } from '../types.ts';
import type { ToolInForce } from './types.ts';

/** What a hint removes from a compacted turn: the request's arguments, the response, the call itself. */
type Part = 'request' | 'response' | 'call';

/** The parts a hint removes, read from the stored policy it maps to (spec 11). */
function removedParts(hint: ToolHint): ReadonlySet<Part> {
  const policy = toolHintToPolicy(hint);
  if (policy.policy === 'omit') return new Set<Part>(['request', 'response', 'call']);
  const parts = new Set<Part>();
  if (policy.request) parts.add('request');
  if (policy.response) parts.add('response');
  return parts;
}

function isSubset(a: ReadonlySet<Part>, b: ReadonlySet<Part>): boolean {
  return [...a].every((part) => b.has(part));
}

/** The hint that removes exactly these parts. */
function hintRemoving(parts: ReadonlySet<Part>): ToolHint {
  const found = TOOL_HINTS.find((hint) => {
    const removed = removedParts(hint);
    return removed.size === parts.size && isSubset(removed, parts);
  });
  // Parts without the call, or all three: every such set is a hint's.
  return found ?? 'keep';
}

/**
 * What the rules' `tool_calls` do to a tool that has no hint: the parts every
 * rule with a `tool_calls` removes (a rule without one leaves tool calls
 * alone, ruling 1), or `keep` when no rule touches tool calls.
 */
export function getRulesHint(rules: readonly CompactionRule[]): ToolHint {
  let common: Set<Part> | undefined;
  for (const rule of rules) {
    if (rule.tool_calls === null) continue;
    const parts = removedParts(rule.tool_calls);
    common =
      common === undefined ? new Set(parts) : new Set([...common].filter((p) => parts.has(p)));
  }
  return common === undefined ? 'keep' : hintRemoving(common);
}

/** Every tool of the stream and the config with the hint in force, sorted by name. */
export function getToolsInForce(
  tools: readonly ToolHintInfo[],
  rules: readonly CompactionRule[],
): ToolInForce[] {
  const fromRules = getRulesHint(rules);
  return tools.map((tool) =>
    tool.hint === null
      ? { name: tool.name, hint: fromRules, source: 'rule', calls: tool.calls }
      : {
          name: tool.name,
          hint: tool.hint,
          source: tool.source === '*' ? '*' : 'tool',
          calls: tool.calls,
        },
  );
}

/**
 * The nearest hint among `expressible`: the one removing the most parts, of
 * those that remove only parts `hint` removes. `keep` removes none, so a
 * list holding `keep` always has an answer.
 */
export function getNearestHint(hint: ToolHint, expressible: readonly ToolHint[]): ToolHint {
  if (expressible.includes(hint)) return hint;
  const wanted = removedParts(hint);
  let best: ToolHint = 'keep';
  let bestSize = -1;
  for (const candidate of TOOL_HINTS) {
    if (!expressible.includes(candidate)) continue;
    const parts = removedParts(candidate);
    if (isSubset(parts, wanted) && parts.size > bestSize) {
      best = candidate;
      bestSize = parts.size;
    }
  }
  return best;
}
