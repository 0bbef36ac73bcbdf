/**
 * The store's share slice: the one view option that links carry beyond the
 * editor inputs (the diff layout), and how sharing and autosave stand, for
 * the header and the link dialog to show. Changed only by `share.ts`.
 */
import type { StateCreator } from 'zustand';
import type { DiffLayout, ShareState } from '../core/share/share-codec.ts';
import type { AppState } from './store.ts';

/** What the link dialog says: what went wrong with a link or file, and what is shown instead. */
export interface LinkProblem {
  /** The dialog's title, e.g. "This link could not be opened". */
  title: string;
  /** One or two sentences: what happened. */
  what: string;
  /** One sentence: what the playground shows instead. */
  loadedInstead: string;
}

/** Work a link, file or example replaced, which one click brings back. */
export interface RestoreOffer {
  state: ShareState;
  /** True when a link replaced it: Back to an address without a link restores it too. */
  byLink: boolean;
}

/** Whether the last state was saved in this browser, and why not. */
export type AutosaveStatus =
  | { kind: 'on' }
  /** The browser refused to store it (its quota); `chars` is the size that failed. The previous save is kept. */
  | { kind: 'too-large'; chars: number }
  /** The page cannot use IndexedDB at all (a privacy setting, an embedded frame). */
  | { kind: 'unavailable' };

/** Whether the address bar's `#v1/…` follows the state. */
export type AddressStatus =
  | { kind: 'follows' }
  /** The state is too large for a link: the address holds no state. `chars` is its size. */
  | { kind: 'too-large'; chars: number };

/** The share slice. */
export interface ShareSlice {
  /** How the transcript diff lays out before and after; links carry it. */
  diffLayout: DiffLayout;
  /** The link or file problem the dialog shows, or null when it is closed. */
  linkProblem: LinkProblem | null;
  autosave: AutosaveStatus;
  /** When the autosave last finished writing this tab's state (ms), or null before the first. */
  autosavedAt: number | null;
  /** The work a replacement can give back, or null. */
  restoreOffer: RestoreOffer | null;
  address: AddressStatus;
}

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
