/**
 * The store's share slice: the one view option that links carry beyond the
 * editor inputs (the diff layout), and how sharing and autosave stand, for
 * the header and the link dialog to show. Changed only by `share.ts`.
 */
import type { StateCreator } from 'zustand';
import type { AppState, ShareSlice } from './app-state.ts';

/** The share slice of a fresh page. */
export const initialShareState: ShareSlice = {
  diffLayout: 'side-by-side',
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
