/**
 * The events codec (spec 1, 14.3): reads `events.json` text into elements
 * with exact diagnostics, validates conversation events and compactions as JP
 * does, decodes and encodes the storage base64, and writes JP's on-disk shape.
 *
 * Elements stay plain JSON objects, so every field and unknown element
 * survives a read/write round trip in its original key order. Nothing here
 * throws on user input: problems come back as diagnostics.
 *
 * Limits: objects with integer-like keys (`"1"`, `"42"`) come back with those
 * keys first, because that is how JavaScript orders object keys; numbers are
 * written in JavaScript's shortest form (`1.0` comes back as `1`). Neither
 * occurs in JP's files.
 */

import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import {
  capDiagnostics,
  checkElementCount,
  checkStreamTextLength,
  describeTooDeepNesting,
  findTooDeepNesting,
  NO_STREAM_LIMITS,
  type StreamLimits,
  skipJsonString,
} from '../json/limits.ts';
import type {
  Diagnostic,
  Encoding,
  EncodingSetting,
  JsonObject,
  JsonValue,
  StreamElement,
} from '../types.ts';
import { decodeBase64Strict, encodeBase64 } from './base64.ts';
import { parseTimestamp } from './timestamp.ts';
import { classifyElement } from './turns.ts';

/** What {@link parseEventsText} returns. */
export interface ParsedEvents {
  /**
   * The elements, storage-decoded when `encoding` is `storage`. `undefined`
   * when the text is not a JSON array or any diagnostic is an error: JP
   * refuses to load such a stream, so nothing downstream should see it.
   */
  elements: StreamElement[] | undefined;
  /** The encoding in use: the setting, or what `auto` detected (spec 14.3). */
  encoding: Encoding;
  /**
   * A syntax error; or one diagnostic per invalid element (error) or unknown
   * type (info), in element order, then at most one note about storage values
   * that stayed undecoded.
   */
  diagnostics: Diagnostic[];
  /** The 0-based UTF-16 offset in the text where each top-level element starts. */
  elementOffsets: number[];
  /** The offset just past each top-level element (parallel to `elementOffsets`). */
  elementEnds: number[];
}

// ---------------------------------------------------------------------------
// Reading

/**
 * Parses `events.json` text (spec 1.1): a JSON array of elements. Reports
 * syntax errors and invalid elements (spec 1.3) at their exact line and
 * column, detects the encoding when the setting is `auto` (spec 14.3), and
 * decodes storage values leniently (spec 1.4). Text beyond `limits`, or
 * nested deeper than JP reads, is refused with one error (limits.ts).
 */
