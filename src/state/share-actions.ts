/**
 * The share slice's plain actions: the diff layout, the cost pane's choices, the link dialog and the
 * restore offer. They only set the store, so `share.ts` (which owns links,
 * files and autosave) and the panes use them without a loop between them.
 */
import type { ReplayChoice } from '../core/replay/schedules.ts';
import type { DiffLayout } from '../core/share/share-codec.ts';
import type { LinkProblem } from './app-state.ts';
import { store } from './store.ts';

/** Closes the restore offer. */
export function dismissRestoreOffer(): void {
  store.setState({ restoreOffer: null });
}

/** Chooses how the transcript diff lays out before and after. */
export function setDiffLayout(diffLayout: DiffLayout): void {
  store.setState({ diffLayout });
}

/** Changes the cost pane's model, prices, schedule or scaling (the others stay). */
export function setReplayChoice(change: Partial<ReplayChoice>): void {
  const replayChoice = { ...store.getState().replayChoice, ...change };
  store.setState({ replayChoice });
}

/** Opens the link dialog. */
export function showLinkProblem(problem: LinkProblem): void {
  store.setState({ linkProblem: problem });
}

/** Closes the link dialog. */
export function dismissLinkProblem(): void {
  store.setState({ linkProblem: null });
}
