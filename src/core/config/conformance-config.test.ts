/**
 * Runs every shared `config` conformance case (format in the conformance
 * README): the input's first key says what is tested, and `{"error": true}`
 * means the parse must return not-ok.
 */
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import type { JsonValue, RuleBound, ToolCallPolicy } from '../types.ts';
import {
  formatRuleBound,
  type ParseResult,
  type PartialCompactionRule,
  parseCompactionEvent,
  parseCompactionRule,
  parseReasoningMode,
  parseRuleBound,
  parseRulesLayer,
  parseToolCallPolicy,
  parseToolCallsMode,
  type RulesLayer,
  resolveCompactionRules,
  serializeCompactionEvent,
  serializeCompactionRule,
  serializeToolCallPolicy,
  toolCallsModeToPolicy,
} from './rule-config.ts';
import { parseToolHint, parseToolsTable, resolveToolOverrides } from './tool-hints.ts';

type Outcome = { ok: unknown } | { error: true };

function outcome<T>(result: ParseResult<T>): Outcome {
  return result.ok ? { ok: result.value } : { error: true };
}

/** Applies `parse` to every value, failing as a whole if any value fails. */
function each<T>(values: readonly unknown[], parse: (value: unknown) => ParseResult<T>): Outcome {
  const out: T[] = [];
  for (const value of values) {
    const result = parse(value);
    if (!result.ok) return { error: true };
    out.push(result.value);
  }
  return { ok: out };
}

/** Reads a bound given in the conformance shape (`{"turns": 3}`), as the serializers take it. */
function parseBoundShape(value: unknown): ParseResult<RuleBound> {
  const shapes = ['turns', 'absolute', 'from_end', 'duration_secs', 'after_last_compaction'];
  if (typeof value === 'object' && value !== null && shapes.some((key) => key in value)) {
    return { ok: true, value: value as RuleBound };
  }
  return { ok: false, message: `not a RuleBound: ${JSON.stringify(value)}` };
}

/**
 * Reads a rule given in the conformance shape (bounds as `RuleBound` objects,
 * unset fields null); bounds and modes written as in TOML are read too.
 */
function readRuleShape(value: unknown): ParseResult<PartialCompactionRule> {
  if (typeof value !== 'object' || value === null) return { ok: false, message: 'not a rule' };
  const fields = value as Record<string, unknown>;
  const { keep_first, keep_last, ...rest } = fields;
  const readBound = (bound: unknown): ParseResult<RuleBound | null> =>
    bound === null || bound === undefined
      ? { ok: true, value: null }
      : typeof bound === 'object'
        ? parseBoundShape(bound)
        : parseRuleBound(bound);
  const first = readBound(keep_first);
  const last = readBound(keep_last);
  const others = parseCompactionRule(rest);
  if (!first.ok || !last.ok || !others.ok) return { ok: false, message: 'not a rule' };
  return { ok: true, value: { ...others.value, keep_first: first.value, keep_last: last.value } };
}

function runParse(kind: string, value: unknown): Outcome {
  switch (kind) {
    case 'tool_calls_mode':
      return outcome(parseToolCallsMode(value));
    case 'reasoning_mode':
      return outcome(parseReasoningMode(value));
    case 'rule_bound':
      return outcome(parseRuleBound(value));
    case 'compaction_rule':
      return outcome(parseCompactionRule(value));
    case 'tool_compaction_hint':
      return outcome(parseToolHint(value));
    case 'compaction_event':
      return outcome(parseCompactionEvent(value));
    default:
      throw new Error(`unknown parse kind ${kind}`);
  }
}

function runSerialize(kind: string, input: { values?: unknown[]; value?: unknown }): Outcome {
  switch (kind) {
    case 'tool_calls_mode':
      return each(input.values ?? [], parseToolCallsMode);
    case 'rule_bound':
      return each(input.values ?? [], (value) => {
        // A bound in the conformance shape, or as written in TOML (`"90m"` is written `"1h 30m"`).
        const bound = typeof value === 'object' ? parseBoundShape(value) : parseRuleBound(value);
        return bound.ok ? { ok: true, value: formatRuleBound(bound.value) } : bound;
      });
    case 'tool_call_policy':
      return each(input.values ?? [], (value) => {
        const policy = parseToolCallPolicy(value);
        return policy.ok ? { ok: true, value: serializeToolCallPolicy(policy.value) } : policy;
      });
    case 'compaction_rule': {
      const rule = readRuleShape(input.value);
      return rule.ok ? { ok: serializeCompactionRule(rule.value) } : { error: true };
    }
    case 'compaction_event': {
      const parsed = parseCompactionEvent(input.value);
      return parsed.ok ? { ok: serializeCompactionEvent(parsed.value) } : { error: true };
    }
    default:
      throw new Error(`unknown serialize kind ${kind}`);
  }
}

function runResolve(kind: string, input: { layers?: unknown[]; tools?: unknown }): Outcome {
  switch (kind) {
    case 'compaction_rules': {
      const layers: RulesLayer[] = [];
      for (const layer of input.layers ?? []) {
        // A layer that sets no `rules` at all takes no part in the merge.
        if (layer === null || layer === undefined) continue;
        const parsed = parseRulesLayer(layer);
        if (!parsed.ok) return { error: true };
        layers.push(parsed.value);
      }
      return { ok: resolveCompactionRules(layers) };
    }
    case 'tool_overrides': {
      const tools = parseToolsTable(input.tools);
      return tools.ok ? { ok: resolveToolOverrides(tools.value) } : { error: true };
    }
    default:
      throw new Error(`unknown resolve kind ${kind}`);
  }
}

function runCase(input: Record<string, unknown>): Outcome {
  // The README names the verb as the first key; find it wherever it is.
  const verb = ['parse', 'serialize', 'resolve', 'map'].find((key) => key in input);
  const kind = String(input[verb as string]);
  switch (verb) {
    case 'parse':
      return runParse(kind, input.value);
    case 'serialize':
      return runSerialize(kind, input as { values?: unknown[]; value?: unknown });
    case 'resolve':
      return runResolve(kind, input as { layers?: unknown[]; tools?: unknown });
    case 'map':
      if (kind !== 'tool_calls_mode_to_policy') throw new Error(`unknown map kind ${kind}`);
      return each((input.values as unknown[]) ?? [], (value) => {
        const mode = parseToolCallsMode(value);
        return mode.ok
          ? { ok: true, value: toolCallsModeToPolicy(mode.value) satisfies ToolCallPolicy }
          : mode;
      });
    default:
      throw new Error(`unknown config case input ${JSON.stringify(input)}`);
  }
}

const cases = loadCases('config');

describe('config conformance', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const testCase of cases) {
    it(testCase.name, () => {
      const result = runCase(testCase.input as Record<string, unknown>);
      if ('error' in testCase.expected) {
        expect(result).toEqual({ error: true });
      } else {
        // JSON round trip: compare written values, not JS-only details.
        expect(JSON.parse(JSON.stringify(result)) as JsonValue).toEqual(testCase.expected);
      }
    });
  }
});
