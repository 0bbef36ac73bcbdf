/**
 * Brings a pane into view and its heading into focus, so a keyboard or
 * screen-reader user lands where a click sent them (the money line's jump
 * to the cost pane, a cost row's jump to the diff).
 */
export function revealPane(id: 'pane-cost' | 'pane-diff'): void {
  const pane = document.getElementById(id);
  pane?.scrollIntoView?.({ block: 'start' });
  pane?.querySelector<HTMLElement>('h2')?.focus();
}
