/**
 * Which format a transcript is in, from its content alone (never its file
 * name): each format's sniffer says whether the text fits and, when not,
 * why, so a text in no known format gets one message naming every format
 * tried and the reason it did not fit.
 */
import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import { findSyntaxError } from '../json/syntax-error.ts';
import { isJsonObject } from '../json/values.ts';
import { CONVERSATION_EVENT_TYPES } from '../stream/turns.ts';
import type { Diagnostic, JsonValue } from '../types.ts';
import { sniffAmpStream, sniffAmpThread } from './amp.ts';
import { sniffAnthropic } from './anthropic-messages.ts';
import { sniffClaudeCode } from './claude-code.ts';
import { sniffCodex } from './codex.ts';
import { sniffCopilotCli } from './copilot-cli.ts';
import { sniffGeminiDocument, sniffGeminiLines } from './gemini-cli.ts';
import { sniffKimiCli } from './kimi-cli.ts';
import { sniffKimiCode } from './kimi-code.ts';
import { sniffLharDocument, sniffLharLines } from './lhar.ts';
import { sniffOpenAiChat } from './openai-chat.ts';
import { sniffOpenAiResponses } from './openai-responses.ts';
import { sniffOpenClaw, sniffPi } from './openclaw.ts';
import { sniffOpenCode } from './opencode.ts';
import { sniffOtelGenAi } from './otel-genai.ts';
import {
  type JsonDocument,
  type JsonLine,
  type JsonLines,
  readJsonDocument,
  readJsonLines,
} from './source.ts';
import {
  fits,
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  type ImportFormat,
  misfit,
  type Sniffed,
} from './types.ts';
import { recognizeUnsupported } from './unsupported.ts';

/** How many parsed lines of a JSON Lines text the sniffers look at. */
const SNIFF_LINES = 50;

/** How many line shapes {@link findSecondFormat} looks at, each a look at the lines around it. */
const MAX_SHAPES_LOOKED_AT = 1_000;

/** The text, parsed the way its format needs. */
export type ParsedSource =
  | { kind: 'document'; document: JsonDocument }
  | { kind: 'lines'; lines: JsonLines };

/** What detection found. */
export type Detection =
  | {
      ok: true;
      format: ImportFormat;
      source: ParsedSource;
      /** What in the text decided the format (its sniffer's marker), for the import's account. */
      marker: string;
      /** Other formats whose shape the text fits too (the first that fits is read). */
      alsoFits?: ImportFormat[];
    }
  | {
      ok: false;
      /** Every format, with why it did not fit. */
      tried: { format: ImportFormat; reason: string }[];
      /** One error naming each format tried and why it did not fit. */
      diagnostic: Diagnostic;
    };

/** Whether a JSON value is a JP events array: the marker that says so, or the reason not. */
export function sniffJp(value: JsonValue): Sniffed {
  if (!Array.isArray(value)) return misfit('it is not a JSON array');
  if (value.length === 0) return fits('it is an empty JSON array');
  for (const [index, element] of value.entries()) {
    if (!isJsonObject(element)) return misfit(`element ${index + 1} is not an object`);
    if ('role' in element) return misfit(`element ${index + 1} has a "role", as API messages do`);
  }
  const known = value.findIndex((element) => {
    const type = isJsonObject(element) ? element.type : undefined;
    return (
      typeof type === 'string' &&
      (CONVERSATION_EVENT_TYPES.has(type) || type === 'config_delta' || type === 'compaction')
    );
  });
  const type = isJsonObject(value[known]) ? String(value[known].type) : '';
  return known < 0
    ? misfit('no element has a JP event type (turn_start, chat_request, …)')
    : fits(`it is a JSON array of objects, and element ${known + 1} is a JP "${type}" event`);
}

/** `whole`: the format was forced, so every line is looked at, not only the first. */
type Sniff = (source: ParsedSource, whole: boolean) => Sniffed;

function onDocument(sniff: (value: JsonValue) => Sniffed): Sniff {
  return (source) =>
    source.kind === 'document'
      ? sniff(source.document.value)
      : misfit('it is not one JSON document');
}

