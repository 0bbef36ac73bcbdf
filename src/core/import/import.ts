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
import { compareCodePoints } from '../json/values.ts';
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
import { checkDocumentDepth } from './source.ts';
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

  let format: ImportFormat;
  let source: ParsedSource;
  let alsoFits: ImportFormat[] = [];
  if (options.from === undefined) {
    const detection = detectFormat(text, options.onProgress);
    if (!detection.ok) return failure(null, detection.diagnostic);
    format = detection.format;
    source = detection.source;
    alsoFits = detection.alsoFits ?? [];
  } else {
    format = options.from;
    if (format === 'jp') return importJp(text, limits);
    source = parseSource(text, options.onProgress);
    // Forced: the whole text is checked, not the first lines detection looks at.
    const reason = checkFormat(format, source, true);
    if (reason !== undefined) {
      const looksLike = recognizeForeign(source);
      return failure(format, {
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 2,
        severity: 'error',
        message: `This text is not a ${IMPORT_FORMAT_LABELS[format]}: ${reason}.${looksLike === undefined ? '' : ` ${looksLike}`}`,
        code: 'import/wrong-format',
      });
    }
  }
  if (format === 'jp') return importJp(text, limits);
  if (source.kind === 'document') {
    const deep = checkDocumentDepth(text);
    if (deep) return failure(format, deep);
  }

  const result = importParsedSource(format, text, source, options.agent);
  noteAlsoFits(result, format, alsoFits);
  const tooMany = result.elements ? checkElementCount(result.elements.length, limits) : undefined;
  if (tooMany) return failure(format, tooMany);
  return result;
}

/** Imports a source already parsed the way its format needs (`text` is the source's, or empty when read in chunks). */
export function importParsedSource(
  format: ImportFormat,
  text: string,
  source: ParsedSource,
  agent?: string,
): ImportResult {
  const lines = source.kind === 'lines' ? source.lines : undefined;
  const document = source.kind === 'document' ? source.document : undefined;
  // A one-line JSON Lines file parsed as one document: its line is line 1.
  const asLines = () =>
    lines ?? { lines: [{ line: 1, value: document?.value ?? null }], diagnostics: [], nonBlank: 1 };
  switch (format) {
    case 'claude-code':
      return importClaudeCode(text, undefined, asLines(), agent === undefined ? {} : { agent });
    case 'codex':
      return importCodex(text, undefined, asLines());
    case 'gemini-cli':
      return document &&
        typeof document.value === 'object' &&
        document.value !== null &&
        'messages' in document.value
        ? importGemini({ document })
        : importGemini({ lines: asLines().lines });
    case 'copilot-cli':
      return importCopilotCli(asLines().lines);
    case 'pi':
      return importPiSession(asLines().lines, 'pi');
    case 'openclaw':
      return importOpenClaw(asLines().lines);
    case 'amp':
      return document && sniffAmpThread(document.value) === undefined
        ? importAmpThread(document)
        : importAmpStream(asLines().lines);
    case 'kimi-cli':
      return importKimiCli(asLines().lines);
    case 'kimi-code':
      return importKimiCode(asLines().lines);
    case 'lhar':
      return document && sniffLharDocument(document.value) === undefined
        ? importLhar({ document })
        : importLhar({ lines: asLines().lines });
    default:
      break;
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

/** Says, first among the notes, which format was read when the text fits others too, and why. */
export function noteAlsoFits(
  result: ImportResult,
  format: ImportFormat,
  alsoFits: readonly ImportFormat[],
): void {
  if (alsoFits.length === 0) return;
  result.notes.unshift({
    code: 'import/also-fits',
    message: describeChoice(format, alsoFits),
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
