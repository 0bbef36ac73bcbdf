/**
 * The registry of import formats: one entry per format, in the order
 * detection tries them (the more particular envelope first: Anthropic's
 * blocks before Chat Completions' messages). Everything the import knows
 * about a format derives from its entry: the `ImportFormat` ids, the label,
 * detection, whether it is read as JSON Lines or as one document, and the
 * runtime policy the replay opens a file of it on. Adding a format is one
 * entry here and its importer module.
 */
import { importAmpStream, importAmpThread, sniffAmpStream, sniffAmpThread } from './amp.ts';
import { importAnthropic, sniffAnthropic } from './anthropic-messages.ts';
import { importClaudeCode, sniffClaudeCode } from './claude-code.ts';
import { importCodex, sniffCodex } from './codex.ts';
import { importCopilotCli, sniffCopilotCli } from './copilot-cli.ts';
import { importGemini, sniffGeminiDocument, sniffGeminiLines } from './gemini-cli.ts';
import { importKimiCli, sniffKimiCli } from './kimi-cli.ts';
import { importKimiCode, sniffKimiCode } from './kimi-code.ts';
import { importLhar, sniffLharDocument, sniffLharLines } from './lhar.ts';
import { importOpenAiChat, sniffOpenAiChat } from './openai-chat.ts';
import { importOpenAiResponses, sniffOpenAiResponses } from './openai-responses.ts';
import { importOpenClaw, sniffOpenClaw, sniffPi } from './openclaw.ts';
import { importOpenCode, sniffOpenCode } from './opencode.ts';
import { importOtelGenAi, sniffOtelGenAi } from './otel-genai.ts';
import { importPiSession } from './pi.ts';
import { onDocument, onDocumentOrLines, onLines, type Sniff, sniffJp } from './sniff.ts';
import type { JsonDocument, JsonLines } from './source.ts';
import type { ImportFormat, ImportResult } from './types.ts';

/** One import format. */
export interface ImportFormatEntry {
  /** Its id: `--from`, share links, note codes. */
  readonly id: string;
  /** What a person calls it. */
  readonly label: string;
  /** Whether a parsed text fits it; `whole`: every line is looked at (a forced format). */
  readonly sniff: Sniff;
  /**
   * Reads it from JSON Lines; present for the formats written as JSON Lines.
   * `agent`: an inline subagent to read instead of the main conversation.
   */
  readonly readLines?: (read: JsonLines, agent: string | undefined) => ImportResult;
  /** Whether its files hold inline subagents that `agent` (`--agent`) can name. */
  readonly inlineSubagents?: boolean;
  /**
   * Reads it from one JSON document. For a line format, its one-document
   * form when it has one: `undefined` when the document is not that form
   * (it is then read as the file's one line).
   */
  readonly readDocument?: (document: JsonDocument) => ImportResult | undefined;
  /**
   * For a document format, a key only it writes near its top: a document
   * that does not parse (cut while written) is named by it in the error.
   */
  readonly opening?: RegExp;
  /** The runtime policy (replay/policies) the page replays a file of it under; none: JP's own. */
  readonly runtimePolicy?: string;
}

/**
 * Every format's id, in the order detection tries them: the more particular
 * envelope first (Anthropic's content blocks before Chat Completions'
 * messages). Its entry below says the rest.
 */
export const IMPORT_FORMATS = [
  'jp',
  'claude-code',
  'codex',
  'gemini-cli',
  'opencode',
  'copilot-cli',
  'pi',
  'openclaw',
  'amp',
  'kimi-cli',
  'kimi-code',
  'lhar',
  'otel-genai',
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
] as const;

declare module './types.ts' {
  // The ids reach the shared types (ImportFormat, ImportResult.format) from here.
  interface ImportFormatIds extends Record<(typeof IMPORT_FORMATS)[number], true> {}
}