function onLines(
  sniff: (lines: JsonLines['lines']) => Sniffed,
  window: number | 'own' = SNIFF_LINES,
): Sniff {
  return (source, whole) =>
    source.kind === 'lines'
      ? sniff(whole || window === 'own' ? source.lines.lines : source.lines.lines.slice(0, window))
      : // A one-line JSON Lines file is also one JSON document.
        sniff([{ line: 1, value: source.document.value }]);
}

const SNIFFERS: Readonly<Record<ImportFormat, Sniff>> = {
  jp: onDocument(sniffJp),
  // Claude Code's sniffer keeps its own window, past bookkeeping lines (a resumed session opens with many).
  'claude-code': onLines(sniffClaudeCode, 'own'),
  codex: onLines(sniffCodex),
  'gemini-cli': (source, whole) =>
    source.kind === 'document' &&
    isJsonObject(source.document.value) &&
    'messages' in source.document.value
      ? sniffGeminiDocument(source.document.value)
      : onLines(sniffGeminiLines)(source, whole),
  opencode: onDocument(sniffOpenCode),
  'copilot-cli': onLines(sniffCopilotCli),
  pi: onLines(sniffPi),
  openclaw: onLines(sniffOpenClaw),
  amp: (source, whole) => {
    const thread = source.kind === 'document' ? sniffAmpThread(source.document.value) : undefined;
    return thread?.fits ? thread : onLines(sniffAmpStream)(source, whole);
  },
  'kimi-cli': onLines(sniffKimiCli),
  'kimi-code': onLines(sniffKimiCode),
  lhar: (source, whole) => {
    const document =
      source.kind === 'document' ? sniffLharDocument(source.document.value) : undefined;
    return document?.fits ? document : onLines(sniffLharLines)(source, whole);
  },
  'otel-genai': onDocument(sniffOtelGenAi),
  'openai-chat': onDocument(sniffOpenAiChat),
  'openai-responses': onDocument(sniffOpenAiResponses),
  'anthropic-messages': onDocument(sniffAnthropic),
};

/** Parses a text as one JSON document, or else as JSON Lines. */
export function parseSource(text: string, onProgress?: (share: number) => void): ParsedSource {
  const document = readJsonDocument(text);
  if (document) return { kind: 'document', document };
  return { kind: 'lines', lines: readJsonLines(text, onProgress) };
}

/** Whether `source` fits `format`: the marker that decided it, or the reason not. `whole`: look at every line (a forced format). */
export function checkFormat(format: ImportFormat, source: ParsedSource, whole = false): Sniffed {
  return SNIFFERS[format](source, whole);
}

/** Detects the format of a transcript from its content. */
export function detectFormat(text: string, onProgress?: (share: number) => void): Detection {
  const source = parseSource(text, onProgress);
  if (source.kind === 'lines' && source.lines.lines.length === 0) {
    return { ok: false, tried: [], diagnostic: notJson(text) };
  }
  return detectSourceFormat(source);
}

/** Detects the format of a transcript already parsed (a JSON Lines file read in chunks). */
export function detectSourceFormat(source: ParsedSource): Detection {
  const tried: { format: ImportFormat; reason: string }[] = [];
  let found: { format: ImportFormat; marker: string } | undefined;
  const alsoFits: ImportFormat[] = [];
  for (const format of DETECTION_ORDER) {
    const sniffed = checkFormat(format, source);
    if (sniffed.fits) {
      if (found === undefined) found = { format, marker: sniffed.marker };
      else alsoFits.push(format);
    } else tried.push({ format, reason: sniffed.reason });
  }
  if (found !== undefined) {
    const second = findSecondFormat(source);
    if (second !== undefined) return { ok: false, tried: [], diagnostic: second };
    const detected = { ok: true as const, ...found, source };
    return alsoFits.length > 0 ? { ...detected, alsoFits } : detected;
  }
  // No format fits the whole: two one after the other is the likelier story, and says where.
  const second = findSecondFormat(source);
  if (second !== undefined) return { ok: false, tried, diagnostic: second };
  tried.sort((a, b) => IMPORT_FORMATS.indexOf(a.format) - IMPORT_FORMATS.indexOf(b.format));
  const looksLike = recognizeForeign(source);
  return {
    ok: false,
    tried,
    diagnostic: {
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 2,
      severity: 'error',
      message:
        looksLike ??
        `This text is in none of the formats the playground reads. ${tried
          .map(({ format, reason }) => `${IMPORT_FORMAT_LABELS[format]}: ${reason}`)
          .join('; ')}.`,
      code: looksLike === undefined ? 'import/unknown-format' : 'import/not-supported',
    },
  };
}

