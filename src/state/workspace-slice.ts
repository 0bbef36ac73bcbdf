/**
 * The store's workspace slice: many conversations opened together (a JP
 * `conversations` folder, or several `events.json` files), their figures,
 * the hint recommendations, and the context budget. The actions that change
 * it are in `workspace.ts`.
 */
import type { StateCreator } from 'zustand';
import type {
  AppState,
  RecommendationState,
  WorkspaceMoneyState,
  WorkspaceSlice,
} from './app-state.ts';

const idleRecommendations: RecommendationState = { status: 'idle', result: null, message: null };

/** The workspace's money before it is asked for (and again after any change to the workspace). */
export const idleWorkspaceMoney: WorkspaceMoneyState = {
  status: 'idle',
  key: null,
  money: null,
  progress: { done: 0, total: 0 },
  failed: [],
  message: null,
};

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
  workspaceWhatIf: null,
  workspaceMoney: idleWorkspaceMoney,
};

/** Creates the slice (see `store.ts`). */
export const createWorkspaceSlice: StateCreator<AppState, [], [], WorkspaceSlice> = () => ({
  ...initialWorkspaceState,
});