export function parseEventsText(
  text: string,
  setting: EncodingSetting,
  limits: StreamLimits = NO_STREAM_LIMITS,
): ParsedEvents {
  const fallbackEncoding: Encoding = setting === 'auto' ? 'plain' : setting;
  const refuse = (diagnostic: Diagnostic): ParsedEvents => ({
    elements: undefined,
    encoding: fallbackEncoding,
    diagnostics: [diagnostic],
    elementOffsets: [],
    elementEnds: [],
  });
  const tooLong = checkStreamTextLength(text, limits);
  if (tooLong) return refuse(tooLong);
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch (error) {
    return refuse(syntaxDiagnostic(text, error));
  }

  let lineIndex: LineIndex | undefined;
  const getLineIndex = (): LineIndex => {
    lineIndex ??= new LineIndex(text);
    return lineIndex;
  };

  if (!Array.isArray(parsed)) {
    const start = skipWhitespace(text, 0);
    return {
      elements: undefined,
      encoding: fallbackEncoding,
      diagnostics: [
        diagnosticAt(
          getLineIndex(),
          start,
          start + 1,
          'error',
          `The events text is ${describeValue(parsed)}, but events.json holds a JSON array of events. ` +
            'Wrap the events in [ and ].',
          'events/not-array',
        ),
      ],
      elementOffsets: [],
      elementEnds: [],
    };
  }

  const tooMany = checkElementCount(parsed.length, limits);
  if (tooMany) return refuse(tooMany);
  // Before anything recursive (JSON.stringify in counting, structured clone) sees it.
  const tooDeep = findTooDeepNesting(text);
  if (tooDeep !== undefined) {
    return refuse(
      diagnosticAt(
        getLineIndex(),
        tooDeep,
        tooDeep + 1,
        'error',
        describeTooDeepNesting(),
        'events/too-deep',
      ),
    );
  }

  const { starts, ends } = scanArrayElements(text);
  let diagnostics: Diagnostic[] = [];
  for (let index = 0; index < parsed.length; index++) {
    const issue = validateElement(parsed[index] as JsonValue, index);
    if (issue === undefined) continue;
    const elementStart = starts[index] ?? 0;
    const span =
      issue.field === undefined ? undefined : locateField(text, elementStart, issue.field);
    const from = span?.valueStart ?? elementStart;
    const to = span?.valueEnd ?? elementStart + 1;
    diagnostics.push(
      diagnosticAt(getLineIndex(), from, to, issue.severity, issue.message, issue.code),
    );
  }

  // Only objects take part in encoding; a non-object element is already an error above.
  const raw = parsed.filter(isJsonObject);
  const decode = createMemoizedDecoder();
  const encoding = setting === 'auto' ? detectEncodingWith(raw, decode) : setting;
  const hasError = diagnostics.some((d) => d.severity === 'error');
  diagnostics = capDiagnostics(diagnostics);
  if (hasError || raw.length !== parsed.length) {
    return {
      elements: undefined,
      encoding,
      diagnostics,
      elementOffsets: starts,
      elementEnds: ends,
    };
  }
  if (encoding === 'plain') {
    return { elements: raw, encoding, diagnostics, elementOffsets: starts, elementEnds: ends };
  }

  const elements = decodeStorageWith(raw, decode);
  const undecoded = listUndecodedElements(raw, decode);
  if (undecoded.length > 0) {
    const first = undecoded[0] as number;
    const shown = undecoded
      .slice(0, 10)
      .map((i) => `[${i}]`)
      .join(', ');
    const more = undecoded.length > 10 ? `, and ${undecoded.length - 10} more` : '';
    diagnostics.push(
      diagnosticAt(
        getLineIndex(),
        starts[first] ?? 0,
        (starts[first] ?? 0) + 1,
        'info',
        `Some storage values of element${undecoded.length > 1 ? 's' : ''} ${shown}${more} are not strict ` +
          'base64 of UTF-8 text, so they are kept as they are, as JP does; saving in storage form encodes them ' +
          '(spec 1.4). If the stream is plain text, set the encoding to plain.',
        'events/undecoded-values',
      ),
    );
  }
  return { elements, encoding, diagnostics, elementOffsets: starts, elementEnds: ends };
}

// ---------------------------------------------------------------------------
// Validation (spec 1.3)

interface ElementIssue {
  /** The top-level field the problem is in, to point at its value. */
  field?: string;
  message: string;
  code: string;
  severity: 'error' | 'info';
}

const RESPONSE_VARIANTS_HINT = '"message" (a string), "reasoning" (a string) or "data" (any JSON)';

