/**
 * One way in for every caller that reads a stream (the pipeline, the
 * workspace, the CLI): JP's `events.json` goes to the events codec exactly
 * as before; any other format is imported first. Text that starts like a
 * JSON array but does not parse stays JP's, so a half-typed `events.json`
 * keeps the codec's exact syntax error.
 */
import type { JpBase } from '../config/jp-base.ts';
import { diagnosticAt, hasErrors, LineIndex } from '../diagnostics.ts';
import { NO_STREAM_LIMITS, type StreamLimits } from '../json/limits.ts';
import { skipValue, skipWhitespace } from '../json/scan.ts';
import { isJsonObject } from '../json/values.ts';
import { type ParsedEvents, parseEventsText } from '../stream/codec.ts';
import { classifyElement } from '../stream/turns.ts';
import type { Diagnostic, EncodingSetting, JsonValue, StreamElement } from '../types.ts';
import { detectFormat, sniffJp } from './detect.ts';
import { importTranscript } from './import.ts';
import {
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportResult,
} from './types.ts';

/** A stream read from text in any format. */
export interface AnyStream {
  /** The format read; null when none fits (then `parsed.diagnostics` says why). */
  format: ImportFormat | null;
  /** What the codec would give for the JP events (imported events are plain). */
  parsed: ParsedEvents;
  /** The import, for any format but JP's own. */
  imported?: ImportResult;
}

/** How to read. */
export interface ReadStreamOptions {
  encoding: EncodingSetting;
  /** Force a format instead of detecting it. */
  from?: ImportFormat;
  limits?: StreamLimits;
  /** The reading `base` JP's own events are read under (spec 15.1); JP main by default. */
  base?: JpBase;
  onProgress?: (share: number) => void;
  /** A Claude Code session's inline subagent to read instead of its main conversation. */
  agent?: string;
}

/** Reads a stream in any format the playground reads. */
export function readAnyStream(text: string, options: ReadStreamOptions): AnyStream {
  const limits = options.limits ?? NO_STREAM_LIMITS;
  const jp =
    options.from === 'jp' ||
    // Too long for the limits: the codec refuses it with its own message, unparsed.
    (options.from === undefined && (text.length > limits.maxTextLength || isJpText(text)));
  if (jp) {
    const parsed = parseEventsText(text, options.encoding, limits, options.base);
    const warning = parsed.elements && describeNoConversation(text, parsed.elements, parsed);
    if (warning) parsed.diagnostics.push(warning);
    return { format: 'jp', parsed };
  }
  const imported = importTranscript(text, {
    ...(options.from ? { from: options.from } : {}),
    limits,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  });
  const usable = imported.elements !== undefined && !hasErrorsOnly(imported);
  return {
    format: imported.format,
    parsed: {
      elements: usable ? imported.elements : undefined,
      encoding: 'plain',
      // A malformed item is skipped and the rest is used: for the stream, a warning.
      diagnostics: usable
        ? imported.diagnostics.map((d) =>
            d.severity === 'error' ? { ...d, severity: 'warning' } : d,
          )
        : imported.diagnostics,
      elementOffsets: [],
      elementEnds: [],
    },
    imported,
  };
}

/**
 * A warning for a JP stream that reads but holds no conversation event
 * (`[{"type": "foo"}]`): JP loads it as a conversation with nothing in it,
 * so it is accepted, but it is most likely not the file meant, and every
 * figure would be zero without a word. An empty array is a new
 * conversation, and says nothing.
 */
function describeNoConversation(
  text: string,
  elements: readonly StreamElement[],
  parsed: ParsedEvents,
): Diagnostic | undefined {
  if (elements.length === 0 || elements.some((e) => classifyElement(e) === 'conversation')) {
    return undefined;
  }
  const types = [...new Set(elements.map((element) => JSON.stringify(element.type)))];
  const shown = types.length > 5 ? `${types.slice(0, 5).join(', ')}, …` : types.join(', ');
  const formats = IMPORT_FORMATS.filter((format) => format !== 'jp')
    .map((format) => IMPORT_FORMAT_LABELS[format])
    .join(', ');
  const start = parsed.elementOffsets[0] ?? 0;
  return diagnosticAt(
    new LineIndex(text),
    start,
    start + 1,
    'warning',
    `This file holds no conversation event: ${elements.length === 1 ? 'its one element is not' : `none of its ${elements.length} elements is`} a turn_start, chat_request, chat_response, tool call or inquiry (${types.length === 1 ? 'type' : 'types'} ${shown}). ` +
      'JP reads it as a conversation with nothing in it, so there is nothing to count or compact. ' +
      `The playground reads JP's events.json and the transcripts of ${formats}, detected from their content.`,
    'events/no-conversation',
  );
}

// A foreign transcript with some malformed lines still imports (the rest is
// used); only an import that produced nothing usable counts as failed.
function hasErrorsOnly(imported: ImportResult): boolean {
  return hasErrors(imported.diagnostics) && (imported.elements?.length ?? 0) === 0;
}

/** Whether text is JP's: a JSON array that is not an API transcript, or one that does not parse. */
function isJpText(text: string): boolean {
  const start = skipWhitespace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (text[start] !== '[') return false;
  // Usually the first element settles it, without parsing a large stream twice.
  const first = skipWhitespace(text, start + 1);
  if (text[first] === ']') return true;
  let element: JsonValue | undefined;
  if (text[first] === '{') {
    try {
      element = JSON.parse(text.slice(first, skipValue(text, first))) as JsonValue;
    } catch {
      element = undefined;
    }
    if (element !== undefined && sniffJp([element]).fits) return true;
  }
  const detection = detectFormat(text);
  if (!detection.ok) {
    // API messages no format reads (roles and nothing else) get the import's account of every
    // format it tried, not JP's "element has no type".
    if (isJsonObject(element) && 'role' in element) return false;
    // A known foreign shape (a Gemini checkpoint, a LangChain dump) is refused by name, not read as events.
    return detection.diagnostic.code !== 'import/not-supported';
  }
  return detection.format === 'jp';
}
