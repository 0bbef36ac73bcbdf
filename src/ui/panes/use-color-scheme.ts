/**
 * Follows `prefers-color-scheme`, for the parts (Monaco) that cannot take
 * their colours from CSS variables.
 */
import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-color-scheme: dark)';

function getMedia(): MediaQueryList | undefined {
  // jsdom and old browsers have no matchMedia: treat them as light.
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY)
    : undefined;
}

function subscribe(onChange: () => void): () => void {
  const media = getMedia();
  media?.addEventListener('change', onChange);
  return () => media?.removeEventListener('change', onChange);
}

/** Whether the user prefers a dark colour scheme; updates when the preference changes. */
export function usePrefersDark(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => getMedia()?.matches ?? false,
    () => false,
  );
}
