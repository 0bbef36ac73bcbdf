/**
 * The store's shape, types only: the five slices (editor inputs, the run,
 * the UI, sharing, the workspace) and the types they share. Slice files,
 * actions and selectors import their types from here rather than from
 * `store.ts`, so no slice depends on the store that includes it (no import
 * loop, type-only ones included).
 */

import type { ExtraName, ExtraValue } from '../core/analyses/extras.ts';
import type { HintRecommendations } from '../core/analyses/recommend.ts';
import type { Readings } from '../core/compaction/readings.ts';
import type { Report } from '../core/counting/report.ts';
import type { TokenizerId } from '../core/counting/tokens.ts';
import type { ImportSummary } from '../core/import/types.ts';
import type { ToolChoice } from '../core/playground/pipeline.ts';
import type { PlaygroundFigures, PlaygroundInput } from '../core/playground/playground.ts';
import type { ReadingChoice, ToolHintInfo, WhatIfGrid } from '../core/playground/types.ts';
import type { FolderMoney } from '../core/replay/folder-money.ts';
import type { PolicyName } from '../core/replay/policies/policies.ts';
import type { ReplayChoice, ScheduleId } from '../core/replay/schedules.ts';
import type { DiffLayout, ShareState } from '../core/share/share-codec.ts';
import type { Diagnostic } from '../core/types.ts';
import type { ConversationFigures } from '../worker/shared/workspace-protocol.ts';

/** Where the run stands: nothing yet, computing, finished, or failed unexpectedly. */
export type RunStatus = 'idle' | 'running' | 'done' | 'error';

/**
 * What the diff pane shows: the whole conversation (policy null), or one
 * request's prompt under JP's schedule (with a tool's what-if hint) or a
 * runtime's policy (issue 41's "request k under anything").
 */
export interface RequestView {
  policy: PolicyName | null;
  /** A runtime policy's `key=value` assignments. */
  set: string[];
  /** JP's schedule, when the policy is `jp`. */
  schedule: ScheduleId;
  /** Under `jp`: one tool's hint replaced, as a cell of the per-tool what-if. */
  toolChoice: ToolChoice | null;
  /** 1-based; null for the last request. */
  request: number | null;
}

/** The colour scheme in use (follows `prefers-color-scheme`). */
export type Theme = 'light' | 'dark';

/** The user's inputs: exactly the fields of `PlaygroundInput`, plus where the stream came from. */
export interface EditorSlice extends PlaygroundInput {
  /** The name of the opened `events.json`, or null when typed or from an example. */
  streamFileName: string | null;
  /** The example last loaded, or null. */
  exampleId: string | null;
  /** D17's readings, every one of them (the rulings unless the user switched one). */
  readings: Readings;
}

/**
 * One extra as the store holds it: for which input version and arguments it
 * was asked, and where it stands. A pane shows `value` only while `version`
 * is the latest run's (`runVersion`): never an extra of another input.
 */
export interface ExtraEntry<K extends ExtraName = ExtraName> {
  version: number;
  /** The arguments it was asked with, as JSON. */
  argsKey: string;
  /** invalid: the input of that version has errors, so there is nothing to show. */
  status: 'running' | 'done' | 'invalid' | 'error';
  value: ExtraValue<K> | null;
  /** Why it failed, when `error`. */
  message: string | null;
}

/** The extras asked for so far, the latest of each. */
export type ExtrasState = { [K in ExtraName]?: ExtraEntry<K> };

