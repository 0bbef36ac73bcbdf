/**
 * The import folder owns reading other agents' transcripts: one module per
 * format (claude-code.ts, codex.ts, gemini-cli.ts, opencode.ts,
 * openai-chat.ts, openai-responses.ts, anthropic-messages.ts), detection
 * from the content (detect.ts), the JP event builder they share
 * (builder.ts), session folders and subagents (sessions.ts) and the chunked
 * reading of long JSON Lines files (chunked-lines.ts).
 *
 * The importers' entry: a transcript's text in, a JP event stream out, in
 * the format detected from the content or the one the caller forces. The
 * result flows through sanitize, compaction, projection and counting as
 * any `events.json` does. Pure; never throws on user input.
 */
import {
  checkElementCount,
  checkStreamTextLength,
  NO_STREAM_LIMITS,
  type StreamLimits,
} from '../json/limits.ts';
import { compareCodePoints, isJsonObject } from '../json/values.ts';
import { parseEventsText } from '../stream/codec.ts';
import { countTurns } from '../stream/turns.ts';
import type { Diagnostic, StreamElement } from '../types.ts';
import { importAmpStream, importAmpThread, sniffAmpThread } from './amp.ts';
import { importAnthropic } from './anthropic-messages.ts';
import { importClaudeCode } from './claude-code.ts';
import { importCodex } from './codex.ts';
import { importCopilotCli } from './copilot-cli.ts';
import {
  checkFormat,
  describeChoice,
  detectFormat,
  findSecondFormat,
  type ParsedSource,
  parseSource,
  recognizeForeign,
} from './detect.ts';
import { importGemini } from './gemini-cli.ts';
import { importKimiCli } from './kimi-cli.ts';
import { importKimiCode } from './kimi-code.ts';
import { importLhar, sniffLharDocument } from './lhar.ts';
import { accountImport, describeImportAccount } from './loss-guard.ts';
import { importOpenAiChat } from './openai-chat.ts';
import { importOpenAiResponses } from './openai-responses.ts';
import { importOpenClaw } from './openclaw.ts';
import { importOpenCode } from './opencode.ts';
import { importOtelGenAi } from './otel-genai.ts';
import { importPiSession } from './pi.ts';
import { checkDocumentDepth, type JsonLines, noteUnreadableLines } from './source.ts';
import {
  IMPORT_FORMAT_LABELS,
  type ImportFormat,
  type ImportResult,
  type ImportSummary,
} from './types.ts';

export * from './types.ts';

/** How to import. */
export interface ImportOptions {
  /** Read the text in this format instead of detecting it. */
  from?: ImportFormat;
  /** The largest source text and event count accepted (the browser's, or none for the CLI). */
  limits?: StreamLimits;
  /** Called now and then with the share of the text read, for progress on long files. */
  onProgress?: (share: number) => void;
  /** A Claude Code session's inline subagent to import instead of its main conversation (`ImportResult.subagents`). */
  agent?: string;
}

function failure(format: ImportFormat | null, diagnostic: Diagnostic): ImportResult {
  return { format, elements: undefined, diagnostics: [diagnostic], notes: [] };
}

/** Imports a transcript in any format the playground reads. */
export function importTranscript(text: string, options: ImportOptions = {}): ImportResult {
  const limits = options.limits ?? NO_STREAM_LIMITS;
  const tooLong = checkStreamTextLength(text, limits);
  if (tooLong) return failure(options.from ?? null, tooLong);

  let chosen: ChosenFormat;
  let source: ParsedSource;
  if (options.from === undefined) {
    const detection = detectFormat(text, options.onProgress);
    if (!detection.ok) return failure(null, detection.diagnostic);
    chosen = detection;
    source = detection.source;
  } else {
    const format = options.from;
    if (format === 'jp') return importJp(text, limits);
    source = parseSource(text, options.onProgress);
    // Forced: the whole text is checked, not the first lines detection looks at.
    const sniffed = checkFormat(format, source, true);
    if (!sniffed.fits) {
      const looksLike = recognizeForeign(source);
      return failure(format, {
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 2,
        severity: 'error',
        message: `This text is not a ${IMPORT_FORMAT_LABELS[format]}: ${sniffed.reason}.${looksLike === undefined ? '' : ` ${looksLike}`}`,
        code: 'import/wrong-format',
      });
    }
    const second = findSecondFormat(source);
    if (second !== undefined) return failure(format, second);
    chosen = { format, marker: `the format was asked for (${format}), and ${sniffed.marker}` };
  }
  const format = chosen.format;
  if (format === 'jp') return importJp(text, limits);
  if (source.kind === 'document') {
    const deep = checkDocumentDepth(text, format);
    if (deep) return failure(format, deep);
  }

  const result = importParsedSource(format, source, options.agent);
  noteChoice(result, chosen);
  const tooMany = result.elements ? checkElementCount(result.elements.length, limits) : undefined;
  if (tooMany) return failure(format, tooMany);
  return result;
}

/**
 * Imports a source already parsed the way its format needs (read whole, or
 * in chunks), with its notes in the order of their first source line (a
 * note about the whole file, with no line, comes first), as a reader goes
 * through the file.
 */
export function importParsedSource(
  format: ImportFormat,
  source: ParsedSource,
  agent?: string,
): ImportResult {
  const result = readParsedSource(format, source, agent);
  // Stable: notes of one line keep the order the import met them in.
  result.notes.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return result;
}

