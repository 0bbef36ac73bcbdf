/**
 * The vocabulary of the runtime policies (issue 22): what a policy sees at
 * each request of the replay, and what it decides. A policy is a pure
 * function `(parameters, request, previous decision) → decision`; the
 * previous decision is all the memory a policy that edits history for good
 * (Claude Code, Codex, Gemini CLI, compaction) needs, and a policy the
 * server applies afresh each time (Anthropic context editing, the OpenAI
 * Agents trimmer) ignores it.
 */
import type { TokenCounter } from '../../counting/tokens.ts';
import type { ToolInForce } from '../../export/types.ts';
import type { StreamElement } from '../../types.ts';

/** Every policy the replay speaks, JP's own schedules last. */
export const POLICY_NAMES = [
  'anthropic-context-editing',
  'anthropic-compaction',
  'claude-code',
  'codex',
  'openai-agents',
  'gemini-cli',
  'jp',
] as const;

export type PolicyName = (typeof POLICY_NAMES)[number];

/** Whether a value names a policy. */
export function isPolicyName(value: unknown): value is PolicyName {
  return typeof value === 'string' && (POLICY_NAMES as readonly string[]).includes(value);
}

/** One element of a request's prompt, as a policy reads it. */
export interface PolicyItem {
  /** The stream index it comes from. */
  origin: number;
  /** `user`: a chat request (a user message); `call`/`result`: a tool use and its result. */
  kind: 'user' | 'assistant' | 'call' | 'result' | 'other';
  /** The tool's name, for a call or a result (a result's is its call's). */
  tool: string | null;
  /** Payload tokens under the replay's counter. */
  tokens: number;
  /** Output of this response the transcript does not show but the prompt carries (billed tokens). */
  hidden: number;
  element: StreamElement;
}

/** What a policy is given at one request. */
export interface PolicyRequest {
  /** 0-based. */
  index: number;
  /** The prompt as the client holds it, before this policy's edits. */
  items: readonly PolicyItem[];
  /** Seconds since the previous request; null for the first or when a time is unknown. */
  gapSeconds: number | null;
  contextWindow: number;
  counter: TokenCounter;
  /** The runtime's invisible prefix ahead of the items (billed tokens; 0 uncalibrated). */
  prefixTokens: number;
  /** Billed tokens per counted token (1 uncalibrated). */
  tokenFactor: number;
}

/**
 * The input the runtime (and its provider) counts for a prompt of `tokens`
 * counted tokens carrying `hidden` hidden output: what a policy's token
 * trigger compares, as the runtime does.
 */
export function getBilledInput(request: PolicyRequest, tokens: number, hidden: number): number {
  return request.prefixTokens + request.tokenFactor * tokens + hidden;
}

/** An item's content replaced: by a placeholder, a preview or a truncation. */
export interface Replacement {
  tokens: number;
  /** What was done, in a word: `cleared`, `input cleared`, `trimmed`, `masked`, `truncated`. */
  what: string;
}

/** What a policy decided at a request; carried to the next as `previous`. */
export interface PolicyDecision {
  /** By `replacementKey(origin, kind)`. */
  replaced: ReadonlyMap<string, Replacement>;
  /** Everything up to stream index `through` replaced by a summary of `tokens`, from request `since + 1` on. */
  summary: { through: number; tokens: number; since: number } | null;
  /** Tool uses cleared (or trimmed, masked, truncated) at this request by this decision. */
  clearedHere: number;
}

/** The key of an item's replacement: a call's input and its result are separate. */
export function replacementKey(origin: number, kind: PolicyItem['kind']): string {
  return `${origin}:${kind}`;
}

export const NOTHING_DECIDED: PolicyDecision = {
  replaced: new Map(),
  summary: null,
  clearedHere: 0,
};

/** A parameter's type, for parsing `key=value` and for the help. */
export type FieldKind = 'count' | 'ratio' | 'boolean' | 'tools' | 'tools-or-boolean' | 'choice';

/** A parameter's value. */
export type ParameterValue = number | boolean | string | readonly string[];

/** One parameter of a policy. */
export interface FieldSpec {
  key: string;
  kind: FieldKind;
  /** For `choice`. */
  choices?: readonly string[];
  /** The least value a `count` takes (the source refuses less). */
  min?: number;
  /** One line: what it does and where the default comes from. */
  doc: string;
  /** The runtime's own page that documents the setting; absent for the replay's estimates. */
  source?: string;
}

/** The user's hints mapped onto a policy's parameters, and what could not be said. */
export interface HintsMapped<P> {
  parameters: P;
  notes: string[];
}

/** A policy: its parameters, defaults, step and the mapping of hints. */
export interface PolicyDefinition<P extends Readonly<Record<string, ParameterValue>>> {
  name: Exclude<PolicyName, 'jp'>;
  title: string;
  fields: readonly FieldSpec[];
  defaults: P;
  step(parameters: P, request: PolicyRequest, previous: PolicyDecision | null): PolicyDecision;
  fromHints(tools: readonly ToolInForce[], defaults: P): HintsMapped<P>;
}