/** Each format's entry. */
const REGISTRY: Readonly<Record<ImportFormat, Omit<ImportFormatEntry, 'id'>>> = {
  // JP's own events.json is read by the events codec (import.ts), not by an importer.
  jp: { label: 'JP events.json', sniff: onDocument(sniffJp) },
  'claude-code': {
    label: 'Claude Code session (JSONL)',
    // Claude Code's sniffer keeps its own window, past bookkeeping lines (a resumed session opens with many).
    sniff: onLines(sniffClaudeCode, 'own'),
    readLines: (read, agent) => importClaudeCode(read, agent === undefined ? {} : { agent }),
    inlineSubagents: true,
    runtimePolicy: 'claude-code',
  },
  codex: {
    label: 'Codex CLI rollout (JSONL)',
    sniff: onLines(sniffCodex),
    readLines: (read) => importCodex(read),
    runtimePolicy: 'codex',
  },
  'gemini-cli': {
    label: 'Gemini CLI session',
    sniff: (source, whole) =>
      isGeminiDocument(source.kind === 'document' ? source.document : undefined)
        ? sniffGeminiDocument(source.kind === 'document' ? source.document.value : null)
        : onLines(sniffGeminiLines)(source, whole),
    readLines: (read) => importGemini({ lines: read.lines }),
    readDocument: (document) =>
      isGeminiDocument(document) ? importGemini({ document }) : undefined,
    runtimePolicy: 'gemini-cli',
    opening: /"projectHash"\s*:/,
  },
  opencode: {
    label: 'OpenCode session export',
    sniff: onDocument(sniffOpenCode),
    readDocument: importOpenCode,
    opening: /"session_v2"\s*:/,
  },
  'copilot-cli': {
    label: 'GitHub Copilot CLI events.jsonl',
    sniff: onLines(sniffCopilotCli),
    readLines: (read) => importCopilotCli(read.lines),
  },
  pi: {
    label: 'Pi coding agent session (JSONL)',
    sniff: onLines(sniffPi),
    readLines: (read) => importPiSession(read.lines, 'pi'),
  },
  openclaw: {
    label: 'OpenClaw session (JSONL)',
    sniff: onLines(sniffOpenClaw),
    readLines: (read) => importOpenClaw(read.lines),
  },
  amp: {
    label: 'Amp thread (export or --stream-json)',
    sniff: onDocumentOrLines(sniffAmpThread, sniffAmpStream),
    readLines: (read) => importAmpStream(read.lines),
    readDocument: (document) =>
      sniffAmpThread(document.value).fits ? importAmpThread(document) : undefined,
    opening: /"id"\s*:\s*"T-[0-9a-f-]+"/i,
  },
  'kimi-cli': {
    label: 'Kimi CLI context.jsonl',
    sniff: onLines(sniffKimiCli),
    readLines: (read) => importKimiCli(read.lines),
  },
  'kimi-code': {
    label: 'Kimi Code wire.jsonl',
    sniff: onLines(sniffKimiCode),
    readLines: (read) => importKimiCode(read.lines),
  },
  lhar: {
    label: 'Context Lens LHAR recording',
    sniff: onDocumentOrLines(sniffLharDocument, sniffLharLines),
    readLines: (read) => importLhar({ lines: read.lines }),
    readDocument: (document) =>
      sniffLharDocument(document.value).fits ? importLhar({ document }) : undefined,
    opening: /"lhar"\s*:/,
  },
  'otel-genai': {
    label: 'OpenTelemetry GenAI spans (OTLP/JSON)',
    sniff: onDocument(sniffOtelGenAi),
    readDocument: importOtelGenAi,
    opening: /"resourceSpans"\s*:/,
  },
  // Before Chat Completions: its content blocks are what tells the two apart.
  'anthropic-messages': {
    label: 'Anthropic Messages',
    sniff: onDocument(sniffAnthropic),
    readDocument: importAnthropic,
    runtimePolicy: 'anthropic-context-editing',
  },
  'openai-chat': {
    label: 'OpenAI Chat Completions messages',
    sniff: onDocument(sniffOpenAiChat),
    readDocument: importOpenAiChat,
    // Chat and Responses bodies are what the OpenAI Agents SDK sends.
    runtimePolicy: 'openai-agents',
  },
  'openai-responses': {
    label: 'OpenAI Responses input items',
    sniff: onDocument(sniffOpenAiResponses),
    readDocument: importOpenAiResponses,
    runtimePolicy: 'openai-agents',
  },
};

function isGeminiDocument(document: JsonDocument | undefined): document is JsonDocument {
  const value = document?.value;
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && 'messages' in value
  );
}

const BY_ID: ReadonlyMap<string, ImportFormatEntry> = new Map(
  IMPORT_FORMATS.map((id) => [id, { id, ...REGISTRY[id] }]),
);

/** A format's entry. */
export function getImportFormat(format: ImportFormat): ImportFormatEntry {
  return BY_ID.get(format) as ImportFormatEntry;
}

/** What a person calls each format. */
export const IMPORT_FORMAT_LABELS: Readonly<Record<ImportFormat, string>> = Object.fromEntries(
  IMPORT_FORMATS.map((id) => [id, REGISTRY[id].label]),
) as Record<ImportFormat, string>;

/** Whether a string names a format (for `--from` and share links). */
export function isImportFormat(value: unknown): value is ImportFormat {
  return typeof value === 'string' && BY_ID.has(value);
}

/** Whether a format is written as JSON Lines (Gemini CLI, Amp and LHAR have a one-document form too). */
export function isLineFormat(format: ImportFormat): boolean {
  return getImportFormat(format).readLines !== undefined;
}