/** The run's state. */
export interface RunSlice {
  status: RunStatus;
  /** The last figures computed from valid input; kept while the input is invalid or a run fails. */
  result: PlaygroundFigures | null;
  /** The version of the input of the latest run started (0 before any): the extras' version. */
  runVersion: number;
  /** The input of that run: what the extras are computed from. */
  runInput: PlaygroundInput | null;
  /** The panes' extras (transcripts, what-if grid, …), each for the version it was asked for. */
  extras: ExtrasState;
  /** True when `result` does not describe the current input (pending, invalid, or failed). */
  isStale: boolean;
  /**
   * The tokenizer still counting while `result` holds the run's estimate
   * (characters ÷ 4, `estimateFirst` in actions.ts); null when `result` is
   * counted with the tokenizer asked for.
   */
  estimatedWhile: TokenizerId | null;
  /** What went wrong in the last failed run, as the start of a sentence (see `describeFailure`): an unexpected failure, not an input error. */
  error: string | null;
  /** Diagnostics of the most recent finished run, valid or not. */
  configDiagnostics: Diagnostic[];
  /** The config text `configDiagnostics` were computed from: their quick fixes apply to it only. */
  configDiagnosticsText: string;
  streamDiagnostics: Diagnostic[];
  /** What the last imported transcript brought in (format, turns, calls, skipped), or null. */
  importSummary: ImportSummary | null;
  /**
   * The last import that replaced the stream editor's text: the foreign
   * transcript it read and the JP events it became (the same strings, not
   * copies), or null. An example imported so and left unchanged is still
   * that example: links name it by id, the import summary by its title.
   */
  importedStream: { from: string; to: string } | null;
  /** A long JSON Lines file being read in chunks (bytes so far of its size), or null. */
  importProgress: { name: string; bytesRead: number; total: number } | null;
  /** Whether a progress bar was shown since the page loaded (tests read it: a fast read may show it briefly). */
  importProgressSeen: boolean;
}

/** A queued message for the `aria-live` toast region. */
export interface Toast {
  id: number;
  message: string;
  tone: 'error' | 'info';
}

/** An example as the gallery lists it. */
export interface ExampleSummary {
  id: string;
  title: string;
  /** One sentence: what to look at and what it shows. */
  summary: string;
  /** Attribution, for examples built from someone else's data. */
  credit?: string;
}

/** Purely visual state. */
export interface UiSlice {
  /** The tool picked in a pane (a row of the savings table), or null. */
  selectedTool: string | null;
  /** The transcript entry picked in a pane (`TranscriptEntry.key`), or null. */
  selectedEventKey: string | null;
  theme: Theme;
  toasts: Toast[];
  /** The examples the gallery offers, provided at start-up. */
  examples: ExampleSummary[];
  /** Whether the editor component can mount (its code is loaded lazily). */
  editorsReady: boolean;
  /** Whether the Design questions panel measures the alternative readings (a pipeline pass each). */
  compareReadings: boolean;
  /** Whether the person asked for the conversation's hint recommendations (the pane then keeps them current). */
  recommendAsked: boolean;
  /** The reading the diff pane compares the current "after" view with, or null for before/after. */
  diffReading: ReadingChoice | null;
  /** A lazy part of this build failed to load: the tab is on an older version and should reload. */
  outdatedBuild: boolean;
  /** What the diff pane shows: the whole conversation or one request's prompt. */
  requestView: RequestView;
  /** Whether the header's Advanced settings (encoding, now, view, readings, Compact) are shown. */
  advancedOpen: boolean;
}

/** What the link dialog says: what went wrong with a link or file, and what is shown instead. */
export interface LinkProblem {
  /** The dialog's title, e.g. "This link could not be opened". */
  title: string;
  /** One or two sentences: what happened. */
  what: string;
  /** One sentence: what the playground shows instead. */
  loadedInstead: string;
}

/** Work a link, file or example replaced, which one click brings back. */
export interface RestoreOffer {
  state: ShareState;
  /** True when a link replaced it: Back to an address without a link restores it too. */
  byLink: boolean;
}

/** Whether the last state was saved in this browser, and why not. */
export type AutosaveStatus =
  | { kind: 'on' }
  /** The browser refused to store it (its quota); `chars` is the size that failed. The previous save is kept. */
  | { kind: 'too-large'; chars: number }
  /** The page cannot use IndexedDB at all (a privacy setting, an embedded frame). */
  | { kind: 'unavailable' };

/** Whether the address bar's `#v2/…` follows the state. */
export type AddressStatus =
  | { kind: 'follows' }
  /** The state is too large for a link: the address holds no state. `chars` is its size. */
  | { kind: 'too-large'; chars: number };

/** The share slice. */
export interface ShareSlice {
  /** How the transcript diff lays out before and after; links carry it. */
  diffLayout: DiffLayout;
  /** The cost pane's model or custom prices, schedule and scaling; links carry it. */
  replayChoice: Required<ReplayChoice>;
  /** The link or file problem the dialog shows, or null when it is closed. */
  linkProblem: LinkProblem | null;
  autosave: AutosaveStatus;
  /** When the autosave last finished writing this tab's state (ms), or null before the first. */
  autosavedAt: number | null;
  /** The work a replacement can give back, or null. */
  restoreOffer: RestoreOffer | null;
  address: AddressStatus;
}

