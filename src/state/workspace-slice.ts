/**
 * The store's workspace slice: many conversations opened together (a JP
 * `conversations` folder, or several `events.json` files), their figures,
 * the hint recommendations, and the context budget. The actions that change
 * it are in `workspace.ts`.
 */
import type { StateCreator } from 'zustand';
import type { AppState, RecommendationState, WorkspaceSlice } from './app-state.ts';

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
  workspaceWhatIf: null,
};

/** Creates the slice (see `store.ts`). */
export const createWorkspaceSlice: StateCreator<AppState, [], [], WorkspaceSlice> = () => ({
  ...initialWorkspaceState,
});
