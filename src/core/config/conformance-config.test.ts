/**
 * Runs every shared `config` conformance case (format in the conformance
 * README): the input's first key says what is tested, and `{"error": true}`
 * means the parse must return not-ok.
 */
import { expect } from 'vitest';
import { loadCases } from '../../test/conformance.ts';
import { describeConformance } from '../../test/conformance-suite.ts';
import { parseEventsText } from '../stream/codec.ts';
import { writeEventsText } from '../stream/write.ts';
import type { JsonValue, RuleBound, StreamElement, ToolCallPolicy } from '../types.ts';
import { formatByteSize, parseByteSize } from './byte-size.ts';
import type { JpBase } from './jp-base.ts';
import { getVerbatimSummaryText } from './range.ts';
import {
  formatRuleBoundFor,
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
  readPolicySetting,
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
function readRuleShape(value: unknown, base: JpBase): ParseResult<PartialCompactionRule> {
  if (typeof value !== 'object' || value === null) return { ok: false, message: 'not a rule' };
  const fields = value as Record<string, unknown>;
  const { keep_first, keep_last, ...rest } = fields;
  const readBound = (bound: unknown): ParseResult<RuleBound | null> =>
    bound === null || bound === undefined
      ? { ok: true, value: null }
      : typeof bound === 'object'
        ? parseBoundShape(bound)
        : parseRuleBound(bound, 'bound', base);
  const first = readBound(keep_first);
  const last = readBound(keep_last);
  const others = parseCompactionRule(rest, base);
  if (!first.ok || !last.ok || !others.ok) return { ok: false, message: 'not a rule' };
  return { ok: true, value: { ...others.value, keep_first: first.value, keep_last: last.value } };
}

/** What a new compaction event stores for a rule's field as written (15.4). */
function runRulePolicy(field: string, value: unknown, base: JpBase): Outcome {
  const event = { timestamp: '2026-01-01 00:00:00.0', from_turn: 0, to_turn: 0 };
  if (field === 'summary') {
    const rule = parseCompactionRule({ summary: value as JsonValue }, base);
    if (!rule.ok || rule.value.summary === null) return { error: true };
    const text = getVerbatimSummaryText(rule.value, base);
    if (text === undefined) return { error: true };
    return {
      ok: serializeCompactionEvent({ ...event, summary: { summary: text, source: 'authored' } })
        .summary,
    };
  }
  if (field === 'reasoning') {
    const setting = readPolicySetting(value, 'reasoning', parseReasoningMode, base);
    if (!setting.ok) return { error: true };
    const over = setting.value.over === null ? null : formatByteSize(setting.value.over);
    return {
      ok: serializeCompactionEvent({
        ...event,
        reasoning: setting.value.mode,
        reasoning_over: over,
      }).reasoning,
    };
  }
  const setting = readPolicySetting(value, 'tool_calls', parseToolCallsMode, base);
  if (!setting.ok) return { error: true };
  const over = setting.value.over === null ? null : formatByteSize(setting.value.over);
  return {
    ok: serializeCompactionEvent({
      ...event,
      tool_calls: toolCallsModeToPolicy(setting.value.mode),
      tool_calls_over: over,
    }).tool_calls,
  };
}

/** A SIZE and its written form (15.2); bytes above 2^53 − 1 as a decimal string. */
function runByteSize(value: unknown): Outcome {
  const size = parseByteSize(value);
  if (!size.ok) return { error: true };
  const bytes =
    size.value > BigInt(Number.MAX_SAFE_INTEGER) ? String(size.value) : Number(size.value);
  return { ok: { bytes, written: formatByteSize(size.value) } };
}

/** An events.json read under the base and written back (15.1); an unreadable stream is an error. */
function runRoundtrip(value: unknown, base: JpBase): Outcome {
  const parsed = parseEventsText(JSON.stringify(value), 'plain', undefined, base);
  if (parsed.elements === undefined) return { error: true };
  return { ok: JSON.parse(writeEventsText(parsed.elements as StreamElement[], 'plain')) };
}

function runParse(kind: string, value: unknown, base: JpBase): Outcome {
  switch (kind) {
    case 'tool_calls_mode':
      return outcome(parseToolCallsMode(value));
    case 'reasoning_mode':
      return outcome(parseReasoningMode(value));
    case 'rule_bound':
      return outcome(parseRuleBound(value, 'bound', base));
    case 'compaction_rule':
      return outcome(parseCompactionRule(value, base));
    case 'byte_size':
      return runByteSize(value);
    case 'tool_compaction_hint':
      return outcome(parseToolHint(value));
    case 'compaction_event':
      return outcome(parseCompactionEvent(value));
    default:
      throw new Error(`unknown parse kind ${kind}`);
  }
}

function runSerialize(
  kind: string,
  input: { values?: unknown[]; value?: unknown },
  base: JpBase,
): Outcome {
  switch (kind) {
    case 'tool_calls_mode':
      return each(input.values ?? [], parseToolCallsMode);
    case 'rule_bound':
      return each(input.values ?? [], (value) => {
        // A bound in the conformance shape, or as written in TOML (`"90m"` is written `"1h 30m"`).
        const bound =
          typeof value === 'object' ? parseBoundShape(value) : parseRuleBound(value, 'bound', base);
        if (!bound.ok) return bound;
        const written = formatRuleBoundFor(bound.value, base);
        return written === undefined
          ? { ok: false, message: 'no config spelling' }
          : { ok: true, value: written };
      });
    case 'tool_call_policy':
      return each(input.values ?? [], (value) => {
        const policy = parseToolCallPolicy(value);
        return policy.ok ? { ok: true, value: serializeToolCallPolicy(policy.value) } : policy;
      });
    case 'compaction_rule': {
      const rule = readRuleShape(input.value, base);
      return rule.ok ? { ok: serializeCompactionRule(rule.value, base) } : { error: true };
    }
    case 'compaction_event': {
      const parsed = parseCompactionEvent(input.value);
      return parsed.ok ? { ok: serializeCompactionEvent(parsed.value) } : { error: true };
    }
    default:
      throw new Error(`unknown serialize kind ${kind}`);
  }
}

function runResolve(
  kind: string,
  input: { layers?: unknown[]; tools?: unknown },
  base: JpBase,
): Outcome {
  switch (kind) {
    case 'compaction_rules': {
      const layers: RulesLayer[] = [];
      for (const layer of input.layers ?? []) {
        // A layer that sets no `rules` at all takes no part in the merge.
        if (layer === null || layer === undefined) continue;
        const parsed = parseRulesLayer(layer, base);
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

function runCase(input: Record<string, unknown>, base: JpBase): Outcome {
  // The README names the verb as the first key; find it wherever it is.
  const verb = ['parse', 'serialize', 'resolve', 'map', 'roundtrip'].find((key) => key in input);
  const kind = String(input[verb as string]);
  switch (verb) {
    case 'parse':
      if (kind === 'rule_policy') return runRulePolicy(String(input.field), input.value, base);
      return runParse(kind, input.value, base);
    case 'roundtrip':
      return runRoundtrip(input.value, base);
    case 'serialize':
      return runSerialize(kind, input as { values?: unknown[]; value?: unknown }, base);
    case 'resolve':
      return runResolve(kind, input as { layers?: unknown[]; tools?: unknown }, base);
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

describeConformance('config conformance', cases, { top: 65, main: 35 }, (testCase, base) => {
  const result = runCase(testCase.input as Record<string, unknown>, base);
  if ('error' in testCase.expected) {
    expect(result).toEqual({ error: true });
  } else if ('roundtrip' in testCase.input) {
    // Written back as read: every element with its keys in their order (15.1).
    const written = (result as { ok: JsonValue[] }).ok;
    const expected = testCase.expected.ok as JsonValue[];
    expect(written.map((e) => JSON.stringify(e))).toEqual(expected.map((e) => JSON.stringify(e)));
  } else {
    // JSON round trip: compare written values, not JS-only details.
    expect(JSON.parse(JSON.stringify(result)) as JsonValue).toEqual(testCase.expected);
  }
});
