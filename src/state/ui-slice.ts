/**
 * The store's UI slice: purely visual state (picked rows, theme, toasts,
 * the gallery's examples, whether the editors can mount). Changed by the
 * module-level functions of `actions.ts`.
 */
import type { StateCreator } from 'zustand';
import type { AppState, UiSlice } from './app-state.ts';

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
};

/** Creates the slice (see `store.ts`). */
export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = () => ({
  ...initialUiState,
});
