/**
 * The policies folder owns each runtime's own clearing, replayed (issue
 * 22): one module per runtime, each a pure step the replay runs at every
 * request (replay.ts `runPolicy`), with typed parameters, their defaults
 * and their parsing from `key=value`, and the mapping of the user's hints
 * onto them. This file is the registry and the one way in.
 */
import { formatCount } from '../../counting/format.ts';
import type { ToolInForce } from '../../export/types.ts';
import type { ImportFormat } from '../../import/types.ts';
import { anthropicCompaction } from './anthropic-compaction.ts';
import { anthropicContextEditing } from './anthropic-context-editing.ts';
import { claudeCode } from './claude-code.ts';
import { codex } from './codex.ts';
import { geminiCli } from './gemini-cli.ts';
import { openaiAgents } from './openai-agents.ts';
import { parseParameters } from './parameters.ts';

export { formatAssignments } from './parameters.ts';

import type {
  FieldSpec,
  ParameterValue,
  PolicyDecision,
  PolicyName,
  PolicyRequest,
} from './types.ts';

export type { PolicyDecision, PolicyItem, PolicyName, PolicyRequest } from './types.ts';
export { isPolicyName, POLICY_NAMES, replacementKey } from './types.ts';

/** A policy with its parameters, ready to run: the shape `--json` prints. */
export interface PolicyChoice {
  name: PolicyName;
  parameters: Readonly<Record<string, ParameterValue>>;
}

/** A runtime policy's step over erased parameters. */
interface RuntimePolicy {
  title: string;
  fields: readonly FieldSpec[];
  defaults: Readonly<Record<string, ParameterValue>>;
  parse(assignments: readonly string[]): ReturnType<typeof parseParameters>;
  step(
    parameters: Readonly<Record<string, ParameterValue>>,
    request: PolicyRequest,
    previous: PolicyDecision | null,
  ): PolicyDecision;
  fromHints(tools: readonly ToolInForce[]): {
    parameters: Readonly<Record<string, ParameterValue>>;
    notes: string[];
  };
}

function erase<P extends Readonly<Record<string, ParameterValue>>>(definition: {
  name: string;
  title: string;
  fields: readonly FieldSpec[];
  defaults: P;
  step(parameters: P, request: PolicyRequest, previous: PolicyDecision | null): PolicyDecision;
  fromHints(tools: readonly ToolInForce[], defaults: P): { parameters: P; notes: string[] };
}): RuntimePolicy {
  return {
    title: definition.title,
    // The help says each default as the defaults hold it: it cannot drift from them.
    fields: definition.fields.map((field) => ({
      ...field,
      doc: `${field.doc} (default ${describeDefault(definition.defaults[field.key])})`,
    })),
    defaults: definition.defaults,
    parse: (assignments) =>
      parseParameters(definition.name, definition.fields, definition.defaults, assignments),
    // The parameters reach the step only from `parse` or `fromHints` of the same policy.
    step: (parameters, request, previous) => definition.step(parameters as P, request, previous),
    fromHints: (tools) => definition.fromHints(tools, definition.defaults),
  };
}

const RUNTIME_POLICIES = new Map<Exclude<PolicyName, 'jp'>, RuntimePolicy>([
  ['anthropic-context-editing', erase(anthropicContextEditing)],
  ['anthropic-compaction', erase(anthropicCompaction)],
  ['claude-code', erase(claudeCode)],
  ['codex', erase(codex)],
  ['openai-agents', erase(openaiAgents)],
  ['gemini-cli', erase(geminiCli)],
]);

/** The runtime policy of a name (undefined for `jp`, which is the replay's own schedules). */
export function getRuntimePolicy(name: PolicyName): RuntimePolicy | undefined {
  return name === 'jp' ? undefined : RUNTIME_POLICIES.get(name);
}

/** A policy with `key=value` parameters applied to its defaults, or every error. */
export function parsePolicyChoice(
  name: PolicyName,
  assignments: readonly string[],
): { ok: true; value: PolicyChoice } | { ok: false; errors: string[] } {
  const policy = getRuntimePolicy(name);
  if (!policy) {
    return assignments.length === 0
      ? { ok: true, value: { name, parameters: {} } }
      : { ok: false, errors: ['jp takes no --set: choose its schedule with --schedule'] };
  }
  const parsed = policy.parse(assignments);
  return parsed.ok ? { ok: true, value: { name, parameters: parsed.value } } : parsed;
}

/** The user's hints mapped onto a policy's parameters, with what could not be said. */
export function getHintsPolicyChoice(
  name: PolicyName,
  tools: readonly ToolInForce[],
): { choice: PolicyChoice; notes: string[] } {
  const policy = getRuntimePolicy(name);
  if (!policy) return { choice: { name, parameters: {} }, notes: [] };
  const mapped = policy.fromHints(tools);
  return { choice: { name, parameters: mapped.parameters }, notes: mapped.notes };
}

/**
 * The policy of the runtime that wrote a transcript of `format`, which the
 * page opens the replay on: the agent's own clearing, where one is
 * replayed. OpenAI Chat and Responses bodies are what the Agents SDK sends;
 * Anthropic request bodies are what context editing edits. Every other
 * format (JP's own events, agents without a replayed policy): `jp`.
 */
export function getFilePolicy(format: ImportFormat | null | undefined): PolicyName {
  switch (format) {
    case 'claude-code':
    case 'codex':
    case 'gemini-cli':
      return format;
    case 'openai-chat':
    case 'openai-responses':
      return 'openai-agents';
    case 'anthropic-messages':
      return 'anthropic-context-editing';
    default:
      return 'jp';
  }
}

/** A default as the help says it: numbers with separators, an empty list as "none". */
function describeDefault(value: ParameterValue | undefined): string {
  if (value === undefined) return 'none';
  if (typeof value === 'number')
    return Number.isInteger(value) ? formatCount(value) : String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  return String(value);
}

/** A parameter's value as `--set` writes it: lists comma-separated. */
export function formatParameterValue(value: ParameterValue): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** A policy's fields (empty for `jp`), for the page's editor and the help. */
export function getPolicyFields(name: PolicyName): readonly FieldSpec[] {
  return getRuntimePolicy(name)?.fields ?? [];
}

/** A policy's title, as its module names it (`jp` for JP's schedules). */
export function getPolicyTitle(name: PolicyName): string {
  return getRuntimePolicy(name)?.title ?? 'JP with D17 (its schedules)';
}

/** One line per parameter, for the help and for errors. */
export function describePolicyFields(name: PolicyName): string[] {
  const policy = getRuntimePolicy(name);
  return policy ? policy.fields.map((field) => `${field.key}: ${field.doc}`) : [];
}
