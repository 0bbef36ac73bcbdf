/**
 * D17 per-tool compaction hints (spec 11, rulings in 13): the `compaction`
 * value of a `conversation.tools` entry, and the `tool_overrides` map that a
 * new compaction event freezes from the tools in force.
 */

import { suggestClosest } from '../json/suggest.ts';
import {
  compareCodePoints,
  describeType,
  getOwn,
  isJsonObject,
  setOwn,
  showValue,
} from '../json/values.ts';
import type { JsonObject, ToolCallPolicy, ToolHint } from '../types.ts';
import {
  type ParseResult,
  TOOL_CALLS_MODE_ALIASES,
  TOOL_CALLS_MODE_SPELLINGS,
  toolCallsModeToPolicy,
} from './rule-config.ts';

/** The key of the defaults section in `conversation.tools`. */
export const TOOL_DEFAULTS_KEY = '*';

/** The key of the D17 hint inside a tool's table. */
export const TOOL_HINT_KEY = 'compaction';

/** The canonical hints, in the order messages list them. */
export const TOOL_HINTS: readonly ToolHint[] = [
  'keep',
  'strip',
  'strip-requests',
  'strip-responses',
  'omit',
];

/** Every hint choice of the what-if grid and the cost pane, `inherit` (the hint in force) first. */
export const HINT_CHOICES: readonly (ToolHint | 'inherit')[] = ['inherit', ...TOOL_HINTS];

/**
 * Each hint's effect in one line, lower case so it reads after "strip: " in a
 * pane and as a sentence once capitalised in the editor's completions and
 * hovers (the only place a hint is put into words).
 */
export const HINT_WORDS: Readonly<Record<ToolHint, string>> = {
  keep: 'request and response are left as they are',
  strip:
    'the arguments become {} and the response becomes a “[compacted] <tool>: success|error” line',
  'strip-requests': 'the arguments become {}; the response is kept',
  'strip-responses':
    'the arguments are kept; the response becomes a “[compacted] <tool>: success|error” line',
  omit: 'the call and its response are removed',
};

/** Every accepted spelling: `keep` plus the rule-level vocabulary and its aliases (ruling 6). */
const HINT_SPELLINGS: ReadonlyMap<string, ToolHint> = new Map<string, ToolHint>([
  ['keep', 'keep'],
  ...TOOL_CALLS_MODE_SPELLINGS,
]);

/**
 * Reads a tool's `compaction` value as its canonical hint. Matching is
 * case-sensitive; there is no `inherit` literal (leave the key out instead).
 */
export function parseToolHintName(value: unknown): ParseResult<ToolHint> {
  const accepted = `expected one of ${TOOL_HINTS.join(', ')} (aliases: ${TOOL_CALLS_MODE_ALIASES})`;
  if (typeof value !== 'string') {
    return {
      ok: false,
      message: `invalid tool compaction hint: got ${describeType(value)}, ${accepted}`,
    };
  }
  const hint = HINT_SPELLINGS.get(value);
  if (hint !== undefined) return { ok: true, value: hint };
  let advice = '';
  if (value === 'inherit') {
    advice = "; to inherit the rule's tool_calls, leave the key out";
  } else {
    const suggestion = suggestClosest(value, [...HINT_SPELLINGS.keys()]);
    if (suggestion !== undefined) advice = `; did you mean "${suggestion}"?`;
  }
  return {
    ok: false,
    message: `invalid tool compaction hint ${showValue(value)}: ${accepted}${advice}`,
  };
}

/** The stored policy a hint maps to (D17 table): `keep` strips nothing. */
export function toolHintToPolicy(hint: ToolHint): ToolCallPolicy {
  if (hint === 'keep') return { policy: 'strip', request: false, response: false };
  return toolCallsModeToPolicy(hint);
}

/** The hint a stored policy corresponds to (the D17 table read backwards). */
export function policyToHintName(policy: ToolCallPolicy): ToolHint {
  if (policy.policy === 'omit') return 'omit';
  if (policy.request && policy.response) return 'strip';
  if (policy.request) return 'strip-requests';
  if (policy.response) return 'strip-responses';
  return 'keep';
}

/** Reads a tool's `compaction` value as the stored policy it maps to (spec 11). */
export function parseToolHint(value: unknown): ParseResult<ToolCallPolicy> {
  const hint = parseToolHintName(value);
  return hint.ok ? { ok: true, value: toolHintToPolicy(hint.value) } : hint;
}