function validateElement(value: JsonValue, index: number): ElementIssue | undefined {
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
  if (kind === 'compaction') return validateCompaction(value, context);

  if ('metadata' in value && !isJsonObject(value.metadata)) {
    return wrongType(context, 'metadata', 'an object', value.metadata);
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
    return wrongType(context, 'timestamp', 'a string such as "2025-07-01 00:00:00.0"', timestamp);
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

function validateCompaction(value: JsonObject, context: string): ElementIssue | undefined {
  return (
    requireField(value, context, 'from_turn', 'a non-negative integer', isTurnIndex) ??
    requireField(value, context, 'to_turn', 'a non-negative integer', isTurnIndex) ??
    optionalField(
      value,
      context,
      'summary',
      'an object such as {"summary": "…"}',
      isSummaryPolicy,
    ) ??
    optionalField(value, context, 'reasoning', 'the string "strip"', (v) => v === 'strip') ??
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
      isToolOverrides,
      false,
    )
  );
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
  return accepts(fieldValue) ? undefined : wrongType(context, field, expected, fieldValue);
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
  return accepts(fieldValue) ? undefined : wrongType(context, field, expected, fieldValue);
}

function wrongType(
  context: string,
  field: string,
  expected: string,
  found: JsonValue,
): ElementIssue {
  return {
    field,
    message: `${context}: "${field}" must be ${expected}, found ${describeValue(found)}.`,
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

function isToolOverrides(value: JsonValue): boolean {
  return isJsonObject(value) && Object.values(value).every(isToolCallPolicy);
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

// ---------------------------------------------------------------------------
// Storage encoding (spec 1.4, 14.3)

/**
 * Replaces every encodable string of a conversation event (spec 1.4) by
 * `transform(string)`. Returns the element itself when nothing changes, a
 * shallow copy with the changed fields otherwise.
 */
function transformStorageValues(
  element: StreamElement,
  transform: (value: string) => string,
): StreamElement {
  if (classifyElement(element) !== 'conversation') return element;
  let result = element;
  const replace = (field: string, next: JsonValue): void => {
    if (next === result[field]) return;
    if (result === element) result = { ...element };
    setOwn(result, field, next);
  };
  if (element.metadata !== undefined) {
    replace('metadata', mapStringLeaves(element.metadata, transform));
  }
  if (element.type === 'tool_call_request' && element.arguments !== undefined) {
    replace('arguments', mapStringLeaves(element.arguments, transform));
  } else if (element.type === 'tool_call_response' && typeof element.content === 'string') {
    replace('content', transform(element.content));
  }
  return result;
}

/** Decodes a storage value, or gives `undefined` when JP would leave it as it is. */
type StrictDecoder = (value: string) => string | undefined;

/**
 * A strict decoder that remembers its answers: reading a file detects,
 * decodes and lists undecoded values, and should decode each value once.
 */
function createMemoizedDecoder(): StrictDecoder {
  const memo = new Map<string, string | undefined>();
  return (value) => {
    if (memo.has(value)) return memo.get(value);
    const decoded = decodeBase64Strict(value);
    memo.set(value, decoded);
    return decoded;
  };
}

function decodeStorageWith(
  elements: readonly StreamElement[],
  decode: StrictDecoder,
): StreamElement[] {
  return elements.map((element) =>
    transformStorageValues(element, (value) => decode(value) ?? value),
  );
}

function detectEncodingWith(elements: readonly StreamElement[], decode: StrictDecoder): Encoding {
  let counted = 0;
  let decodable = 0;
  const visit = (value: string): void => {
    if (value === '') return;
    counted++;
    if (decode(value) !== undefined) decodable++;
  };
  for (const element of elements) forEachStorageValue(element, visit);
  return decodable * 2 > counted ? 'storage' : 'plain';
}

/**
 * The elements with every storage value decoded where JP would decode it:
 * strict base64 whose bytes are UTF-8; anything else stays as it is (spec
 * 1.4). Pure: unchanged elements are shared, changed ones are copied.
 */
export function decodeStorage(elements: readonly StreamElement[]): StreamElement[] {
  return decodeStorageWith(elements, decodeBase64Strict);
}

/**
 * The elements in storage form: every encodable string base64-encoded,
 * whatever happened on read (spec 1.4). For a value that decoded on read this
 * gives back exactly the text read; a value that stayed undecoded is encoded
 * like any plain text. Pure: elements without storage values are shared.
 */
export function encodeStorage(elements: readonly StreamElement[]): StreamElement[] {
  return elements.map((element) => transformStorageValues(element, encodeBase64));
}

/**
 * Detects the encoding of raw elements (spec 14.3): `storage` when more than
 * half of the non-empty encodable leaves decode under the strict rule of 1.4,
 * `plain` otherwise (also when there is none).
 */
export function detectEncoding(elements: readonly StreamElement[]): Encoding {
  return detectEncodingWith(elements, decodeBase64Strict);
}

/** Calls `visit` for every encodable string of a conversation event (spec 1.4). */
function forEachStorageValue(element: StreamElement, visit: (value: string) => void): void {
  if (!isJsonObject(element) || classifyElement(element) !== 'conversation') return;
  if (element.metadata !== undefined) forEachStringLeaf(element.metadata, visit);
  if (element.type === 'tool_call_request' && element.arguments !== undefined) {
    forEachStringLeaf(element.arguments, visit);
  } else if (element.type === 'tool_call_response' && typeof element.content === 'string') {
    visit(element.content);
  }
}

/** Indices of the elements holding at least one storage value JP would not decode. */
function listUndecodedElements(
  elements: readonly StreamElement[],
  decode: StrictDecoder,
): number[] {
  const indices: number[] = [];
  elements.forEach((element, index) => {
    let undecoded = false;
    forEachStorageValue(element, (value) => {
      if (!undecoded && decode(value) === undefined) undecoded = true;
    });
    if (undecoded) indices.push(index);
  });
  return indices;
}

// ---------------------------------------------------------------------------
// Writing

/**
 * JP's on-disk text (spec 1.1): the elements as a JSON array indented by two
 * spaces, with a final newline, in storage form when `encoding` is `storage`.
 * Every element keeps its keys in the order it has. A stream read from a JP
 * file and written back unchanged is byte-identical, except for storage
 * values JP itself would re-encode (spec 1.4).
 */
export function writeEventsText(elements: readonly StreamElement[], encoding: Encoding): string {
  const output = encoding === 'storage' ? encodeStorage(elements) : elements;
  try {
    return `${JSON.stringify(output, null, 2)}\n`;
  } catch {
    // The native serializer recurses and overflows the stack on very deep
    // nesting (a few thousand levels); the iterative one below does not.
    return `${stringifyPretty(output)}\n`;
  }
}

interface PrintFrame {
  /** The container being printed. */
  value: JsonObject | JsonValue[];
  /** Object keys to print, or `undefined` for an array. */
  keys: string[] | undefined;
  next: number;
  indent: string;
}

/**
 * Exactly `JSON.stringify(value, null, 2)`, without recursion: the fallback
 * for nesting too deep for the native serializer.
 */
export function stringifyPretty(root: JsonValue | readonly JsonValue[]): string {
  const parts: string[] = [];
  const open = (
    value: JsonValue | readonly JsonValue[],
    indent: string,
  ): PrintFrame | undefined => {
    if (value === null || typeof value !== 'object') {
      parts.push(scalarText(value));
      return undefined;
    }
    const keys = Array.isArray(value)
      ? undefined
      : Object.keys(value).filter((key) => (value as JsonObject)[key] !== undefined);
    const size = keys === undefined ? (value as JsonValue[]).length : keys.length;
    if (size === 0) {
      parts.push(keys === undefined ? '[]' : '{}');
      return undefined;
    }
    parts.push(keys === undefined ? '[' : '{');
    return { value: value as JsonObject | JsonValue[], keys, next: 0, indent };
  };
  const stack: PrintFrame[] = [];
  const first = open(root, '');
  if (first) stack.push(first);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as PrintFrame;
    const size = frame.keys === undefined ? (frame.value as JsonValue[]).length : frame.keys.length;
    if (frame.next === size) {
      parts.push(`\n${frame.indent}${frame.keys === undefined ? ']' : '}'}`);
      stack.pop();
      continue;
    }
    const inner = `${frame.indent}  `;
    parts.push(frame.next === 0 ? `\n${inner}` : `,\n${inner}`);
    let child: JsonValue | undefined;
    if (frame.keys === undefined) {
      child = (frame.value as JsonValue[])[frame.next];
    } else {
      const key = frame.keys[frame.next] as string;
      parts.push(`${JSON.stringify(key)}: `);
      child = (frame.value as JsonObject)[key];
    }
    frame.next++;
    const childFrame = open(child ?? null, inner);
    if (childFrame) stack.push(childFrame);
  }
  return parts.join('');
}

function scalarText(value: JsonValue): string {
  // JSON.stringify of a scalar cannot recurse; it also maps NaN and Infinity to null.
  return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------------------
// JSON helpers: iterative walks (arguments can nest arbitrarily deep)

/** Whether a JSON value is an object (not an array, not null). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets an own property, even one named `__proto__` (which plain assignment would not create). */
function setOwn(target: JsonObject | JsonValue[], key: string | number, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    (target as Record<string | number, JsonValue>)[key] = value;
  }
}

interface MapFrame {
  source: JsonObject | JsonValue[];
  keys: string[] | undefined;
  next: number;
  copy: JsonObject | JsonValue[] | undefined;
  parent: MapFrame | undefined;
  keyInParent: string | number;
}

/**
 * Applies `transform` to every string leaf of a JSON value (keys excluded).
 * Copy-on-write: containers without a changed leaf are returned as they are.
 */
export function mapStringLeaves(root: JsonValue, transform: (value: string) => string): JsonValue {
  if (typeof root === 'string') return transform(root);
  if (root === null || typeof root !== 'object') return root;
  const frameOf = (
    source: JsonObject | JsonValue[],
    parent: MapFrame | undefined,
    keyInParent: string | number,
  ): MapFrame => ({
    source,
    keys: Array.isArray(source) ? undefined : Object.keys(source),
    next: 0,
    copy: undefined,
    parent,
    keyInParent,
  });
  const writable = (frame: MapFrame): JsonObject | JsonValue[] => {
    frame.copy ??= Array.isArray(frame.source) ? frame.source.slice() : { ...frame.source };
    return frame.copy;
  };
  const stack: MapFrame[] = [frameOf(root, undefined, 0)];
  let result: JsonValue = root;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as MapFrame;
    const size =
      frame.keys === undefined ? (frame.source as JsonValue[]).length : frame.keys.length;
    if (frame.next < size) {
      const key = frame.keys === undefined ? frame.next : (frame.keys[frame.next] as string);
      frame.next++;
      const child = (frame.source as Record<string | number, JsonValue>)[key] as JsonValue;
      if (typeof child === 'string') {
        const next = transform(child);
        if (next !== child) setOwn(writable(frame), key, next);
      } else if (child !== null && typeof child === 'object') {
        stack.push(frameOf(child, frame, key));
      }
      continue;
    }
    stack.pop();
    const done = frame.copy ?? frame.source;
    if (frame.parent === undefined) result = done;
    else if (frame.copy !== undefined) setOwn(writable(frame.parent), frame.keyInParent, done);
  }
  return result;
}

/** Calls `visit` for every string leaf of a JSON value (keys excluded), without recursion. */
export function forEachStringLeaf(root: JsonValue, visit: (value: string) => void): void {
  const pending: JsonValue[] = [root];
  while (pending.length > 0) {
    const value = pending.pop() as JsonValue;
    if (typeof value === 'string') visit(value);
    else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push(value[i] as JsonValue);
    } else if (value !== null && typeof value === 'object') {
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i--) pending.push(values[i] as JsonValue);
    }
  }
}

