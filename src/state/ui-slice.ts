/**
 * The store's UI slice: purely visual state (picked rows, theme, toasts,
 * the gallery's examples, whether the editors can mount). Changed by the
 * module-level functions of `actions.ts`.
 */
import type { StateCreator } from 'zustand';
import type { AppState, RequestView, UiSlice } from './app-state.ts';

/** The diff pane's default: the whole conversation under JP's compaction. */
export const WHOLE_CONVERSATION: RequestView = {
  policy: null,
  set: [],
  schedule: 'stored',
  toolChoice: null,
  request: null,
};

/** The visual state of a fresh page. */
export const initialUiState: UiSlice = {
  selectedTool: null,
  selectedEventKey: null,
  theme: 'light',
  toasts: [],
  examples: [],
  editorsReady: false,
  compareReadings: false,
  recommendAsked: false,
  diffReading: null,
  outdatedBuild: false,
  requestView: WHOLE_CONVERSATION,
  advancedOpen: false,
};

/** Creates the slice (see `store.ts`). */
export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = () => ({
  ...initialUiState,
});