/** Where a tool's effective hint comes from: its own table or the `'*'` defaults. */
export interface ToolHintSource {
  hint: ToolHint;
  from: 'tool' | '*';
}

/** A hint that is valid, or undefined when unset or unreadable. */
function readHint(fields: JsonObject | undefined): ToolHint | undefined {
  if (fields === undefined) return undefined;
  const raw = getOwn(fields, TOOL_HINT_KEY);
  if (raw === undefined || raw === null) return undefined;
  const hint = parseToolHintName(raw);
  return hint.ok ? hint.value : undefined;
}

/**
 * The effective hint of every tool in `tools` that has one: its own, else
 * the `'*'` one (spec 11). Only tools present in the map are resolved (ruling
 * 7); an unreadable hint counts as unset. Keys are sorted.
 */
export function resolveToolHintSources(
  tools: Readonly<Record<string, JsonObject>>,
): Record<string, ToolHintSource> {
  const defaults = readHint(getOwn(tools, TOOL_DEFAULTS_KEY));
  const sources: Record<string, ToolHintSource> = {};
  const names = Object.keys(tools)
    .filter((name) => name !== TOOL_DEFAULTS_KEY)
    .sort(compareCodePoints);
  for (const name of names) {
    const own = readHint(getOwn(tools, name));
    if (own !== undefined) setOwn(sources, name, { hint: own, from: 'tool' });
    else if (defaults !== undefined) setOwn(sources, name, { hint: defaults, from: '*' });
  }
  return sources;
}

/**
 * The `tool_overrides` map a new compaction event gets (spec 11): every tool
 * in `tools` with an effective hint, mapped to its stored policy, sorted by
 * name. A tool absent from `tools` gets no entry, whatever `'*'` says.
 */
export function resolveToolOverrides(
  tools: Readonly<Record<string, JsonObject>>,
): Record<string, ToolCallPolicy> {
  return overridesFromSources(resolveToolHintSources(tools));
}

/**
 * {@link resolveToolOverrides} from the sources already resolved: a stream
 * of 50,000 tools sorts 50,000 names to resolve them, so the config in force
 * resolves them once for both.
 */
export function overridesFromSources(
  sources: Readonly<Record<string, ToolHintSource>>,
): Record<string, ToolCallPolicy> {
  const overrides: Record<string, ToolCallPolicy> = {};
  for (const [name, source] of Object.entries(sources)) {
    setOwn(overrides, name, toolHintToPolicy(source.hint));
  }
  return overrides;
}

/**
 * Reads a `conversation.tools` value given as JSON: a map of tool name (or
 * `'*'`) to a table, every `compaction` hint valid.
 */
export function parseToolsTable(value: unknown): ParseResult<Record<string, JsonObject>> {
  if (!isJsonObject(value)) {
    return {
      ok: false,
      message: `invalid conversation.tools: expected a table of tool name to settings, got ${describeType(value)}`,
    };
  }
  const tools: Record<string, JsonObject> = {};
  for (const [name, fields] of Object.entries(value)) {
    if (!isJsonObject(fields)) {
      return {
        ok: false,
        message: `invalid conversation.tools.${name}: expected a table, got ${describeType(fields)}`,
      };
    }
    const raw = getOwn(fields, TOOL_HINT_KEY);
    // JSON null is how a partial config says "unset", as if the key were absent.
    if (raw !== undefined && raw !== null) {
      const hint = parseToolHintName(raw);
      if (!hint.ok) return { ok: false, message: `conversation.tools.${name}: ${hint.message}` };
    }
    setOwn(tools, name, fields);
  }
  return { ok: true, value: tools };
}

/**
 * Merges `conversation.tools` layers in order, per tool key and per field:
 * a later layer's field replaces an earlier one's (spec 14.1); null fields
 * are unset and replace nothing.
 */
export function mergeToolLayers(
  layers: readonly Readonly<Record<string, JsonObject>>[],
): Record<string, JsonObject> {
  const merged: Record<string, JsonObject> = {};
  for (const layer of layers) {
    for (const [name, fields] of Object.entries(layer)) {
      if (!isJsonObject(fields)) continue;
      const target = getOwn(merged, name) ?? {};
      for (const [field, value] of Object.entries(fields)) {
        // A null field is an unset one in a partial config: it does not undo an earlier layer.
        if (value !== null) setOwn(target, field, value);
      }
      setOwn(merged, name, target);
    }
  }
  return merged;
}
