/** Whether a CSS media query matches now, re-rendering when that changes. */
import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  // jsdom (component tests) has no matchMedia: nothing matches there.
  const supported = typeof window !== 'undefined' && typeof window.matchMedia === 'function';
  return useSyncExternalStore(
    (onChange) => {
      if (!supported) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => supported && window.matchMedia(query).matches,
    () => false,
  );
}