/**
 * Where the workspace stands: none open, counting, counted, waiting for a
 * config without errors before counting, cancelled by the user, refused
 * before counting (too large), or stopped by an unexpected failure.
 */
export type WorkspaceStatus =
  | 'empty'
  | 'loading'
  | 'done'
  | 'invalid'
  | 'cancelled'
  | 'refused'
  | 'failed';

/** Which figures the results column shows: the editor's conversation or the workspace. */
export type ResultsView = 'conversation' | 'workspace';

/** One conversation of the workspace. */
export interface WorkspaceConversation {
  /** Its position in the workspace (sorted by path). */
  index: number;
  /** Its folder (relative to what was opened), or the file's name. */
  path: string;
  /**
   * The title in its `metadata.json`, or a session's first user message (a
   * subagent's: its parent's, then its own name), else its folder's or file's name.
   */
  title: string;
  /** The size of its `events.json`. */
  bytes: number;
  status: 'pending' | 'done' | 'failed';
  /** Why it could not be counted, when failed. */
  message: string | null;
  /** Its figures under the current config, once counted. */
  figures: ConversationFigures | null;
}

/** Hint recommendations for one scope (the editor's conversation, or the workspace). */
export interface RecommendationState {
  /** idle: not asked for yet; invalid: the input has errors (see `message`). */
  status: 'idle' | 'running' | 'done' | 'invalid' | 'error';
  /** The last recommendations computed; kept while newer ones are computed. */
  result: HintRecommendations | null;
  /** Why there are none (an input error or a failure), or null. */
  message: string | null;
}

/**
 * The workspace in money (its Cost section): asked for once the figures
 * are in and while the section is in view, for the settings and pricing in
 * `key`; the rows are kept while newer ones are computed.
 */
export interface WorkspaceMoneyState {
  /** idle: not asked for (or the workspace changed since); running: replaying. */
  status: 'idle' | 'running' | 'done' | 'error';
  /** The settings and pricing the figures are (being) computed for; null when idle. */
  key: string | null;
  /** The folder in money, once every conversation is replayed; the last one while recomputing. */
  money: FolderMoney | null;
  /** Conversations replayed (or failed) so far, of those counted. */
  progress: { done: number; total: number };
  /** Counted conversations the replay could not price, with why. */
  failed: { index: number; name: string; message: string }[];
  /** Why there are no figures (a failure), or null. */
  message: string | null;
}

/** The workspace's state. */
export interface WorkspaceSlice {
  resultsView: ResultsView;
  workspaceStatus: WorkspaceStatus;
  /** What was opened: the folder's name or "3 files"; null when none. */
  workspaceName: string | null;
  /** Every conversation, in workspace order. */
  workspaceConversations: WorkspaceConversation[];
  /** Conversations counted (or failed) so far, of all. */
  workspaceProgress: { done: number; total: number };
  /** The figures added up over the counted conversations; null before any. */
  workspaceReport: Report | null;
  /** The hint in force for each tool. */
  workspaceTools: ToolHintInfo[];
  /** True while figures for the current input are being computed (a load or a hint edit). */
  workspaceBusy: boolean;
  /** True when the figures shown do not describe the current input. */
  workspaceStale: boolean;
  /** A message for the workspace view (a refusal, a cancel, a config error), or null. */
  workspaceMessage: { text: string; tone: 'error' | 'info' } | null;
  /** The tool picked in the workspace's savings table, or null. */
  workspaceSelectedTool: string | null;
  /** The context window to compare each conversation with, in tokens; null for none. */
  contextBudget: number | null;
  workspaceRecommendations: RecommendationState;
  /** The what-if grid summed over every conversation, for the current input; null before any. */
  workspaceWhatIf: WhatIfGrid | null;
  workspaceMoney: WorkspaceMoneyState;
}

/** The whole state. */
export type AppState = EditorSlice & RunSlice & UiSlice & ShareSlice & WorkspaceSlice;
