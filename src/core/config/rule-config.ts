/**
 * Compaction rules as configured (spec 5): the rule-level `tool_calls` and
 * `reasoning` values, `keep_first`/`keep_last` bounds, layering of rule lists
 * with the built-in default, the stored `ToolCallPolicy`, and the written form
 * of rules and compaction events (spec 1.3, 10, and the D17 `tool_overrides`).
 *
 * Every parser returns a `ParseResult` and never throws: user input that is
 * wrong is data, with a message that says what was wrong and what is accepted.
 */

import { getNumberText, keepExactInteger } from '../json/number-text.ts';
import { didYouMean } from '../json/suggest.ts';
import {
  compareCodePoints,
  describeType,
  getOwn,
  isJsonObject,
  setOwn,
  showValue,
} from '../json/values.ts';
import { parseTimestamp, secondsToNanos } from '../stream/timestamp.ts';
import type {
  CompactionEvent,
  CompactionRule,
  JsonObject,
  JsonValue,
  RuleBound,
  ToolCallPolicy,
  ToolCallsMode,
} from '../types.ts';
import { formatByteSize, parseByteSize } from './byte-size.ts';
import { durationNanosToSeconds, formatDuration, parseDuration } from './duration.ts';
import { DEFAULT_BASE, type JpBase } from './jp-base.ts';

/** The outcome of reading a value the user wrote. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

function ok<T>(value: T): ParseResult<T> {
  return { ok: true, value };
}

function fail<T>(message: string): ParseResult<T> {
  return { ok: false, message };
}

// --- tool_calls and reasoning modes (spec 5) --------------------------------

/** The canonical rule-level `tool_calls` modes, in the order messages list them. */
export const TOOL_CALLS_MODES: readonly ToolCallsMode[] = [
  'strip',
  'strip-requests',
  'strip-responses',
  'omit',
];

/** Every accepted `tool_calls` spelling and its canonical mode (case-sensitive). */
export const TOOL_CALLS_MODE_SPELLINGS: ReadonlyMap<string, ToolCallsMode> = new Map([
  ['strip', 'strip'],
  ['s', 'strip'],
  ['strip-requests', 'strip-requests'],
  ['strip_requests', 'strip-requests'],
  ['sreq', 'strip-requests'],
  ['strip-responses', 'strip-responses'],
  ['strip_responses', 'strip-responses'],
  ['sres', 'strip-responses'],
  ['omit', 'omit'],
  ['o', 'omit'],
]);

/** The aliases, as listed in messages. */
export const TOOL_CALLS_MODE_ALIASES = 's, sreq, sres, o, strip_requests, strip_responses';

/** Reads a rule's `tool_calls` value: a string only, mapped to its canonical mode. */
export function parseToolCallsMode(value: unknown): ParseResult<ToolCallsMode> {
  const accepted = `expected one of ${TOOL_CALLS_MODES.join(', ')} (aliases: ${TOOL_CALLS_MODE_ALIASES})`;
  if (typeof value === 'string') {
    const mode = TOOL_CALLS_MODE_SPELLINGS.get(value);
    if (mode !== undefined) return ok(mode);
    const spellings = [...TOOL_CALLS_MODE_SPELLINGS.keys()];
    return fail(
      `invalid tool_calls ${showValue(value)}: ${accepted}${didYouMean(value, spellings)}`,
    );
  }
  if (isJsonObject(value)) {
    // RFD 064 documents an inline table; JP only reads a string (spec 12, row 3).
    return fail(`invalid tool_calls: a table is not accepted, write a string: ${accepted}`);
  }
  return fail(`invalid tool_calls: got ${describeType(value)}, ${accepted}`);
}

/** A policy as a rule sets it: the mode and its threshold in bytes (null: none; 15.4). */
export interface PolicySetting<M extends string> {
  mode: M;
  over: bigint | null;
}

/** A field of a policy table that could not be read: its key (`oer`, `over`, `policy`) and why. */
export interface PolicyTableError {
  key: string | null;
  message: string;
}

/**
 * Reads a rule's `reasoning` or `tool_calls` as written (15.4): the bare
 * string, or under `2026-09` a table `{ policy = …, over = SIZE }` whose
 * `policy` is required and whose other keys are errors.
 */