function describeValue(value: JsonValue | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length <= 40 ? `the string ${JSON.stringify(value)}` : 'a string';
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `the boolean ${value}`;
    default:
      return 'an object';
  }
}

// ---------------------------------------------------------------------------
// Scanning the text for positions. These scanners assume text JSON.parse has
// accepted, except `findSyntaxError`, which runs only when it has not.

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isJsonWhitespace(code: number): boolean {
  return code === SPACE || code === LF || code === CR || code === TAB;
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isJsonWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** The offset just past the well-formed JSON value starting at `start`. */
function skipValue(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return skipJsonString(text, start);
  if (first !== 0x7b && first !== 0x5b) {
    let i = start;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === 0x2c || code === 0x5d || code === 0x7d || isJsonWhitespace(code)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = skipJsonString(text, i);
      continue;
    }
    if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

/** Start and end offsets of each element of the top-level array. */
function scanArrayElements(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = skipWhitespace(text, 0) + 1; // past '['
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length || text.charCodeAt(i) === 0x5d) break;
    starts.push(i);
    i = skipValue(text, i);
    ends.push(i);
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) === 0x2c) i++;
  }
  return { starts, ends };
}

/** Where a top-level field of the object at `objectStart` sits, if it is there. */
function locateField(
  text: string,
  objectStart: number,
  field: string,
): { keyStart: number; valueStart: number; valueEnd: number } | undefined {
  if (text.charCodeAt(objectStart) !== 0x7b) return undefined;
  let i = objectStart + 1;
  let found: { keyStart: number; valueStart: number; valueEnd: number } | undefined;
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length || text.charCodeAt(i) !== QUOTE) return found;
    const keyStart = i;
    const keyEnd = skipJsonString(text, i);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd) + 1; // past ':'
    const valueStart = skipWhitespace(text, i);
    const valueEnd = skipValue(text, valueStart);
    // The last occurrence wins, as in JSON.parse.
    if (key === field) found = { keyStart, valueStart, valueEnd };
    i = skipWhitespace(text, valueEnd);
    if (text.charCodeAt(i) !== 0x2c) return found;
    i++;
  }
}

