/**
 * The app's one store: a vanilla zustand store built from five slices
 * (editor inputs, the run, the UI, sharing, the workspace; their types are
 * in `app-state.ts`, each slice's initial state in its own file). It holds
 * inputs and the last results; everything derived lives in `selectors.ts`,
 * and every change goes through module-level functions (`actions.ts`,
 * `share.ts`, `workspace.ts`), so the worker bridge and tests can use
 * `store.getState()` / `store.setState()` without React.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { AppState } from './app-state.ts';
import { createEditorSlice, initialEditorState } from './editor-slice.ts';
import { createRunSlice, initialRunState } from './run-slice.ts';
import { createShareSlice, initialShareState } from './share-slice.ts';
import { createUiSlice, initialUiState } from './ui-slice.ts';
import { createWorkspaceSlice, initialWorkspaceState } from './workspace-slice.ts';

/** Every slice's initial values together: a fresh page, and the reset between tests. */
export const initialState: AppState = {
  ...initialEditorState,
  ...initialRunState,
  ...initialUiState,
  ...initialShareState,
  ...initialWorkspaceState,
};

/** The store. */
export const store = createStore<AppState>()((...a) => ({
  ...createEditorSlice(...a),
  ...createRunSlice(...a),
  ...createUiSlice(...a),
  ...createShareSlice(...a),
  ...createWorkspaceSlice(...a),
}));

/** Reads from the store in a component; re-renders when the selected value changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(store, selector);
}

/** Puts the store back to `initialState` (tests, and nothing else). */
export function resetStore(): void {
  store.setState(initialState, true);
}
