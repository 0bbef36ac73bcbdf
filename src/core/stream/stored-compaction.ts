/**
 * Compaction events as `events.json` stores them (spec 1.3, 10, 15.1; D17
 * `tool_overrides`): the stored `ToolCallPolicy`, the stored reasoning,
 * `tool_calls` and summary with their thresholds, and the written form of a
 * new event. The rules that create events live in `config/`; this is what
 * any reader of a stream needs, so it sits below them.
 */
import { DEFAULT_BASE, JP_BASES, type JpBase } from '../jp-base.ts';
import {
  compareCodePoints,
  describeType,
  isJsonObject,
  setOwn,
  showValue,
} from '../json/values.ts';
import { fail, ok, type ParseResult } from '../parse-result.ts';
import type { CompactionEvent, JsonObject, JsonValue, ToolCallPolicy } from '../types.ts';
import { parseByteSize } from './byte-size.ts';
import { parseTimestamp } from './timestamp.ts';

/** Reads a rule's `reasoning` value: the only accepted value is `"strip"`. */
export function parseReasoningMode(value: unknown): ParseResult<'strip'> {
  if (value === 'strip') return ok('strip');
  const got = typeof value === 'string' ? showValue(value) : describeType(value);
  return fail(
    `invalid reasoning ${got}: the only accepted value is "strip" (leave the key out to keep reasoning)`,
  );
}

/** A policy in its written JSON form, keys in JP's order. */
export function serializeToolCallPolicy(policy: ToolCallPolicy): JsonObject {
  return policy.policy === 'omit'
    ? { policy: 'omit' }
    : { policy: 'strip', request: policy.request, response: policy.response };
}

/** Reads a stored `ToolCallPolicy` object (spec 1.3). */
export function parseToolCallPolicy(value: unknown): ParseResult<ToolCallPolicy> {
  const shape =
    'expected {"policy": "strip", "request": <bool>, "response": <bool>} or {"policy": "omit"}';
  if (!isJsonObject(value)) return fail(`invalid tool call policy ${showValue(value)}: ${shape}`);
  if (value.policy === 'omit') return ok({ policy: 'omit' });
  if (value.policy === 'strip') {
    const { request, response } = value;
    if (typeof request === 'boolean' && typeof response === 'boolean') {
      return ok({ policy: 'strip', request, response });
    }
  }
  return fail(`invalid tool call policy ${showValue(value)}: ${shape}`);
}

/** A stored `tool_calls` as projection uses it: the policy and its threshold in bytes (15.1, 15.3). */
export interface StoredToolCalls {
  policy: ToolCallPolicy;
  over: bigint | null;
}

/** A stored summary: its text and where it came from (15.1). */
export interface StoredSummary {
  summary: string;
  source: 'generated' | 'authored';
}

/** An object without one key, for reading what remains after `over` (15.1). */
function withoutKey(value: JsonObject, key: string): JsonObject {
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (k !== key) setOwn(rest, k, v);
  return rest;
}

/**
 * Reads a stored `over` (15.1): removed from the object and read as a SIZE;
 * `null` and anything that is not a size are errors. Absent gives `null`.
 */
function readStoredOver(value: JsonObject): ParseResult<bigint | null> {
  if (!Object.hasOwn(value, 'over')) return ok(null);
  const size = parseByteSize(value.over, value, 'over');
  return size.ok ? ok(size.value) : fail(`"over": ${size.message}`);
}

/**
 * A compaction's stored `reasoning` (15.1): `"strip"` everywhere; under
 * `2026-09` also `{"policy": "strip", "over": SIZE}`. The threshold is
 * returned (null: none). Absent or `null` is no reasoning policy.
 */
