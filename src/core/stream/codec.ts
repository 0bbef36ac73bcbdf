/**
 * The stream folder owns `events.json` as JP reads and writes it (spec 1,
 * 14.3): event types and their classification (turns.ts), validation
 * (validate.ts), the storage base64 (base64.ts, storage.ts), timestamps,
 * writing JP's on-disk shape (write.ts) and sanitizing. This file is its
 * entry point: it reads `events.json` text into elements with exact
 * diagnostics.
 *
 * Elements stay plain JSON objects, so every field and unknown element
 * survives a read/write round trip in its original key order. Nothing here
 * throws on user input: problems come back as diagnostics.
 *
 * Limits: objects with integer-like keys (`"1"`, `"42"`) come back with those
 * keys first, because that is how JavaScript orders object keys, which does
 * not occur in JP's files. Numbers keep their text (number-text.ts); one
 * beyond the double range is refused, as JP refuses it.
 */

import { DEFAULT_BASE, type JpBase } from '../config/jp-base.ts';
import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import { type DuplicateKey, findDuplicateKeys } from '../json/duplicate-keys.ts';
import {
  capDiagnostics,
  checkElementCount,
  checkStreamTextLength,
  describeTooDeepNesting,
  findTooDeepNesting,
  NO_STREAM_LIMITS,
  type StreamLimits,
} from '../json/limits.ts';
import { recordNumberTexts } from '../json/number-text.ts';
import { locateField, scanArrayElements, skipWhitespace } from '../json/scan.ts';
import { findLoneSurrogate } from '../json/surrogates.ts';
import { syntaxDiagnostic } from '../json/syntax-error.ts';
import { describeValue, isJsonObject } from '../json/values.ts';
import type { Diagnostic, Encoding, EncodingSetting, JsonValue, StreamElement } from '../types.ts';
import {
  createMemoizedDecoder,
  decodeStorageWith,
  detectEncodingWith,
  listUndecodedElements,
} from './storage.ts';
import { validateElement } from './validate.ts';

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

/**
 * Parses `events.json` text (spec 1.1): a JSON array of elements. Reports
 * syntax errors and invalid elements (spec 1.3) at their exact line and
 * column, detects the encoding when the setting is `auto` (spec 14.3), and
 * decodes storage values leniently (spec 1.4). Compactions are read by the
 * rules of `base` (15.1). Text beyond `limits`, or
 * nested deeper than JP reads, is refused with one error (limits.ts).
 */
export function parseEventsText(
  text: string,
  setting: EncodingSetting,
  limits: StreamLimits = NO_STREAM_LIMITS,
  base: JpBase = DEFAULT_BASE,
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

  const lone = findLoneSurrogate(text);
  if (lone >= 0) {
    const escaped = text.charCodeAt(lone) === 0x5c;
    return refuse(
      diagnosticAt(
        getLineIndex(),
        lone,
        lone + (escaped ? 6 : 1),
        'error',
        `${escaped ? `The escape ${text.slice(lone, lone + 6)}` : 'This character'} is half of a UTF-16 surrogate pair ` +
          'without its other half. JP refuses the file (serde_json: lone surrogate in hex escape): remove it, or ' +
          'write the whole character.',
        'events/lone-surrogate',
      ),
    );
  }

  // docs/decisions.md, "Duplicate keys": an event's own keys are refused, a nested map's are a warning.
  const duplicates = findDuplicateKeys(text);
  const describeDuplicate = (duplicate: DuplicateKey): Diagnostic => {
    const first = getLineIndex().position(duplicate.firstStart);
    const where = `first at line ${first.line}, column ${first.column}`;
    const key = JSON.stringify(duplicate.key);
    return duplicate.depth === 2
      ? diagnosticAt(
          getLineIndex(),
          duplicate.start,
          duplicate.end,
          'error',
          `This event has the key ${key} twice (${where}). JP refuses such an event (serde: duplicate field), ` +
            'and keeping one value would silently lose the other: remove one of them.',
          'events/duplicate-key',
        )
      : diagnosticAt(
          getLineIndex(),
          duplicate.start,
          duplicate.end,
          'warning',
          `This object has the key ${key} twice (${where}). JP keeps the last value, as the playground does, ` +
            'so the first is lost when the stream is written back: remove the one you do not mean.',
          'events/duplicate-nested-key',
        );
  };
  const duplicateInEvent = duplicates.filter((duplicate) => duplicate.depth === 2);
  if (duplicateInEvent.length > 0) {
    return {
      elements: undefined,
      encoding: fallbackEncoding,
      diagnostics: capDiagnostics(duplicateInEvent.map(describeDuplicate)),
      elementOffsets: [],
      elementEnds: [],
    };
  }

  const outOfRange = recordNumberTexts(text, parsed);
  if (outOfRange.length > 0) {
    return {
      elements: undefined,
      encoding: fallbackEncoding,
      diagnostics: capDiagnostics(
        outOfRange.map((start) => {
          const token = /^[-+.0-9eE]+/.exec(text.slice(start, start + 40))?.[0] ?? '';
          return diagnosticAt(
            getLineIndex(),
            start,
            start + token.length,
            'error',
            `The number ${token.length > 30 ? `${token.slice(0, 30)}…` : token} is beyond the range of a ` +
              '64-bit float (about ±1.8e308), so JP refuses the file (serde_json: number out of range). ' +
              'Write it as a string, or as a smaller number.',
            'events/number-out-of-range',
          );
        }),
      ),
      elementOffsets: [],
      elementEnds: [],
    };
  }

  const { starts, ends } = scanArrayElements(text);
  let diagnostics: Diagnostic[] = [];
  for (let index = 0; index < parsed.length; index++) {
    const issue = validateElement(parsed[index] as JsonValue, index, base);
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
  diagnostics.push(...duplicates.map(describeDuplicate));
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
