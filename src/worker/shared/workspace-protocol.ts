/**
 * The data between the page and the workspace workers. Types only, used on
 * both threads; the messages are the bridge's (`protocol.ts`) over the
 * workers' handlers (`WorkspaceApi` in `worker-thread/workspace-session.ts`).
 *
 * One script, two roles. A *pool* worker analyses conversations: it is sent
 * a conversation's files (File handles: it reads them itself, so the page
 * never holds or copies a stream) and answers with the conversation's report
 * and hint table, then forgets the stream. The *session* worker holds every
 * conversation's hint table and answers hint edits from them (a lookup per
 * tool), with the aggregated report, per-conversation figures and the hint
 * recommendations. (The conversation in the editor is the playground
 * worker's: its recommendations are one of its extras.)
 */

import type { HintTable } from '../../core/analyses/hint-table.ts';
import type { HintRecommendations } from '../../core/analyses/recommend.ts';
import type { Readings } from '../../core/compaction/readings.ts';
import type { Report } from '../../core/counting/report.ts';
import type { TokenizerId } from '../../core/counting/tokens.ts';
import type { InlineSubagent } from '../../core/import/types.ts';
import type { ToolHintInfo, ViewMode, WhatIfGrid } from '../../core/playground/types.ts';
import type { ConversationMoney } from '../../core/replay/folder-money.ts';
import type { EncodingSetting } from '../../core/types.ts';

/** What the figures are computed for: the config and the run's settings. */
export interface WorkspaceSettings {
  configText: string;
  encoding: EncodingSetting;
  /** An explicit "now", or null for each conversation's default. */
  now: string | null;
  view: ViewMode;
  tokenizer: TokenizerId;
  /**
   * The readings that differ from the rulings, `base` included, as the
   * single conversation's run takes them (`PlaygroundInput.readings`): every
   * stream is read, projected and counted under them. Absent: every ruling.
   */
  readings?: Partial<Readings>;
}

/** One conversation's files. */
export interface ConversationFiles {
  /** Its position in the workspace (sorted by path). */
  index: number;
  /** Its stream: a JP `events.json` or an agent's session file, in any format the importers read. */
  events: Blob;
  /** Its `metadata.json` beside `events.json`, or a subagent's `.meta.json`, when it has one. */
  metadata: Blob | null;
  /** What the file is, which says how `metadata` is read (default `jp-events`). */
  kind?: 'jp-events' | 'session' | 'subagent';
  /** The file's name, for messages (default `events.json`). */
  name?: string;
  /** An inline subagent of this Claude Code session (its `agentId`): count that subagent's conversation. */
  agent?: string;
}

/** A conversation's figures, as the breakdown and the budget bars show them. */
export interface ConversationFigures {
  /** Counted tokens of the provider view without any compaction. */
  before: number;
  /** The same with every compaction, existing and new. */
  after: number;
  /** Per tool: its calls and the tokens its hint saves here. */
  tools: Record<string, { calls: number; saved: number }>;
}

/** A pool worker's answer for one conversation. */
export type AnalyzedConversation =
  | {
      index: number;
      ok: true;
      /**
       * The title in `metadata.json`, an imported session's first user
       * message, or a subagent's description from its `.meta.json`; or null.
       */
      title: string | null;
      report: Report;
      figures: ConversationFigures;
      /** The hint in force for each tool it calls, under the config it was analysed with. */
      tools: ToolHintInfo[];
      table: HintTable;
      /** A session's inline subagents (sidechain lines), each a conversation of its own to count. */
      subagents?: InlineSubagent[];
      /**
       * The exact config and settings `report` was computed for: under a
       * reading where hints interact, the session gives `report` only for
       * these and counts the folder again for any other.
       */
      reportFor: string;
    }
  | {
      index: number;
      ok: false;
      title: string | null;
      /** Why it could not be counted, in one sentence naming line and column. */
      message: string;
    };

/** What the session worker answers for a hint edit. */
export type WorkspaceEvaluation =
  | {
      status: 'ok';
      report: Report;
      tools: ToolHintInfo[];
      conversations: { index: number; figures: ConversationFigures }[];
      recommendations: HintRecommendations | null;
      /** Every tool under each hint choice, summed over the conversations; null with none. */
      whatIf: WhatIfGrid | null;
    }
  /** The tables were computed for other rules, "now", view, tokenizer or readings: a cold run is needed. */
  | { status: 'stale' }
  /** The config has errors: nothing can be computed from it. */
  | { status: 'invalid'; message: string };

/** A pool worker's answer for one conversation in money (the workspace's Cost section). */
export type PricedWorkspaceConversation =
  | { index: number; ok: true; money: ConversationMoney }
  | {
      index: number;
      ok: false;
      /** Why it could not be replayed: its file, or a model or price that does not read. */
      message: string;
    };
