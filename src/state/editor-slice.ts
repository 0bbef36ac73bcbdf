/**
 * The store's editor slice: the user's inputs (config and stream text, the
 * encoding, tokenizer, clock, view and readings) and where the stream came
 * from. Changed by the module-level functions of `actions.ts`.
 */
import type { StateCreator } from 'zustand';
import { DEFAULT_READINGS } from '../core/compaction/readings.ts';
import { DEFAULT_TOKENIZER } from '../core/counting/tokens.ts';
import type { AppState, EditorSlice } from './app-state.ts';

/** The editor inputs of a fresh page. */
export const initialEditorState: EditorSlice = {
  // Empty until main.tsx loads the default example.
  configText: '',
  streamText: '[]',
  encoding: 'auto',
  tokenizer: DEFAULT_TOKENIZER,
  now: null,
  view: 'sanitized',
  streamFileName: null,
  exampleId: null,
  readings: DEFAULT_READINGS,
};

/** Creates the slice (see `store.ts`). */
export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = () => ({
  ...initialEditorState,
});
