/**
 * How the panes put compaction decisions into words: policies in the hint
 * vocabulary, stored compaction fields, turn ranges (1-based, as JP prints
 * them) and rules as TOML. The naming itself comes from the core, so the
 * panes and the core's sentences say the same thing.
 */

import { DEFAULT_BASE, type JpBase } from '../../core/config/jp-base.ts';
import { formatTurnRange } from '../../core/config/range.ts';
import {
  formatRuleBound,
  formatRuleBoundFor,
  parseToolCallPolicy,
} from '../../core/config/rule-config.ts';
import { HINT_WORDS, policyToHintName } from '../../core/config/tool-hints.ts';
import type { CompactionRule, JsonValue, RuleBound, ToolCallPolicy } from '../../core/types.ts';

/** The hint a stored policy corresponds to (D17's mapping table, read backwards). */
export const policyToHint = policyToHintName;

/** A 0-based stored range as JP shows it to people: "turns 2..8", or "turn 3". */
export const formatTurns = formatTurnRange;

/** A 0-based turn index as a person reads it: "turn 3". */
export function formatTurn(turn: number): string {
  return `turn ${turn + 1}`;
}

/** A policy in words, led by its hint name: "strip-requests: the arguments become {}; …". */
export function describePolicy(policy: ToolCallPolicy): string {
  const hint = policyToHint(policy);
  return `${hint}: ${HINT_WORDS[hint]}`;
}

/**
 * Reads a stored `tool_calls` value (spec 1.3). Null when it is absent or not
 * a policy: the compaction then has no opinion on tool calls.
 */
export function parsePolicy(value: JsonValue | undefined): ToolCallPolicy | null {
  if (value === undefined) return null;
  const parsed = parseToolCallPolicy(value);
  return parsed.ok ? parsed.value : null;
}

/** Reads a stored `tool_overrides` map, skipping entries that are not policies. */
export function parseOverrides(value: JsonValue | undefined): [string, ToolCallPolicy][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const entries: [string, ToolCallPolicy][] = [];
  for (const [name, raw] of Object.entries(value)) {
    const policy = parsePolicy(raw);
    if (policy) entries.push([name, policy]);
  }
  return entries;
}

/** Reads a stored `summary` (`{"summary": text}`), or null when absent. */
export function parseSummary(value: JsonValue | undefined): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return typeof value.summary === 'string' ? value.summary : null;
}

/**
 * A bound as TOML for the reading `base` (a from-end bound is `"-{n+1}"` under
 * JP main, 15.4): counts bare, every other form as JP's written string. An
 * absolute bound has no JP main spelling, so it keeps JP 4c1c39f1's `"@N"`.
 */
function formatBoundToml(bound: RuleBound, base: JpBase): string {
  if ('turns' in bound) return String(bound.turns);
  return `"${formatRuleBoundFor(bound, base) ?? formatRuleBound(bound)}"`;
}

/** A rule as it would be written in TOML, on one line. */
export function formatRule(rule: CompactionRule, base: JpBase = DEFAULT_BASE): string {
  const parts = [
    `keep_first = ${formatBoundToml(rule.keep_first, base)}`,
    `keep_last = ${formatBoundToml(rule.keep_last, base)}`,
  ];
  if (rule.reasoning) parts.push(`reasoning = "${rule.reasoning}"`);
  if (rule.tool_calls) parts.push(`tool_calls = "${rule.tool_calls}"`);
  if (rule.summary) parts.push('summary');
  return parts.join(', ');
}
