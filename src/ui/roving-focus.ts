/**
 * A table's buttons as one tab stop (the roving tabindex of the WAI-ARIA
 * grid pattern): Tab reaches the last one focused, the arrow keys move
 * between them, Home and End to the first and last. The cost pane's request
 * rows (50 a page) and per-tool figures (6 a tool) would otherwise be a tab
 * stop each, between a keyboard user and what follows them.
 */
import { type KeyboardEvent, useState } from 'react';

/** The buttons' attribute: the container's keys move among these. */
export const ROVING_ATTRIBUTE = 'data-roving';

/** The step a key takes among `count` buttons laid out `columns` a row, or null for another key. */
function stepFor(key: string, index: number, count: number, columns: number): number | null {
  const clamp = (to: number) => Math.max(0, Math.min(count - 1, to));
  switch (key) {
    case 'ArrowDown':
      return clamp(index + columns);
    case 'ArrowUp':
      return clamp(index - columns);
    case 'ArrowRight':
      return columns > 1 ? clamp(index + 1) : null;
    case 'ArrowLeft':
      return columns > 1 ? clamp(index - 1) : null;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * The tab stop among `count` buttons, `columns` a row: spread `button(i)`
 * on each and `container` on the element holding them.
 */
export function useRovingFocus(count: number, columns = 1) {
  const [active, setActive] = useState(0);
  const current = Math.min(active, Math.max(0, count - 1));
  return {
    button: (index: number) => ({
      [ROVING_ATTRIBUTE]: '',
      tabIndex: index === current ? 0 : -1,
      onFocus: () => setActive(index),
    }),
    container: {
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        const buttons = [
          ...event.currentTarget.querySelectorAll<HTMLElement>(`[${ROVING_ATTRIBUTE}]`),
        ];
        const index = buttons.indexOf(event.target as HTMLElement);
        if (index < 0) return;
        const to = stepFor(event.key, index, buttons.length, columns);
        if (to === null) return;
        event.preventDefault();
        buttons[to]?.focus();
      },
    },
  };
}
