/**
 * The app's one store: a vanilla zustand store built from three slices
 * (editor inputs, the run, the UI). It holds inputs and the last results;
 * everything derived lives in `selectors.ts`, and every change goes through
 * the module-level functions of `actions.ts`, so the worker bridge and tests
 * can use `store.getState()` / `store.setState()` without React.
 */
import type { StateCreator } from 'zustand';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { DEFAULT_READINGS, type Readings } from '../core/compaction/readings.ts';
import type { ImportSummary } from '../core/import/types.ts';
import type { PlaygroundInput, PlaygroundResult } from '../core/playground/playground.ts';
import type { ReadingChoice } from '../core/playground/types.ts';
import type { Diagnostic } from '../core/types.ts';
import { createShareSlice, initialShareState, type ShareSlice } from './share-slice.ts';
import {
  createWorkspaceSlice,
  initialWorkspaceState,
  type WorkspaceSlice,
} from './workspace-slice.ts';

/** Where the run stands: nothing yet, computing, finished, or failed unexpectedly. */
export type RunStatus = 'idle' | 'running' | 'done' | 'error';

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

/** The run's state. */
export interface RunSlice {
  status: RunStatus;
  /** The last result computed from valid input; kept while the input is invalid or a run fails. */
  result: PlaygroundResult | null;
  /** True when `result` does not describe the current input (pending, invalid, or failed). */
  isStale: boolean;
  /** What went wrong in the last failed run, as the start of a sentence (see `describeFailure`): an unexpected failure, not an input error. */
  error: string | null;
  /** Diagnostics of the most recent finished run, valid or not. */
  configDiagnostics: Diagnostic[];
  /** The config text `configDiagnostics` were computed from: their quick fixes apply to it only. */
  configDiagnosticsText: string;
  streamDiagnostics: Diagnostic[];
  /** What the last imported transcript brought in (format, turns, calls, skipped), or null. */
  importSummary: ImportSummary | null;
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
  /** The reading the diff pane compares the current "after" view with, or null for before/after. */
  diffReading: ReadingChoice | null;
}

/** The whole state. */
export type AppState = EditorSlice & RunSlice & UiSlice & ShareSlice & WorkspaceSlice;

/** The state of a fresh page, also used to reset between tests. */
export const initialEditorState: EditorSlice = {
  // Empty until main.tsx loads the default example.
  configText: '',
  streamText: '[]',
  encoding: 'auto',
  tokenizer: 'o200k',
  now: null,
  view: 'sanitized',
  streamFileName: null,
  exampleId: null,
  readings: DEFAULT_READINGS,
};

export const initialRunState: RunSlice = {
  status: 'idle',
  result: null,
  isStale: true,
  error: null,
  configDiagnostics: [],
  configDiagnosticsText: '',
  streamDiagnostics: [],
  importSummary: null,
  importProgress: null,
  importProgressSeen: false,
};

export const initialUiState: UiSlice = {
  selectedTool: null,
  selectedEventKey: null,
  theme: 'light',
  toasts: [],
  examples: [],
  editorsReady: false,
  compareReadings: false,
  diffReading: null,
};

/** Every slice's initial values together. */
export const initialState: AppState = {
  ...initialEditorState,
  ...initialRunState,
  ...initialUiState,
  ...initialShareState,
  ...initialWorkspaceState,
};

const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = () => ({
  ...initialEditorState,
});
const createRunSlice: StateCreator<AppState, [], [], RunSlice> = () => ({ ...initialRunState });
const createUiSlice: StateCreator<AppState, [], [], UiSlice> = () => ({ ...initialUiState });

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