/**
 * The refusal of a JSON Lines text whose lines, from some line on, are
 * another format's (`cat a.jsonl b.jsonl`: a Claude Code session followed by
 * a Codex rollout), or undefined when there is none. Read as one format,
 * the other's lines would become notes and its calls vanish; so the file is
 * refused, naming the line where the second format starts, until it is
 * split there. Looked for where a line of a shape not seen before begins
 * (its keys, `type` and `role`): the lines from there must fit a format
 * and not the one the lines before it fit (read with the file's first
 * line, a header where the format has one).
 */
export function findSecondFormat(source: ParsedSource): Diagnostic | undefined {
  if (source.kind !== 'lines') return undefined;
  const lines = source.lines.lines;
  const first = lines[0];
  const shapes = new Set<string>();
  const windowOf = (part: JsonLine[]): ParsedSource => ({
    kind: 'lines',
    lines: { ...source.lines, lines: part },
  });
  for (const [index, { value }] of lines.entries()) {
    if (!isJsonObject(value)) continue;
    const shape = `${Object.keys(value).sort().join(',')}|${String(value.type)}|${String(value.role)}`;
    if (shapes.has(shape)) continue;
    // A real transcript has tens of line shapes; a text with thousands is not worth the look.
    if (shapes.size >= MAX_SHAPES_LOOKED_AT) return undefined;
    shapes.add(shape);
    if (index === 0 || first === undefined) continue;
    const window = windowOf(lines.slice(index, index + SNIFF_LINES));
    const after = findFit(window);
    if (after === undefined) continue;
    const before = findFit(
      windowOf([first, ...lines.slice(Math.max(1, index - SNIFF_LINES + 1), index)]),
    );
    // Where the lines from here fit the format before too, it goes on here.
    if (before === undefined || checkFormat(before.format, window).fits) continue;
    const line = (lines[index] as JsonLine).line;
    return {
      line,
      column: 1,
      endLine: line,
      endColumn: 2,
      severity: 'error',
      message:
        `This file holds two transcripts one after the other: it opens as a ${IMPORT_FORMAT_LABELS[before.format]}, ` +
        `and from line ${line} on it is a ${IMPORT_FORMAT_LABELS[after.format]} (${after.marker}), ` +
        'as `cat a.jsonl b.jsonl` writes. Read as one, the lines of either would be skipped and their tool calls lost, ' +
        `so nothing is read: split the file at line ${line} (\`head -n ${line - 1}\` and \`tail -n +${line}\`) and open each part.`,
      code: 'import/two-formats',
    };
  }
  return undefined;
}

/** The first format in detection's order that `source` fits, with its marker. */
function findFit(source: ParsedSource): { format: ImportFormat; marker: string } | undefined {
  for (const format of DETECTION_ORDER) {
    const sniffed = checkFormat(format, source);
    if (sniffed.fits) return { format, marker: sniffed.marker };
  }
  return undefined;
}

/** Anthropic before Chat Completions: its blocks are what tells the two apart. */
const DETECTION_ORDER: readonly ImportFormat[] = (() => {
  const order: ImportFormat[] = IMPORT_FORMATS.filter((f) => f !== 'anthropic-messages');
  order.splice(order.indexOf('openai-chat'), 0, 'anthropic-messages');
  return order;
})();