export function readPolicySetting<M extends string>(
  value: unknown,
  field: 'reasoning' | 'tool_calls',
  parseMode: (value: unknown) => ParseResult<M>,
  base: JpBase = DEFAULT_BASE,
): { ok: true; value: PolicySetting<M> } | ({ ok: false } & PolicyTableError) {
  if (base === '2026-08' || !isJsonObject(value)) {
    const mode = parseMode(value);
    return mode.ok
      ? { ok: true, value: { mode: mode.value, over: null } }
      : { ok: false, key: null, message: mode.message };
  }
  let over: bigint | null = null;
  for (const key of Object.keys(value)) {
    if (key === 'policy') continue;
    if (key !== 'over') {
      return {
        ok: false,
        key,
        message: `invalid ${field}: unknown policy option \`${key}\`; a ${field} table takes policy and over`,
      };
    }
    // With its container, an integer past 2^53 is read as written (its digits), not as the nearest double.
    const size = parseByteSize(value.over, value, 'over');
    if (!size.ok)
      return { ok: false, key: 'over', message: `invalid ${field}.over: ${size.message}` };
    over = size.value;
  }
  if (!Object.hasOwn(value, 'policy')) {
    return {
      ok: false,
      key: null,
      message: `invalid ${field}: the table has no policy; write for example { policy = "${field === 'reasoning' ? 'strip' : 'strip-responses'}", over = "1MB" }`,
    };
  }
  const mode = parseMode(value.policy);
  return mode.ok
    ? { ok: true, value: { mode: mode.value, over } }
    : { ok: false, key: 'policy', message: mode.message };
}

/**
 * A policy in the TOML form a rule writes (15.4, 15.6): the bare mode, or
 * the table `{ policy, over }` with the written size when it has a threshold.
 */
export function writePolicySetting<M extends string>(
  mode: M | null,
  over: string | undefined,
): M | { policy: M; over: string } | null {
  if (mode === null) return null;
  return over === undefined ? mode : { policy: mode, over };
}

/** Reads a rule's `reasoning` value: the only accepted value is `"strip"`. */
export function parseReasoningMode(value: unknown): ParseResult<'strip'> {
  if (value === 'strip') return ok('strip');
  const got = typeof value === 'string' ? showValue(value) : describeType(value);
  return fail(
    `invalid reasoning ${got}: the only accepted value is "strip" (leave the key out to keep reasoning)`,
  );
}