// ---------------------------------------------------------------------------
// Syntax errors

/** A JSON syntax error: where it is (UTF-16 offset and length) and what to do about it. */
export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

function syntaxDiagnostic(text: string, error: unknown): Diagnostic {
  const problem = findSyntaxError(text) ?? problemFromEngineMessage(text, error);
  return diagnosticAt(
    new LineIndex(text),
    problem.offset,
    problem.offset + problem.length,
    'error',
    problem.message,
    'events/syntax',
  );
}

/** Used only if the scanner below and the engine disagree: trust the engine's position. */
function problemFromEngineMessage(text: string, error: unknown): SyntaxProblem {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Math.min(Number(position[1]), text.length) : 0;
  return { offset, length: 1, message: `The events text is not valid JSON: ${message}` };
}

function describeCharacter(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the text';
  const code = text.charCodeAt(offset);
  if (code === 0xfeff) return 'a byte-order mark (U+FEFF)';
  if (code < 0x20 || code === 0x7f)
    return `the control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
  return `'${String.fromCodePoint(text.codePointAt(offset) ?? code)}'`;
}

/** What the syntax scanner expects next. */
const Expect = {
  /** A value (after ':' or at the top). */
  Value: 0,
  /** An array element or ']' (just after '['). */
  FirstElement: 1,
  /** An array element after ','. */
  NextElement: 2,
  /** A property name or '}' (just after '{'). */
  FirstKey: 3,
  /** A property name after ','. */
  NextKey: 4,
  /** ':' after a property name. */
  Colon: 5,
  /** ',' or a closing bracket after a value. */
  AfterValue: 6,
} as const;
type Expect = (typeof Expect)[keyof typeof Expect];

/**
 * Finds the first JSON syntax error in `text` with a message that says what
 * is wrong and what to do, or `undefined` when the text is well-formed.
 * Iterative, so nesting depth does not matter. Runs only on the error path.
 */
export function findSyntaxError(text: string): SyntaxProblem | undefined {
  const containers: { bracket: '[' | '{'; offset: number }[] = [];
  let state: Expect = Expect.Value;
  let i = skipWhitespace(text, 0);
  if (i >= text.length) {
    return {
      offset: 0,
      length: 0,
      message:
        'The events text is empty. An events file is a JSON array: start with [ and end with ].',
    };
  }
  const unexpected = (expected: string, hint = ''): SyntaxProblem => {
    if (i >= text.length) {
      const open = containers[containers.length - 1];
      const where =
        open === undefined
          ? ''
          : ` (the ${open.bracket === '[' ? 'array' : 'object'} opened at ${lineColumn(text, open.offset)} is not closed)`;
      return {
        offset: text.length,
        length: 0,
        message: `Unexpected end of the text: expected ${expected}${where}.${hint}`,
      };
    }
    return {
      offset: i,
      length: 1,
      message: `Expected ${expected}, found ${describeCharacter(text, i)}.${hint}`,
    };
  };
  for (;;) {
    i = skipWhitespace(text, i);
    const code = i < text.length ? text.charCodeAt(i) : -1;
    switch (state) {
      case Expect.Colon:
        if (code !== 0x3a) return unexpected("':' after the property name");
        i++;
        state = Expect.Value;
        continue;
      case Expect.FirstKey:
      case Expect.NextKey:
        if (code === 0x7d && state === Expect.FirstKey) {
          containers.pop();
          i++;
          state = Expect.AfterValue;
          continue;
        }
        if (code === 0x7d) {
          return unexpected(
            'a property name',
            " JSON allows no comma before '}': remove the trailing comma.",
          );
        }
        if (code !== QUOTE) {
          const hint =
            code === 0x27
              ? ' Property names need double quotes, not single quotes.'
              : ' Property names must be in double quotes.';
          return unexpected(
            state === Expect.FirstKey
              ? "a property name in double quotes or '}'"
              : 'a property name in double quotes',
            hint,
          );
        }
        {
          const problem = scanStringStrict(text, i);
          if (typeof problem !== 'number') return problem;
          i = problem;
        }
        state = Expect.Colon;
        continue;
      case Expect.AfterValue: {
        const open = containers[containers.length - 1];
        if (open === undefined) {
          if (i >= text.length) return undefined;
          return {
            offset: i,
            length: 1,
            message: `Unexpected ${describeCharacter(text, i)} after the end of the JSON value. Remove it, or put everything inside one array.`,
          };
        }
        const close = open.bracket === '[' ? 0x5d : 0x7d;
        if (code === close) {
          containers.pop();
          i++;
          continue;
        }
        if (code === 0x2c) {
          i++;
          state = open.bracket === '[' ? Expect.NextElement : Expect.NextKey;
          continue;
        }
        const what =
          open.bracket === '['
            ? "',' or ']' after the array element"
            : "',' or '}' after the property value";
        const hint =
          code === QUOTE || code === 0x7b || code === 0x5b ? ' A comma is probably missing.' : '';
        return unexpected(what, hint);
      }
      default: {
        // Value, FirstElement, NextElement
        if (i >= text.length) return unexpected('a value');
        if (code === 0x5d && state === Expect.FirstElement) {
          containers.pop();
          i++;
          state = Expect.AfterValue;
          continue;
        }
        if (code === 0x5d && state === Expect.NextElement) {
          return unexpected(
            'a value',
            " JSON allows no comma before ']': remove the trailing comma.",
          );
        }
        if (code === 0x7b || code === 0x5b) {
          containers.push({ bracket: code === 0x7b ? '{' : '[', offset: i });
          i++;
          state = code === 0x7b ? Expect.FirstKey : Expect.FirstElement;
          continue;
        }
        let end: number | SyntaxProblem;
        if (code === QUOTE) end = scanStringStrict(text, i);
        else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) end = scanNumberStrict(text, i);
        else end = scanLiteral(text, i, code);
        if (typeof end !== 'number') return end;
        i = end;
        state = Expect.AfterValue;
      }
    }
  }
}

function lineColumn(text: string, offset: number): string {
  const { line, column } = new LineIndex(text).position(offset);
  return `line ${line}, column ${column}`;
}

/** The offset past the string at `start`, or the problem in it. */
function scanStringStrict(text: string, start: number): number | SyntaxProblem {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i + 1;
    if (code === BACKSLASH) {
      const escaped = text.charCodeAt(i + 1);
      if (escaped === 0x75) {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          return {
            offset: i,
            length: 2,
            message: 'Invalid \\u escape in a string: \\u must be followed by four hex digits.',
          };
        }
        i += 6;
        continue;
      }
      // " \ / b f n r t
      if ([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(escaped)) {
        i += 2;
        continue;
      }
      return {
        offset: i,
        length: 2,
        message: `Invalid escape ${describeCharacter(text, i + 1)} after a backslash in a string. Write a literal backslash as \\\\.`,
      };
    }
    if (code < 0x20) {
      const name =
        code === LF ? 'a line break' : code === TAB ? 'a tab' : describeCharacter(text, i);
      const advice =
        code === LF
          ? ' Write it as \\n.'
          : code === TAB
            ? ' Write it as \\t.'
            : code === CR
              ? ' Write it as \\r.'
              : '';
      return {
        offset: i,
        length: 1,
        message: `A string contains ${name}, which JSON does not allow unescaped (or the string misses its closing quote).${advice}`,
      };
    }
    i++;
  }
  return {
    offset: start,
    length: 1,
    message: `The string starting at ${lineColumn(text, start)} is not closed. Add the closing '"'.`,
  };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function scanNumberStrict(text: string, start: number): number | SyntaxProblem {
  NUMBER.lastIndex = start;
  const match = NUMBER.exec(text);
  let end = match ? start + match[0].length : start;
  // A number must not run straight into more number-like characters (`01`, `1.`, `1e`).
  let after = end;
  while (after < text.length && /[0-9A-Za-z.+-]/.test(text[after] as string)) after++;
  if (match && after === end && match[0] !== '-') return end;
  end = Math.max(after, start + 1);
  return {
    offset: start,
    length: end - start,
    message: `${JSON.stringify(text.slice(start, end))} is not a valid JSON number (no leading zeros, "+", trailing ".", NaN or Infinity).`,
  };
}

function scanLiteral(text: string, start: number, code: number): number | SyntaxProblem {
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, start)) {
      const after = text.charCodeAt(start + literal.length);
      if (Number.isNaN(after) || !/[A-Za-z0-9_]/.test(String.fromCharCode(after))) {
        return start + literal.length;
      }
    }
  }
  if (code === 0x2f && (text[start + 1] === '/' || text[start + 1] === '*')) {
    return {
      offset: start,
      length: 2,
      message: 'JSON does not allow comments. Remove the comment.',
    };
  }
  if (code === 0x27) {
    return {
      offset: start,
      length: 1,
      message: "Expected a JSON value, found ''': strings need double quotes, not single quotes.",
    };
  }
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(start, start + 40));
  if (word) {
    return {
      offset: start,
      length: word[0].length,
      message: `Expected a JSON value, found ${JSON.stringify(word[0])}. Strings need double quotes; the only bare words are true, false and null.`,
    };
  }
  if (start >= text.length) {
    return {
      offset: text.length,
      length: 0,
      message: 'Unexpected end of the text: expected a value.',
    };
  }
  return {
    offset: start,
    length: 1,
    message: `Expected a JSON value (object, array, string, number, true, false or null), found ${describeCharacter(text, start)}.`,
  };
}
