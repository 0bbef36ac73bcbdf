/**
 * The vocabulary of the importers: which foreign transcript formats exist,
 * what an import returns, and the notes that say what could not be mapped.
 * Every value is plain data, so it crosses `postMessage` unchanged.
 */
import type { Diagnostic, StreamElement } from '../types.ts';

/** The transcript formats the importers read, JP's own included. */
export type ImportFormat =
  | 'jp'
  | 'claude-code'
  | 'codex'
  | 'gemini-cli'
  | 'opencode'
  | 'copilot-cli'
  | 'pi'
  | 'openclaw'
  | 'amp'
  | 'kimi-cli'
  | 'kimi-code'
  | 'lhar'
  | 'otel-genai'
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages';

/** Every format, in the order detection tries them. */
export const IMPORT_FORMATS: readonly ImportFormat[] = [
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
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
];

/** What a person calls each format. */
export const IMPORT_FORMAT_LABELS: Readonly<Record<ImportFormat, string>> = {
  jp: 'JP events.json',
  'claude-code': 'Claude Code session (JSONL)',
  codex: 'Codex CLI rollout (JSONL)',
  'gemini-cli': 'Gemini CLI session',
  opencode: 'OpenCode session export',
  'copilot-cli': 'GitHub Copilot CLI events.jsonl',
  pi: 'Pi coding agent session (JSONL)',
  openclaw: 'OpenClaw session (JSONL)',
  amp: 'Amp thread (export or --stream-json)',
  'kimi-cli': 'Kimi CLI context.jsonl',
  'kimi-code': 'Kimi Code wire.jsonl',
  lhar: 'Context Lens LHAR recording',
  'otel-genai': 'OpenTelemetry GenAI spans (OTLP/JSON)',
  'openai-chat': 'OpenAI Chat Completions messages',
  'openai-responses': 'OpenAI Responses input items',
  'anthropic-messages': 'Anthropic Messages',
};

/** Whether a string names a format (for `--from` and share links). */
export function isImportFormat(value: unknown): value is ImportFormat {
  return typeof value === 'string' && (IMPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * A sniffer's answer on whether a text is in its format: when it fits, the
 * marker in the text that decided it (the import's account says "read as X:
 * <marker>"); when not, why not (the error that names every format tried).
 */
export type Sniffed = { fits: true; marker: string } | { fits: false; reason: string };

/** The text fits: `marker` says what in it decided so. */
export function fits(marker: string): Sniffed {
  return { fits: true, marker };
}

/** The text does not fit, for `reason`. */
export function misfit(reason: string): Sniffed {
  return { fits: false, reason };
}

/**
 * Something in the source that did not become an event, or became one in a
 * way worth knowing: an image block, an encrypted reasoning item, a sidechain
 * line. Notes of one kind are grouped: `count` items, the first at `line`.
 */
export interface ImportNote {
  /** A stable identifier, e.g. `claude-code/sidechain`. */
  code: string;
  /** One sentence a person can read: what was skipped or changed, and why. */
  message: string;
  /** How many source items this note stands for. */
  count: number;
  /** The 1-based line of the first of them, when the source has lines. */
  line?: number;
  /**
   * How many tool calls of the source this note accounts for: calls the
   * import left out (or counted once though the source repeats them). The
   * loss guard adds them up; absent means none.
   */
  calls?: number;
}

/** A subagent whose conversation Claude Code wrote into its parent's file (`isSidechain` lines). */
export interface InlineSubagent {
  /** The `agentId` of its lines, or a name made from its first line when they have none. */
  agentId: string;
  /** How many lines it has. */
  lines: number;
  /** How many tool calls it made (distinct ids). */
  calls: number;
  /** The 1-based line of its first line. */
  line: number;
}

/** What importing one transcript gives. */
export interface ImportResult {
  /** The format read (detected, or forced with `from`); null when none fits. */
  format: ImportFormat | null;
  /**
   * The JP elements, plain (not storage-encoded); `undefined` when the text
   * could not be read in that format at all (then `diagnostics` says why).
   */
  elements: StreamElement[] | undefined;
  /** Malformed items (errors) with their line and column; the rest still imports. */
  diagnostics: Diagnostic[];
  /** What was skipped or changed, grouped by kind. */
  notes: ImportNote[];
  /** A title for the conversation: the first user message, shortened. */
  title?: string;
  /** Subagents written into this file, each a conversation of its own (import one with `agent`). */
  subagents?: InlineSubagent[];
  /** How many distinct tool calls the source holds, when the importer counts them (the loss guard's figure). */
  sourceCalls?: number;
  /** Why the text was read in `format`: the marker detection found, or that the format was asked for. */
  readBecause?: string;
}

/** The figures an import summary shows. */
export interface ImportSummary {
  format: ImportFormat | null;
  turns: number;
  /** Tool calls per recorded tool name, sorted by name. */
  toolCalls: { name: string; calls: number }[];
  notes: ImportNote[];
  /** How many malformed items were reported. */
  errors: number;
  /** The loss guard's line: the calls from the file to the report, and what was skipped (loss-guard.ts). */
  account?: string;
}
