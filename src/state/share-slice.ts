/**
 * The store's share slice: the view options that links carry beyond the
 * editor inputs (the diff layout, the cost pane's choices), and how sharing and autosave stand, for
 * the header and the link dialog to show. Changed only by `share.ts`.
 */
import type { StateCreator } from 'zustand';
import { DEFAULT_REPLAY_CHOICE } from '../core/replay/schedules.ts';
import type { AppState, ShareSlice } from './app-state.ts';

/** The share slice of a fresh page. */
export const initialShareState: ShareSlice = {
  diffLayout: 'side-by-side',
  replayChoice: DEFAULT_REPLAY_CHOICE,
  linkProblem: null,
  autosave: { kind: 'on' },
  autosavedAt: null,
  restoreOffer: null,
  address: { kind: 'follows' },
};

/** Creates the slice (see `store.ts`). */
export const createShareSlice: StateCreator<AppState, [], [], ShareSlice> = () => ({
  ...initialShareState,
});