export function readStoredReasoning(
  value: JsonValue | undefined,
  base: JpBase = DEFAULT_BASE,
): ParseResult<{ over: bigint | null } | null> {
  if (value === undefined || value === null) return ok(null);
  if (value === 'strip') return ok({ over: null });
  const main = JP_BASES[base].storedThresholdsAndSources;
  if (!main || !isJsonObject(value)) {
    return fail(
      !main
        ? `must be the string "strip", found ${showValue(value)} (JP 4c1c39f1 reads no other reasoning policy)`
        : `must be the string "strip" or {"policy": "strip", "over": SIZE}, found ${showValue(value)}`,
    );
  }
  const over = readStoredOver(value);
  if (!over.ok) return over;
  const rest = withoutKey(value, 'over');
  if (!Object.hasOwn(rest, 'policy')) return fail('missing field `policy`');
  for (const key of Object.keys(rest)) {
    if (key !== 'policy') return fail(`unknown policy option \`${key}\``);
  }
  if (rest.policy !== 'strip') {
    return fail(`"policy" must be "strip", found ${showValue(rest.policy)}`);
  }
  return ok({ over: over.value });
}

/**
 * A compaction's stored `tool_calls` (15.1): the tagged policy of §1.3,
 * other keys ignored; under `2026-09` an `over` key is its threshold, and
 * under `2026-08` an ignored key like any other.
 */
export function readStoredToolCalls(
  value: JsonValue | undefined,
  base: JpBase = DEFAULT_BASE,
): ParseResult<StoredToolCalls | null> {
  if (value === undefined || value === null) return ok(null);
  let over: bigint | null = null;
  if (JP_BASES[base].storedThresholdsAndSources && isJsonObject(value)) {
    const read = readStoredOver(value);
    if (!read.ok) return read;
    over = read.value;
  }
  const policy = parseToolCallPolicy(value);
  return policy.ok ? ok({ policy: policy.value, over }) : policy;
}

/**
 * A compaction's stored `summary` (15.1): `{"summary": <string>}`, and under
 * `2026-09` an optional `source` of `generated` (the default) or `authored`.
 * Under `2026-08` `source` is ignored, whatever it holds.
 */
export function readStoredSummary(
  value: JsonValue | undefined,
  base: JpBase = DEFAULT_BASE,
): ParseResult<StoredSummary | null> {
  if (value === undefined || value === null) return ok(null);
  if (!isJsonObject(value) || typeof value.summary !== 'string') {
    return fail(`must be an object such as {"summary": "…"}, found ${showValue(value)}`);
  }
  if (!JP_BASES[base].storedThresholdsAndSources || !Object.hasOwn(value, 'source')) {
    return ok({ summary: value.summary, source: 'generated' });
  }
  const source = value.source;
  if (source !== 'generated' && source !== 'authored') {
    return fail(`"source" must be "generated" or "authored", found ${showValue(source)}`);
  }
  return ok({ summary: value.summary, source });
}

/** A compaction event read into typed fields; absent policies are null, absent overrides `{}`. */
export interface ParsedCompactionEvent {
  timestamp: string;
  from_turn: number;
  to_turn: number;
  summary: { summary: string } | null;
  reasoning: 'strip' | null;
  tool_calls: ToolCallPolicy | null;
  tool_overrides: Record<string, ToolCallPolicy>;
}

/** The fields of a compaction event to write; absent and null policies are omitted. */
export interface CompactionEventDraft {
  timestamp: string;
  from_turn: number;
  to_turn: number;
  /** A summary; `source: 'authored'` is written, a generated source never is (15.1). */
  summary?: { summary: string; source?: 'generated' | 'authored' } | null;
  reasoning?: 'strip' | null;
  /** The reasoning threshold, written form (15.2); written as `{"policy": "strip", "over": …}`. */
  reasoning_over?: string | null;
  tool_calls?: ToolCallPolicy | null;
  /** The tool_calls threshold, written form (15.2); appended to the policy as `"over"`. */
  tool_calls_over?: string | null;
  tool_overrides?: Readonly<Record<string, ToolCallPolicy>> | null;
}

/**
 * A compaction event in its written form: keys in JP's order (`type`,
 * `timestamp`, `from_turn`, `to_turn`, `summary`, `reasoning`, `tool_calls`,
 * `tool_overrides`), absent policies omitted, `tool_overrides` omitted when
 * empty and written with sorted keys.
 */
