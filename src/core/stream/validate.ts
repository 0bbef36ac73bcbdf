/**
 * Validation of `events.json` elements as JP reads them (spec 1.3): which
 * conversation events and compactions are well-formed, with a message that
 * names the element, the field and what is accepted.
 */

import { DEFAULT_BASE, type JpBase } from '../config/jp-base.ts';
import {
  type ParseResult,
  readStoredReasoning,
  readStoredSummary,
  readStoredToolCalls,
} from '../config/rule-config.ts';
import { getNumberText } from '../json/number-text.ts';
import { describeValue, isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';
import { parseTimestamp } from './timestamp.ts';
import { classifyElement } from './turns.ts';

export interface ElementIssue {
  /** The top-level field the problem is in, to point at its value. */
  field?: string;
  message: string;
  code: string;
  severity: 'error' | 'info';
}

const RESPONSE_VARIANTS_HINT = '"message" (a string), "reasoning" (a string) or "data" (any JSON)';

/**
 * Whether JP reads one element (spec 1.3); `base` chooses the compaction
 * reading rules of 15.1 (`2026-09`: thresholds and summary sources).
 */
export function validateElement(
  value: JsonValue,
  index: number,
  base: JpBase = DEFAULT_BASE,
): ElementIssue | undefined {
  const at = `Element [${index}]`;
  if (!isJsonObject(value)) {
    return {
      message: `${at} is ${describeValue(value)}, but every element of events.json must be an object with a "type".`,
      code: 'events/not-object',
      severity: 'error',
    };
  }
  const type = value.type;
  if (typeof type !== 'string') {
    return {
      field: type === undefined ? undefined : 'type',
      message:
        type === undefined
          ? `${at} has no "type". Every element needs a string type, such as "chat_request".`
          : `${at}: "type" must be a string, found ${describeValue(type)}.`,
      code: type === undefined ? 'events/missing-field' : 'events/wrong-type',
      severity: 'error',
    };
  }
  const kind = classifyElement(value);
  if (kind === 'config_delta') return undefined; // read leniently by JP (spec 1.3)
  if (kind === 'unknown') {
    return {
      field: 'type',
      message: `${at} has the unknown type "${type}": it is kept as it is and ignored, as JP does.`,
      code: 'events/unknown-type',
      severity: 'info',
    };
  }
  const context = `${at} (${type})`;
  const timestampIssue = checkTimestamp(value, context);
  if (timestampIssue) return timestampIssue;
  if (kind === 'compaction') return validateCompaction(value, context, base);

  if ('metadata' in value && !isJsonObject(value.metadata)) {
    return wrongType(context, 'metadata', 'an object', value);
  }
  switch (type) {
    case 'turn_start':
      return undefined;
    case 'chat_request':
      return (
        requireField(value, context, 'content', 'a string', isString) ??
        optionalField(value, context, 'schema', 'an object', isJsonObject) ??
        optionalField(value, context, 'author', 'a string', isString)
      );
    case 'chat_response':
      if (typeof value.message === 'string' || typeof value.reasoning === 'string')
        return undefined;
      if ('data' in value) return undefined;
      return {
        field: 'message' in value ? 'message' : 'reasoning' in value ? 'reasoning' : undefined,
        message: `${context} has none of ${RESPONSE_VARIANTS_HINT}. Add one of them.`,
        code: 'events/invalid-response',
        severity: 'error',
      };
    case 'tool_call_request':
      return (
        requireField(value, context, 'id', 'a string', isString) ??
        requireField(value, context, 'name', 'a string', isString) ??
        optionalField(value, context, 'arguments', 'an object', isJsonObject, false)
      );
    case 'tool_call_response':
      return (
        requireField(value, context, 'id', 'a string', isString) ??
        requireField(value, context, 'content', 'a string', isString) ??
        requireField(value, context, 'is_error', 'a boolean (true or false)', isBoolean)
      );
    case 'inquiry_request':
      return (
        requireField(value, context, 'id', 'a string', isString) ??
        requireField(
          value,
          context,
          'source',
          'an object such as {"source": "tool", "name": "…"} or {"source": "user"}',
          isInquirySource,
        ) ??
        requireField(
          value,
          context,
          'question',
          'an object with a string "text" and an "answer_type" such as {"type": "boolean"}',
          isInquiryQuestion,
        )
      );
    case 'inquiry_response':
      return (
        requireField(value, context, 'id', 'a string', isString) ??
        requireField(value, context, 'answer', 'any JSON value', () => true)
      );
    default:
      return undefined;
  }
}

function checkTimestamp(value: JsonObject, context: string): ElementIssue | undefined {
  const timestamp = value.timestamp;
  if (timestamp === undefined) {
    return {
      message: `${context} has no "timestamp". Add one in JP's form, e.g. "2025-07-01 00:00:00.0" (UTC).`,
      code: 'events/missing-field',
      severity: 'error',
    };
  }
  if (typeof timestamp !== 'string') {
    return wrongType(context, 'timestamp', 'a string such as "2025-07-01 00:00:00.0"', value);
  }
  if (parseTimestamp(timestamp) === undefined) {
    return {
      field: 'timestamp',
      message:
        `${context}: "timestamp" ${JSON.stringify(timestamp)} is not a valid timestamp. ` +
        'JP reads "YYYY-MM-DD HH:MM:SS.f" in UTC (e.g. "2025-07-01 00:00:00.0") or RFC 3339, ' +
        'and every field must be in range.',
      code: 'events/invalid-timestamp',
      severity: 'error',
    };
  }
  return undefined;
}

function validateCompaction(
  value: JsonObject,
  context: string,
  base: JpBase,
): ElementIssue | undefined {
  return (
    validateStoredPolicies(value, context, base) ??
    requireField(value, context, 'from_turn', 'a non-negative integer', isTurnIndex) ??
    requireField(value, context, 'to_turn', 'a non-negative integer', isTurnIndex) ??
    optionalField(
      value,
      context,
      'summary',
      'an object such as {"summary": "…"}',
      isSummaryPolicy,
    ) ??
    (base === '2026-08'
      ? optionalField(value, context, 'reasoning', 'the string "strip"', (v) => v === 'strip')
      : undefined) ??
    optionalField(
      value,
      context,
      'tool_calls',
      'a policy: {"policy": "strip", "request": true|false, "response": true|false} or {"policy": "omit"}',
      isToolCallPolicy,
    ) ??
    optionalField(
      value,
      context,
      'tool_overrides',
      'an object mapping tool names to policies such as {"policy": "omit"}',
      isJsonObject,
      false,
    ) ??
    validateToolOverrideEntries(value.tool_overrides, context)
  );
}

/**
 * The reading rules of 15.1 for `reasoning`, `tool_calls` and `summary`
 * under `2026-09` (thresholds and sources); under `2026-08` they add
 * nothing to the shape checks below. A wrong shape itself is left to those
 * checks, so their messages stay the same under both readings.
 */
function validateStoredPolicies(
  value: JsonObject,
  context: string,
  base: JpBase,
): ElementIssue | undefined {
  if (base === '2026-08') return undefined;
  const check = (field: string, result: ParseResult<unknown>): ElementIssue | undefined =>
    result.ok
      ? undefined
      : {
          field,
          message: `${context}: "${field}" ${result.message}. JP main refuses a stream with this compaction (spec 15.1).`,
          code: 'events/invalid-compaction',
          severity: 'error',
        };
  return (
    check('reasoning', readStoredReasoning(value.reasoning, base)) ??
    (isToolCallPolicy(value.tool_calls)
      ? check('tool_calls', readStoredToolCalls(value.tool_calls, base))
      : undefined) ??
    (isSummaryPolicy(value.summary ?? null)
      ? check('summary', readStoredSummary(value.summary, base))
      : undefined)
  );
}

/** Names the first malformed `tool_overrides` entry: "found an object" alone says nothing. */
function validateToolOverrideEntries(
  overrides: JsonValue | undefined,
  context: string,
): ElementIssue | undefined {
  if (!isJsonObject(overrides)) return undefined;
  for (const [name, policy] of Object.entries(overrides)) {
    if (isToolCallPolicy(policy)) continue;
    return {
      field: 'tool_overrides',
      message: `${context}: the "tool_overrides" entry ${JSON.stringify(name)} must be a policy such as {"policy": "omit"} or {"policy": "strip", "request": true|false, "response": true|false}; ${describePolicyProblem(policy)}.`,
      code: 'events/wrong-type',
      severity: 'error',
    };
  }
  return undefined;
}

/** What is wrong with a value that is not a tool-call policy. */
function describePolicyProblem(policy: JsonValue | undefined): string {
  if (!isJsonObject(policy)) return `found ${describeValue(policy)}`;
  if (policy.policy === undefined) return 'it has no "policy"';
  if (policy.policy !== 'strip' && policy.policy !== 'omit') {
    return `its "policy" is ${describeValue(policy.policy)}, not "strip" or "omit"`;
  }
  const missing = (['request', 'response'] as const).filter((k) => typeof policy[k] !== 'boolean');
  const list = missing.map((k) => `"${k}" is ${describeValue(policy[k])}`).join(' and ');
  return `with "policy": "strip", ${list}; each must be true or false`;
}

function requireField(
  value: JsonObject,
  context: string,
  field: string,
  expected: string,
  accepts: (v: JsonValue) => boolean,
): ElementIssue | undefined {
  const fieldValue = value[field];
  if (fieldValue === undefined) {
    return {
      message: `${context} has no "${field}"; it must be ${expected}.`,
      code: 'events/missing-field',
      severity: 'error',
    };
  }
  return accepts(fieldValue) ? undefined : wrongType(context, field, expected, value);
}

/** An optional field: absent is fine, and so is `null` when JP reads it as an `Option`. */
function optionalField(
  value: JsonObject,
  context: string,
  field: string,
  expected: string,
  accepts: (v: JsonValue) => boolean,
  nullable = true,
): ElementIssue | undefined {
  const fieldValue = value[field];
  if (fieldValue === undefined || (nullable && fieldValue === null)) return undefined;
  return accepts(fieldValue) ? undefined : wrongType(context, field, expected, value);
}

function wrongType(
  context: string,
  field: string,
  expected: string,
  element: JsonObject,
): ElementIssue {
  const found = element[field];
  // A number is quoted as written: 9223372036854775807, not its nearest double.
  const written = typeof found === 'number' ? getNumberText(element, field, found) : undefined;
  const beyond =
    written !== undefined && /^-?[0-9]+$/.test(written)
      ? ` (beyond ${Number.MAX_SAFE_INTEGER}, the largest integer the playground holds exactly)`
      : '';
  return {
    field,
    message: `${context}: "${field}" must be ${expected}, found ${written === undefined ? describeValue(found) : `the number ${written}${beyond}`}.`,
    code: 'events/wrong-type',
    severity: 'error',
  };
}

function isString(value: JsonValue): boolean {
  return typeof value === 'string';
}

function isBoolean(value: JsonValue): boolean {
  return typeof value === 'boolean';
}

function isTurnIndex(value: JsonValue): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isSummaryPolicy(value: JsonValue): boolean {
  return isJsonObject(value) && typeof value.summary === 'string';
}

/** `{"policy":"strip","request":bool,"response":bool}` or `{"policy":"omit"}` (spec 1.3). */
export function isToolCallPolicy(value: JsonValue | undefined): boolean {
  if (!isJsonObject(value)) return false;
  if (value.policy === 'omit') return true;
  return (
    value.policy === 'strip' &&
    typeof value.request === 'boolean' &&
    typeof value.response === 'boolean'
  );
}

const INQUIRY_SOURCES: ReadonlySet<string> = new Set(['tool', 'assistant', 'user', 'other']);
const ANSWER_TYPES: ReadonlySet<string> = new Set(['boolean', 'text', 'select']);

function isInquirySource(value: JsonValue): boolean {
  if (!isJsonObject(value) || typeof value.source !== 'string') return false;
  if (!INQUIRY_SOURCES.has(value.source)) return false;
  const needsName = value.source === 'tool' || value.source === 'other';
  return !needsName || typeof value.name === 'string';
}

function isInquiryQuestion(value: JsonValue): boolean {
  if (!isJsonObject(value) || typeof value.text !== 'string') return false;
  const answerType = value.answer_type;
  if (!isJsonObject(answerType) || typeof answerType.type !== 'string') return false;
  if (!ANSWER_TYPES.has(answerType.type)) return false;
  if (answerType.type !== 'select') return true;
  const options = answerType.options;
  return (
    Array.isArray(options) && options.every((option) => isJsonObject(option) && 'value' in option)
  );
}
