/**
 * The vocabulary of the peer exports: the hints of a config written as
 * another agent framework's own configuration, tool by tool, with what the
 * framework cannot say and the hint it can say instead.
 */
import type { Amount } from '../counting/report.ts';
import type { ToolHint } from '../types.ts';

/** The frameworks the hints can be exported to. */
export type PeerTargetId =
  | 'anthropic'
  | 'langchain-py'
  | 'langchain-js'
  | 'vercel'
  | 'openai-agents'
  | 'codex'
  | 'claude-code';

/** A tool and the hint that decides what compaction does to it. */
export interface ToolInForce {
  name: string;
  /** Its own or `'*'` hint; for a tool without one, what the rules' `tool_calls` do to it. */
  hint: ToolHint;
  /** Where the hint comes from: the tool's table, the `'*'` defaults, or the rules. */
  source: 'tool' | '*' | 'rule';
  /** How many requests of this tool the stream holds. */
  calls: number;
}

/** One tool as a peer's config carries it. */
export interface ToolMapping {
  name: string;
  hint: ToolHint;
  source: ToolInForce['source'];
  calls: number;
  /** The hint the peer's config gives the tool: `hint` itself when it can say it. */
  nearest: ToolHint;
  expressible: boolean;
  /** "exported as …" or "not expressible in …: nearest is …", one sentence. */
  note: string;
}

/** A peer's configuration for a set of tools. */
export interface PeerConfig {
  target: PeerTargetId;
  /** The peer's name, as the menu shows it. */
  title: string;
  /** The language of the snippet. */
  language: 'json' | 'python' | 'typescript' | 'toml';
  /** The configuration, ready to paste. */
  snippet: string;
  /** One per tool, sorted by name. */
  tools: ToolMapping[];
  /** What holds for the whole config: the peer's own defaults, how its scope differs from JP's rules. */
  notes: string[];
  /** Where the peer documents this configuration. */
  docs: string[];
  /**
   * A runtime's own settings the snippet writes (Codex, Claude Code), each
   * with where it is set and the page that documents it; absent for the
   * frameworks configured per tool.
   */
  settings?: RuntimeSetting[];
}

/** One setting of a runtime's own configuration, as an export writes it. */
export interface RuntimeSetting {
  /** The key or variable, e.g. `tool_output_token_limit`. */
  key: string;
  /** Its value as written. */
  value: string;
  /** What it does, one clause. */
  meaning: string;
  /** Where it is set, e.g. `~/.codex/config.toml`. */
  where: string;
  /** The runtime's page that documents it. */
  doc: string;
}

/** What one config saves: over everything counted, and over the tool calls alone. */
export interface SavedAmounts {
  /** Every provider-visible payload (what the savings table's total shows). */
  total: Amount;
  /** Tool requests and responses only: the part a peer's tool config governs. */
  toolCalls: Amount;
}

/** What compaction saves over the conversation, with the playground's hints and with the peer's. */
export interface PeerSaving {
  /** Tokens of the provider view without any compaction. */
  before: Amount;
  /** Saved by the config as it is. */
  playground: SavedAmounts;
  /** Saved by the same rules with every tool's hint replaced by the peer's nearest. */
  peer: SavedAmounts;
}

/** A peer export with the saving it would give. */
export interface PeerExport extends PeerConfig {
  /** Null when no conversation was given (the CLI without FILE). */
  saving: PeerSaving | null;
}

/** A peer export, or why the inputs could not give one. */
export type PeerExportResult = { ok: true; value: PeerExport } | { ok: false; message: string };