/** The stored policy a `tool_calls` mode maps to (spec 5 table). */
export function toolCallsModeToPolicy(mode: ToolCallsMode): ToolCallPolicy {
  switch (mode) {
    case 'strip':
      return { policy: 'strip', request: true, response: true };
    case 'strip-requests':
      return { policy: 'strip', request: true, response: false };
    case 'strip-responses':
      return { policy: 'strip', request: false, response: true };
    case 'omit':
      return { policy: 'omit' };
  }
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

// --- Stored policies with thresholds and summaries (spec 15.1) --------------

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
  if (base === '2026-08' || !isJsonObject(value)) {
    return fail(
      base === '2026-08'
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
  if (base === '2026-09' && isJsonObject(value)) {
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
  if (base === '2026-08' || !Object.hasOwn(value, 'source')) {
    return ok({ summary: value.summary, source: 'generated' });
  }
  const source = value.source;
  if (source !== 'generated' && source !== 'authored') {
    return fail(`"source" must be "generated" or "authored", found ${showValue(source)}`);
  }
  return ok({ summary: value.summary, source });
}

// --- keep_first / keep_last (spec 5) ----------------------------------------

const BOUND_FORMS =
  'accepted: a turn count N, "@N" (1-based position, N ≥ 1), "-N" (from the end), ' +
  '"last-compaction", or a duration such as "5h", "2days" or "1h 30m"';

/** The largest `usize` on JP's 64-bit targets. */
const USIZE_MAX = 2n ** 64n - 1n;

/**
 * Rust's `usize::from_str`: ASCII digits with an optional leading `+`, at
 * most `usize::MAX`, exactly (a count above 2^53 is not a double's).
 */
function parseUnsigned(text: string): bigint | undefined {
  if (!/^\+?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text.replace(/^\+/, ''));
  return value <= USIZE_MAX ? value : undefined;
}

/**
 * A count or position bound of `exact` turns. The bound holds the nearest
 * double (no stream has 2^53 turns, so it resolves the same); past 2^53 the
 * digits are kept beside it (json/number-text.ts), so a message quotes the
 * count as written, not as `9223372036854776000`.
 */
function exactBound(key: 'turns' | 'absolute' | 'from_end', exact: bigint): RuleBound {
  const value = Number(exact);
  const bound: RuleBound =
    key === 'turns'
      ? { turns: value }
      : key === 'absolute'
        ? { absolute: value }
        : { from_end: value };
  keepExactInteger(bound, key, exact);
  return bound;
}

/**
 * Reads a `keep_first` / `keep_last` bound as written in TOML or JSON: a
 * non-negative integer or a string. Strings are tried in the order of spec 5:
 * the `last-compaction` / `last` markers (any case), a leading `@`, a leading
 * `-` (final: `"-5h"` is an error), a plain number, then a duration.
 * `field` names the key in messages.
 */
export function parseRuleBound(
  value: unknown,
  field = 'bound',
  base: JpBase = DEFAULT_BASE,
): ParseResult<RuleBound> {
  if (base === '2026-09' && typeof value === 'string') return parseMainRuleBound(value, field);
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isInteger(value)) {
      return fail(`invalid ${field} ${value}: a turn count must be a whole number; ${BOUND_FORMS}`);
    }
    if (value < 0) {
      return fail(
        `invalid ${field} ${value}: a turn count cannot be negative; write "${value}" as a string to count from the end`,
      );
    }
    // JP reads a `usize`: anything up to 2^64 - 1 is a count.
    if (BigInt(value) > USIZE_MAX)
      return fail(
        `invalid ${field} ${value}: the number is too large (JP reads a count of at most ${USIZE_MAX})`,
      );
    return ok(exactBound('turns', BigInt(value)));
  }
  if (typeof value !== 'string') {
    return fail(`invalid ${field}: got ${describeType(value)}; ${BOUND_FORMS}`);
  }
  const shown = showValue(value);
  const lower = value.toLowerCase();
  if (lower === 'last-compaction' || lower === 'last') return ok({ after_last_compaction: true });
  if (value.startsWith('@')) {
    const position = parseUnsigned(value.slice(1));
    if (position === undefined) {
      return fail(
        `invalid ${field} ${shown}: "@" must be followed by a whole number; ${BOUND_FORMS}`,
      );
    }
    if (position === 0n) {
      return fail(
        `invalid ${field} ${shown}: positions are 1-based, write "@1" for the first turn`,
      );
    }
    return ok(exactBound('absolute', position));
  }
  if (value.startsWith('-')) {
    const count = parseUnsigned(value.slice(1));
    if (count === undefined) {
      return fail(
        `invalid ${field} ${shown}: "-" must be followed by a whole number of turns (durations have no sign); ${BOUND_FORMS}`,
      );
    }
    return ok(exactBound('from_end', count));
  }
  const count = parseUnsigned(value);
  if (count !== undefined) return ok(exactBound('turns', count));
  const duration = parseDuration(value);
  if (!duration.ok) {
    // Text that starts like a duration gets the duration's own message; other text, the forms.
    const looksLikeDuration = /^\s*[0-9]/.test(value);
    return fail(
      `invalid ${field} ${shown}: ${duration.message}${looksLikeDuration ? '' : `; ${BOUND_FORMS}`}`,
    );
  }
  return ok({ duration_secs: durationNanosToSeconds(duration.value) });
}

/** What JP main accepts in place of a bound it refuses (15.4), for messages and quick fixes. */
export interface BoundReplacement {
  /** The value to write instead, as a TOML value. */
  value: string | number;
  /** Why it means the same. */
  reason: string;
}

/**
 * What to write instead of a bound string JP main refuses in a config
 * (15.4): `"last"` → `"last-compaction"`, `keep_first = "@N"` → `N-1`,
 * `"-0"` → `"-1"`. `undefined` when there is no certain replacement
 * (`keep_last = "@N"`: an absolute end has no config spelling).
 */
export function getBoundReplacement(text: string, field: string): BoundReplacement | undefined {
  if (text.toLowerCase() === 'last') {
    return { value: 'last-compaction', reason: '"last" is spelled "last-compaction" in JP main' };
  }
  if (/^-\+?0+$/.test(text)) {
    return { value: '-1', reason: 'from-end offsets are 1-based; "-1" is the last turn' };
  }
  const at = /^@\+?([0-9]+)$/.exec(text);
  if (at !== null && field === 'keep_first') {
    const position = Number(at[1]);
    if (position >= 1 && Number.isSafeInteger(position)) {
      return { value: position - 1, reason: `the count ${position - 1} starts at the same turn` };
    }
  }
  return undefined;
}

/**
 * JP main's bound strings (15.4): `last-compaction` (any case), `"-N"` a
 * position from the end (`from_end(N-1)`), counts, then durations; `"-0"`,
 * `"@N"` and `"last"` are errors that say what to write instead.
 */
function parseMainRuleBound(value: string, field: string): ParseResult<RuleBound> {
  const shown = showValue(value);
  if (value.toLowerCase() === 'last-compaction') return ok({ after_last_compaction: true });
  if (value.startsWith('-')) {
    const position = parseUnsigned(value.slice(1));
    if (position === undefined) {
      return fail(
        `invalid ${field} ${shown}: invalid from-end bound; "-" must be followed by a whole number N ≥ 1, the Nth turn from the end ("-1" is the last turn; durations have no sign)`,
      );
    }
    if (position === 0n) {
      return fail(
        `invalid ${field} ${shown}: from-end offsets are 1-based; use \`-1\` for the last turn`,
      );
    }
    return ok(exactBound('from_end', position - 1n));
  }
  const count = parseUnsigned(value);
  if (count !== undefined) return ok(exactBound('turns', count));
  const duration = parseDuration(value);
  if (duration.ok) return ok({ duration_secs: durationNanosToSeconds(duration.value) });
  const replacement = getBoundReplacement(value, field);
  if (value.toLowerCase() === 'last' || value.startsWith('@')) {
    const instead =
      replacement !== undefined
        ? `write ${typeof replacement.value === 'string' ? `"${replacement.value}"` : replacement.value} (${replacement.reason})`
        : 'an absolute end has no config spelling in JP main: write a turn count, or a "-K" position from the end';
    // JP main's own reason first (it reads the text as a duration), then what to write.
    return fail(
      `invalid ${field} ${shown}: invalid duration '${value}'; JP main no longer reads ${value.startsWith('@') ? '"@N"' : '"last"'} in a config; ${instead}`,
    );
  }
  const looksLikeDuration = /^\s*[0-9]/.test(value);
  return fail(
    `invalid ${field} ${shown}: ${duration.message}${looksLikeDuration ? '' : `; ${MAIN_BOUND_FORMS}`}`,
  );
}

const MAIN_BOUND_FORMS =
  'accepted: a turn count N, "-N" (the Nth turn from the end, "-1" the last), ' +
  '"last-compaction", or a duration such as "5h", "2days" or "1h 30m"';

/**
 * A bound's written form (spec 5, 15.4). Under `2026-08`: `"3"`, `"@2"`,
 * `"-4"`, `"last-compaction"`, or a duration. Under `2026-09` `from_end(n)`
 * is `"-{n+1}"`, and an absolute bound has no config spelling (`undefined`).
 */
export function formatRuleBoundFor(bound: RuleBound, base: JpBase): string | undefined {
  if (base === '2026-09') {
    if ('absolute' in bound) return undefined;
    if ('from_end' in bound) return `-${bound.from_end + 1}`;
  }
  return formatRuleBound(bound);
}

/** A bound's written form under `2026-08` (spec 5): `"3"`, `"@2"`, `"-4"`, `"last-compaction"`, or a duration. */
export function formatRuleBound(bound: RuleBound): string {
  if ('turns' in bound) return String(bound.turns);
  if ('absolute' in bound) return `@${bound.absolute}`;
  if ('from_end' in bound) return `-${bound.from_end}`;
  if ('duration_secs' in bound) return formatDuration(secondsToNanos(bound.duration_secs));
  return 'last-compaction';
}

// --- Rules (spec 5) ---------------------------------------------------------

/** A rule as written: every field that was not set is null (no defaults applied). */
export interface PartialCompactionRule {
  keep_first: RuleBound | null;
  keep_last: RuleBound | null;
  reasoning: 'strip' | null;
  tool_calls: ToolCallsMode | null;
  /** The summary table as written; its presence means the rule summarizes. */
  summary: JsonObject | null;
  /** The reasoning threshold in its written form (15.2), when the rule sets one. */
  reasoning_over?: string;
  /** The tool_calls threshold in its written form (15.2), when the rule sets one. */
  tool_calls_over?: string;
}

/** The keys a rule table uses (others are ignored). */
export const RULE_KEYS: readonly string[] = [
  'keep_first',
  'keep_last',
  'reasoning',
  'tool_calls',
  'summary',
];

/** A field of a rule that could not be read, and why. */
export interface RuleFieldError {
  /** The key inside the rule table, e.g. `keep_first` or `summary.instructions`. */
  field: string;
  message: string;
  /** For a bound JP main refuses: what to write instead, when it is certain (15.4). */
  replacement?: BoundReplacement;
}

/**
 * Reads a rule field by field, so that a caller can place each problem
 * precisely. Fields with errors are left unset in `rule`.
 */
export function readCompactionRule(
  value: JsonObject,
  base: JpBase = DEFAULT_BASE,
): {
  rule: PartialCompactionRule;
  errors: RuleFieldError[];
} {
  const errors: RuleFieldError[] = [];
  const rule: PartialCompactionRule = {
    keep_first: null,
    keep_last: null,
    reasoning: null,
    tool_calls: null,
    summary: null,
  };
  for (const field of ['keep_first', 'keep_last'] as const) {
    const raw = getOwn(value, field);
    if (raw === undefined || raw === null) continue;
    // An integer beyond a double's exact range is read as written (its digits).
    const written = typeof raw === 'number' ? getNumberText(value, field, raw) : undefined;
    const exact = written !== undefined && /^-?[0-9]+$/.test(written) ? BigInt(written) : raw;
    const result = parseRuleBound(exact, field, base);
    if (result.ok) {
      rule[field] = result.value;
      continue;
    }
    const error: RuleFieldError = { field, message: result.message };
    const replacement =
      base === '2026-09' && typeof raw === 'string' ? getBoundReplacement(raw, field) : undefined;
    if (replacement !== undefined) error.replacement = replacement;
    errors.push(error);
  }
  const readPolicy = <M extends string>(
    field: 'reasoning' | 'tool_calls',
    parseMode: (value: unknown) => ParseResult<M>,
  ): PolicySetting<M> | undefined => {
    const raw = getOwn(value, field);
    if (raw === undefined || raw === null) return undefined;
    const result = readPolicySetting(raw, field, parseMode, base);
    if (result.ok) return result.value;
    errors.push({
      field: result.key === null ? field : `${field}.${result.key}`,
      message: result.message,
    });
    return undefined;
  };
  const reasoning = readPolicy('reasoning', parseReasoningMode);
  if (reasoning !== undefined) {
    rule.reasoning = reasoning.mode;
    if (reasoning.over !== null) rule.reasoning_over = formatByteSize(reasoning.over);
  }
  const toolCalls = readPolicy('tool_calls', parseToolCallsMode);
  if (toolCalls !== undefined) {
    rule.tool_calls = toolCalls.mode;
    if (toolCalls.over !== null) rule.tool_calls_over = formatByteSize(toolCalls.over);
  }
  const summary = getOwn(value, 'summary');
  if (summary !== undefined && summary !== null) {
    if (!isJsonObject(summary)) {
      errors.push({
        field: 'summary',
        message: `invalid summary: expected a table (for example [conversation.compaction.rules.summary]), got ${describeType(summary)}`,
      });
    } else {
      // `text` is JP main's verbatim summary (15.4); JP 4c1c39f1 does not read it.
      const textKeys =
        base === '2026-09' ? ['instructions', 'context', 'text'] : ['instructions', 'context'];
      for (const key of textKeys) {
        const text = getOwn(summary, key);
        if (text !== undefined && text !== null && typeof text !== 'string') {
          errors.push({
            field: `summary.${key}`,
            message: `invalid summary.${key}: expected a string, got ${describeType(text)}`,
          });
        }
      }
      rule.summary = summary;
    }
  }
  return { rule, errors };
}

/** Reads one rule as written; unset fields are null. */
export function parseCompactionRule(
  value: unknown,
  base: JpBase = DEFAULT_BASE,
): ParseResult<PartialCompactionRule> {
  if (!isJsonObject(value)) {
    return fail(`invalid compaction rule: expected a table, got ${describeType(value)}`);
  }
  const { rule, errors } = readCompactionRule(value, base);
  if (errors.length > 0) return fail(errors.map((e) => e.message).join('; '));
  return ok(rule);
}

/** A rule in its written JSON form: unset fields omitted, bounds as strings (spec 5). */
export function serializeCompactionRule(
  rule: PartialCompactionRule | CompactionRule,
  base: JpBase = DEFAULT_BASE,
): JsonObject {
  const written: JsonObject = {};
  const bound = (value: RuleBound): JsonValue =>
    formatRuleBoundFor(value, base) ?? formatRuleBound(value);
  if (rule.keep_first) written.keep_first = bound(rule.keep_first);
  if (rule.keep_last) written.keep_last = bound(rule.keep_last);
  const reasoning = writePolicySetting(rule.reasoning, rule.reasoning_over);
  if (reasoning) written.reasoning = reasoning;
  const toolCalls = writePolicySetting(rule.tool_calls, rule.tool_calls_over);
  if (toolCalls) written.tool_calls = toolCalls;
  if (rule.summary) written.summary = rule.summary;
  return written;
}

/** A policy setting as a TOML value: the bare string, or the inline table with its threshold (15.4). */
function tomlPolicy(mode: string, over: string | undefined): string {
  return over === undefined
    ? JSON.stringify(mode)
    : `{ policy = ${JSON.stringify(mode)}, over = ${JSON.stringify(over)} }`;
}

/**
 * The lines of a rule's `[[conversation.compaction.rules]]` table body, as
 * the config reads it under `base` (15.6's quick rule): counts bare, other
 * bounds as strings, thresholds in the table form. Under `2026-09` an
 * absolute start becomes the count of the same start, and an absolute end,
 * which has no config spelling, refuses with JP main's message.
 */
export function writeRuleToml(
  rule: PartialCompactionRule,
  base: JpBase = DEFAULT_BASE,
): ParseResult<string[]> {
  const lines: string[] = [];
  const bound = (field: 'keep_first' | 'keep_last', value: RuleBound): string | undefined => {
    if ('turns' in value) return String(value.turns);
    if (base === '2026-09' && 'absolute' in value) {
      // A 1-based position N starts where the count N-1 does (spec 6.2).
      return field === 'keep_first' ? String(Math.max(value.absolute - 1, 0)) : undefined;
    }
    const written = formatRuleBoundFor(value, base);
    return written === undefined ? undefined : JSON.stringify(written);
  };
  for (const field of ['keep_first', 'keep_last'] as const) {
    const value = rule[field];
    if (value === null) continue;
    const written = bound(field, value);
    if (written === undefined) {
      const n = 'absolute' in value ? value.absolute : 0;
      return fail(
        `absolute turn \`@${n}\` cannot be stored in a config rule; use a turn count, a duration, or a from-end position like \`-3\``,
      );
    }
    lines.push(`${field} = ${written}`);
  }
  if (rule.reasoning) lines.push(`reasoning = ${tomlPolicy(rule.reasoning, rule.reasoning_over)}`);
  if (rule.tool_calls)
    lines.push(`tool_calls = ${tomlPolicy(rule.tool_calls, rule.tool_calls_over)}`);
  if (rule.summary) lines.push('summary = {}');
  return ok(lines);
}

/** The built-in rule used when no layer defines any (spec 5; RFD 064's "3" is not what JP does). */
export function createBuiltinRule(): CompactionRule {
  return {
    keep_first: { turns: 1 },
    keep_last: { turns: 1 },
    reasoning: 'strip',
    tool_calls: 'strip',
    summary: null,
  };
}

/** How a layer's rules join the rules of earlier layers. */
export type MergeStrategy = 'append' | 'prepend' | 'replace';

/** One config layer's `rules`, in either written form (spec 5). */
export interface RulesLayer {
  rules: PartialCompactionRule[];
  strategy: MergeStrategy;
  dedup: boolean;
}

const STRATEGIES: readonly MergeStrategy[] = ['append', 'prepend', 'replace'];

/**
 * Reads a layer's `rules` value: an array of rule tables (appended), or a
 * merge table `{ value = [...], strategy = "append" | "prepend" | "replace",
 * dedup = bool }`.
 */
export function parseRulesLayer(
  value: unknown,
  base: JpBase = DEFAULT_BASE,
): ParseResult<RulesLayer> {
  let items: unknown = value;
  let strategy: MergeStrategy = 'append';
  let dedup = false;
  if (isJsonObject(value)) {
    items = getOwn(value, 'value') ?? [];
    const written = getOwn(value, 'strategy');
    if (written !== undefined && written !== null) {
      if (typeof written !== 'string' || !STRATEGIES.includes(written as MergeStrategy)) {
        return fail(
          `invalid rules strategy ${showValue(written)}: expected one of ${STRATEGIES.join(', ')}${didYouMean(written, STRATEGIES)}`,
        );
      }
      strategy = written as MergeStrategy;
    }
    const writtenDedup = getOwn(value, 'dedup');
    if (writtenDedup !== undefined && writtenDedup !== null) {
      if (typeof writtenDedup !== 'boolean') {
        return fail(
          `invalid rules dedup: expected true or false, got ${describeType(writtenDedup)}`,
        );
      }
      dedup = writtenDedup;
    }
  }
  if (!Array.isArray(items)) {
    return fail(
      `invalid rules: expected an array of rule tables or a merge table { value = [...], strategy = "append" }, got ${describeType(items)}`,
    );
  }
  const rules: PartialCompactionRule[] = [];
  for (const [index, item] of items.entries()) {
    const rule = parseCompactionRule(item, base);
    if (!rule.ok) return fail(`rule ${index + 1}: ${rule.message}`);
    rules.push(rule.value);
  }
  return ok({ rules, strategy, dedup });
}

/** Structural equality of JSON-like values, ignoring object key order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => jsonEqual(item, b[i]))
    );
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
    );
  }
  return false;
}

/**
 * The user rules after layering, before defaults (spec 5): each layer's rules
 * join the earlier ones by its strategy, and `dedup` drops later duplicates.
 * An empty result means the built-in rule applies.
 */
export function mergeRuleLayers(layers: readonly RulesLayer[]): PartialCompactionRule[] {
  let merged: PartialCompactionRule[] = [];
  for (const layer of layers) {
    if (layer.strategy === 'replace') merged = [...layer.rules];
    else if (layer.strategy === 'prepend') merged = [...layer.rules, ...merged];
    else merged = [...merged, ...layer.rules];
    if (layer.dedup) {
      merged = merged.filter(
        (rule, i) => merged.findIndex((other) => jsonEqual(other, rule)) === i,
      );
    }
  }
  return merged;
}

/** A rule with the per-rule defaults applied: unset `keep_first`/`keep_last` become 1. */
export function applyRuleDefaults(rule: PartialCompactionRule): CompactionRule {
  const applied: CompactionRule = {
    keep_first: rule.keep_first ?? { turns: 1 },
    keep_last: rule.keep_last ?? { turns: 1 },
    reasoning: rule.reasoning,
    tool_calls: rule.tool_calls,
    summary: rule.summary,
  };
  if (rule.reasoning_over !== undefined) applied.reasoning_over = rule.reasoning_over;
  if (rule.tool_calls_over !== undefined) applied.tool_calls_over = rule.tool_calls_over;
  return applied;
}

/**
 * The rules in force after layering (spec 5): the merged user rules with
 * per-rule defaults, or the built-in rule when the merged list is empty
 * (`rules = []` does not disable compaction).
 */
export function resolveCompactionRules(layers: readonly RulesLayer[]): CompactionRule[] {
  const merged = mergeRuleLayers(layers);
  if (merged.length === 0) return [createBuiltinRule()];
  return merged.map(applyRuleDefaults);
}

// --- Compaction events (spec 1.3, 10; D17 tool_overrides) -------------------

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
