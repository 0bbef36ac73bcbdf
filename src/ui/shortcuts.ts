/**
 * The app's own keyboard commands, one home for the page listener and the
 * editors' commands (inside Monaco a key never reaches the page listener
 * after Monaco has handled it).
 */
import { compact } from '../state/actions.ts';
import { selectCompactPlan } from '../state/selectors.ts';
import { store } from '../state/store.ts';

const COPY_LINK_EVENT = 'cp-copy-link';

/** Asks the header's Copy link button to copy the link and show its panel. */
export function requestCopyLink(): void {
  window.dispatchEvent(new Event(COPY_LINK_EVENT));
}

/** Subscribes the Copy link button; returns the unsubscribe. */
export function onCopyLinkRequest(listener: () => void): () => void {
  window.addEventListener(COPY_LINK_EVENT, listener);
  return () => window.removeEventListener(COPY_LINK_EVENT, listener);
}

/** Compacts as the Compact button would, and only when it is enabled. */
export function compactFromKeyboard(): void {
  if ((selectCompactPlan(store.getState())?.fresh.length ?? 0) > 0) void compact();
}

/** "⌘" on Apple systems, "Ctrl" elsewhere: how the shortcut list names the modifier. */
export function modifierName(): string {
  return /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘' : 'Ctrl';
}