/** Why the first format was read when the text fits others too: one sentence for the import notes. */
export function describeChoice(format: ImportFormat, alsoFits: readonly ImportFormat[]): string {
  const others = alsoFits.map((other) => IMPORT_FORMAT_LABELS[other]).join(', ');
  return `This text fits the shape of ${IMPORT_FORMAT_LABELS[format]} and also of ${others}; it is read as ${IMPORT_FORMAT_LABELS[format]}, the first of them in detection's order (${DETECTION_ORDER.join(', ')}: the more particular envelope first). Use --from to read it as another.`;
}

/** What a text in no known format looks like, when its shape is a known agent's or tool's. */
export function recognizeForeign(source: ParsedSource): string | undefined {
  return source.kind === 'document'
    ? recognizeUnsupported([source.document.value], true)
    : recognizeUnsupported(
        source.lines.lines.slice(0, SNIFF_LINES).map((line) => line.value),
        false,
      );
}

/** The error for a text that is neither JSON nor JSON Lines: where its first line breaks. */
function notJson(text: string): Diagnostic {
  const firstLineEnd = text.indexOf('\n');
  const firstLine = firstLineEnd < 0 ? text : text.slice(0, firstLineEnd);
  const problem =
    text.trim() === '' ? undefined : findSyntaxError(firstLine.trim() === '' ? text : firstLine);
  const offset = problem?.offset ?? 0;
  const formats = IMPORT_FORMATS.map((format) => IMPORT_FORMAT_LABELS[format]).join(', ');
  const opensValue = /^\ufeff?\s*[[{]/.test(text);
  if (
    problem !== undefined &&
    opensValue &&
    (firstLineEnd < 0 || offset >= firstLine.trimEnd().length)
  ) {
    // One value that does not parse, or a first line that opens a document the next lines go on with.
    const cut = brokenDocument(text);
    if (cut !== undefined) return cut;
  }
  return diagnosticAt(
    new LineIndex(text),
    offset,
    offset + 1,
    'error',
    text.trim() === ''
      ? `The text is empty. The playground reads ${formats}.`
      : `This text is neither one JSON document nor JSON Lines, so it is in none of the formats the playground reads (${formats}). ${problem?.message.replace(/^The events text /, 'The first line ') ?? ''}`.trim(),
    'import/not-json',
  );
}

/**
 * A text laid out as one JSON document over many lines that does not parse
 * (an export cut while being written): where it really breaks, and the
 * format its opening names, if one does.
 */
function brokenDocument(text: string): Diagnostic | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const problem = findSyntaxError(body);
  if (problem === undefined) return undefined;
  const format = guessDocumentFormat(body);
  const what =
    format === undefined
      ? 'This text is one JSON document that'
      : `This ${IMPORT_FORMAT_LABELS[format]} document (so its opening says)`;
  return diagnosticAt(
    new LineIndex(text),
    problem.offset,
    problem.offset + Math.max(problem.length, 1),
    'error',
    `${what} does not parse, so none of it is read (a document is read whole; only a JSON Lines format skips a line): ` +
      `${problem.message.replace(/^The events text /, 'The document ')} If it was cut while being written, export or copy it again.`,
    'import/not-json',
  );
}

/** The document formats whose opening names them: a key only that format writes near its top. */
const DOCUMENT_OPENINGS: readonly [ImportFormat, RegExp][] = [
  ['otel-genai', /"resourceSpans"\s*:/],
  ['amp', /"id"\s*:\s*"T-[0-9a-f-]+"/i],
  ['lhar', /"lhar"\s*:/],
  ['gemini-cli', /"projectHash"\s*:/],
  ['opencode', /"session_v2"\s*:/],
];

/** How much of a broken document's start {@link guessDocumentFormat} looks at. */
const OPENING_LENGTH = 4096;

/** The format a document's opening names, if one does (for a document that does not parse). */
function guessDocumentFormat(text: string): ImportFormat | undefined {
  const opening = text.slice(0, OPENING_LENGTH);
  return DOCUMENT_OPENINGS.find(([, key]) => key.test(opening))?.[0];
}