function readParsedSource(
  format: ImportFormat,
  source: ParsedSource,
  agent: string | undefined,
): ImportResult {
  if (source.kind === 'lines' && isLineFormat(format)) {
    const result = importLines(format, source.lines, agent);
    noteUnreadableLines(result, source.lines);
    return result;
  }
  const document = source.kind === 'document' ? source.document : undefined;
  if (document && isLineFormat(format)) {
    // A one-line JSON Lines file parsed as one document: its line is line 1.
    const one: JsonLines = {
      lines: [{ line: 1, value: document.value }],
      diagnostics: [],
      nonBlank: 1,
      unreadable: [],
    };
    switch (format) {
      case 'gemini-cli':
        if (isJsonObject(document.value) && 'messages' in document.value) {
          return importGemini({ document });
        }
        break;
      case 'amp':
        if (sniffAmpThread(document.value).fits) return importAmpThread(document);
        break;
      case 'lhar':
        if (sniffLharDocument(document.value).fits) return importLhar({ document });
        break;
      default:
        break;
    }
    return importLines(format, one, agent);
  }
  if (!document)
    return failure(format, {
      line: 1,
      column: 1,
      severity: 'error',
      message: 'Not one JSON document.',
    });
  switch (format) {
    case 'opencode':
      return importOpenCode(document);
    case 'otel-genai':
      return importOtelGenAi(document);
    case 'openai-chat':
      return importOpenAiChat(document);
    case 'openai-responses':
      return importOpenAiResponses(document);
    case 'anthropic-messages':
      return importAnthropic(document);
    default:
      return failure(format, { line: 1, column: 1, severity: 'error', message: 'Unknown format.' });
  }
}

/** The formats written as JSON Lines (Gemini CLI, Amp and LHAR have a one-document form too). */
const LINE_FORMATS = new Set<ImportFormat>([
  'claude-code',
  'codex',
  'gemini-cli',
  'copilot-cli',
  'pi',
  'openclaw',
  'amp',
  'kimi-cli',
  'kimi-code',
  'lhar',
]);

function isLineFormat(format: ImportFormat): boolean {
  return LINE_FORMATS.has(format);
}

/**
 * Imports JSON Lines in a line format. Every line importer reads the lines
 * `readJsonLines` (source.ts) read, so what an unreadable line costs is told
 * once, by the caller ({@link noteUnreadableLines}), for every format.
 */
function importLines(
  format: ImportFormat,
  read: JsonLines,
  agent: string | undefined,
): ImportResult {
  switch (format) {
    case 'claude-code':
      return importClaudeCode(read, agent === undefined ? {} : { agent });
    case 'codex':
      return importCodex(read);
    case 'gemini-cli':
      return importGemini({ lines: read.lines });
    case 'copilot-cli':
      return importCopilotCli(read.lines);
    case 'pi':
      return importPiSession(read.lines, 'pi');
    case 'openclaw':
      return importOpenClaw(read.lines);
    case 'amp':
      return importAmpStream(read.lines);
    case 'kimi-cli':
      return importKimiCli(read.lines);
    case 'kimi-code':
      return importKimiCode(read.lines);
    case 'lhar':
      return importLhar({ lines: read.lines });
    default:
      return failure(format, { line: 1, column: 1, severity: 'error', message: 'Unknown format.' });
  }
}

/** The format an import reads, and why: detection's marker, or the format asked for. */
export interface ChosenFormat {
  format: ImportFormat;
  /** What decided it, for the import's account ("read as X: <marker>"). */
  marker: string;
  /** Other formats the text fits too (detection reads the first). */
  alsoFits?: readonly ImportFormat[];
}

/**
 * Keeps why the format was read on the result, and says, first among the
 * notes, which format was read when the text fits others too.
 */
export function noteChoice(result: ImportResult, chosen: ChosenFormat): void {
  result.readBecause = chosen.marker;
  const alsoFits = chosen.alsoFits ?? [];
  if (alsoFits.length === 0) return;
  result.notes.unshift({
    code: 'import/also-fits',
    message: describeChoice(chosen.format, alsoFits),
    count: 1,
  });
}

/** JP's own events.json: read by the events codec, unchanged. */
function importJp(text: string, limits: StreamLimits): ImportResult {
  const parsed = parseEventsText(text, 'auto', limits);
  return {
    format: 'jp',
    elements: parsed.elements,
    diagnostics: parsed.diagnostics,
    notes: [],
  };
}

/** The figures of an import summary: format, turns, calls per tool, notes. */
export function summarizeImport(result: ImportResult): ImportSummary {
  const elements: readonly StreamElement[] = result.elements ?? [];
  const calls = new Map<string, number>();
  for (const element of elements) {
    if (element.type === 'tool_call_request' && typeof element.name === 'string') {
      calls.set(element.name, (calls.get(element.name) ?? 0) + 1);
    }
  }
  return {
    format: result.format,
    turns: countTurns(elements),
    toolCalls: [...calls.entries()]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([name, count]) => ({ name, calls: count })),
    notes: result.notes,
    errors: result.diagnostics.filter((d) => d.severity === 'error').length,
    account: describeImportAccount(result, accountImport(result)),
  };
}