export function serializeCompactionEvent(event: CompactionEventDraft): CompactionEvent {
  const written: CompactionEvent = {
    type: 'compaction',
    timestamp: event.timestamp,
    from_turn: event.from_turn,
    to_turn: event.to_turn,
  };
  if (event.summary) {
    written.summary =
      event.summary.source === 'authored'
        ? { summary: event.summary.summary, source: 'authored' }
        : { summary: event.summary.summary };
  }
  if (event.reasoning) {
    written.reasoning = event.reasoning_over
      ? { policy: event.reasoning, over: event.reasoning_over }
      : event.reasoning;
  }
  if (event.tool_calls) {
    const policy = serializeToolCallPolicy(event.tool_calls);
    if (event.tool_calls_over) policy.over = event.tool_calls_over;
    written.tool_calls = policy;
  }
  const names = Object.keys(event.tool_overrides ?? {}).sort(compareCodePoints);
  if (event.tool_overrides && names.length > 0) {
    const overrides: JsonObject = {};
    for (const name of names) {
      setOwn(
        overrides,
        name,
        serializeToolCallPolicy(event.tool_overrides[name] as ToolCallPolicy),
      );
    }
    written.tool_overrides = overrides;
  }
  return written;
}

function isTurnIndex(value: JsonValue | undefined): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Reads a compaction element (spec 1.3); a missing `tool_overrides` reads as `{}` (D17). */
export function parseCompactionEvent(value: unknown): ParseResult<ParsedCompactionEvent> {
  if (!isJsonObject(value))
    return fail(`invalid compaction: expected an object, got ${describeType(value)}`);
  if (value.type !== undefined && value.type !== 'compaction') {
    return fail(`invalid compaction: type is ${showValue(value.type)}, expected "compaction"`);
  }
  const { timestamp, from_turn, to_turn } = value;
  if (typeof timestamp !== 'string') return fail('invalid compaction: timestamp must be a string');
  // A timestamp JP cannot read makes the compaction invalid (spec 1.2).
  if (parseTimestamp(timestamp) === undefined) {
    return fail(
      `invalid compaction: timestamp ${showValue(timestamp)} is neither "YYYY-MM-DD HH:MM:SS.f" nor RFC 3339`,
    );
  }
  if (!isTurnIndex(from_turn) || !isTurnIndex(to_turn)) {
    return fail('invalid compaction: from_turn and to_turn must be non-negative integers');
  }
  let summary: ParsedCompactionEvent['summary'] = null;
  if (value.summary !== undefined && value.summary !== null) {
    if (!isJsonObject(value.summary) || typeof value.summary.summary !== 'string') {
      return fail('invalid compaction: summary must be {"summary": "<text>"}');
    }
    summary = { summary: value.summary.summary };
  }
  let reasoning: ParsedCompactionEvent['reasoning'] = null;
  if (value.reasoning !== undefined && value.reasoning !== null) {
    const mode = parseReasoningMode(value.reasoning);
    if (!mode.ok) return fail(`invalid compaction: ${mode.message}`);
    reasoning = mode.value;
  }
  let toolCalls: ToolCallPolicy | null = null;
  if (value.tool_calls !== undefined && value.tool_calls !== null) {
    const policy = parseToolCallPolicy(value.tool_calls);
    if (!policy.ok) return fail(`invalid compaction tool_calls: ${policy.message}`);
    toolCalls = policy.value;
  }
  const overrides: Record<string, ToolCallPolicy> = {};
  // Only a missing map defaults to `{}` (D17's serde default); `null` is not a map.
  if (value.tool_overrides !== undefined) {
    if (!isJsonObject(value.tool_overrides)) {
      return fail('invalid compaction: tool_overrides must be an object of tool name to policy');
    }
    for (const [name, raw] of Object.entries(value.tool_overrides)) {
      const policy = parseToolCallPolicy(raw);
      if (!policy.ok) return fail(`invalid compaction tool_overrides.${name}: ${policy.message}`);
      setOwn(overrides, name, policy.value);
    }
  }
  return ok({
    timestamp,
    from_turn,
    to_turn,
    summary,
    reasoning,
    tool_calls: toolCalls,
    tool_overrides: overrides,
  });
}
