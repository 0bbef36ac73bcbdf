/**
 * The workspace slice of the store: many conversations opened together
 * (a JP `conversations` folder, or several `events.json` files), their
 * figures, the hint recommendations, and the context budget. Its own module,
 * with no import of `store.ts`, so the store can include it without a cycle;
 * the actions that change it are in `workspace.ts`.
 */
import type { StateCreator } from 'zustand';
import type { Report } from '../core/counting/report.ts';
import type { HintRecommendations } from '../core/playground/recommend.ts';
import type { ToolHintInfo } from '../core/playground/types.ts';
import type { ConversationFigures } from '../worker/shared/workspace-protocol.ts';
import type { AppState } from './store.ts';

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
  conversationRecommendations: RecommendationState;
}

const idleRecommendations: RecommendationState = { status: 'idle', result: null, message: null };

/** A fresh page's workspace state. */
export const initialWorkspaceState: WorkspaceSlice = {
  resultsView: 'conversation',
  workspaceStatus: 'empty',
  workspaceName: null,
  workspaceConversations: [],
  workspaceProgress: { done: 0, total: 0 },
  workspaceReport: null,
  workspaceTools: [],
  workspaceBusy: false,
  workspaceStale: false,
  workspaceMessage: null,
  workspaceSelectedTool: null,
  contextBudget: null,
  workspaceRecommendations: idleRecommendations,
  conversationRecommendations: idleRecommendations,
};

/** Creates the slice (see `store.ts`). */
export const createWorkspaceSlice: StateCreator<AppState, [], [], WorkspaceSlice> = () => ({
  ...initialWorkspaceState,
});
