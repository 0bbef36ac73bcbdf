/**
 * The store's run slice: where the last analysis stands, its result and
 * diagnostics, and what an import brought in. Changed by the module-level
 * functions of `actions.ts` and `large-import.ts`.
 */
import type { StateCreator } from 'zustand';
import type { AppState, RunSlice } from './app-state.ts';

/** The run state of a fresh page: nothing computed yet. */
export const initialRunState: RunSlice = {
  status: 'idle',
  result: null,
  runVersion: 0,
  runInput: null,
  extras: {},
  isStale: true,
  estimatedWhile: null,
  error: null,
  configDiagnostics: [],
  configDiagnosticsText: '',
  streamDiagnostics: [],
  importSummary: null,
  importedStream: null,
  importProgress: null,
  importProgressSeen: false,
};

/** Creates the slice (see `store.ts`). */
export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = () => ({
  ...initialRunState,
});
