/**
 * The colour scheme: the system's, unless the user picked one with the
 * header's toggle; the pick is kept in localStorage across reloads.
 */
import { setTheme } from '../state/actions.ts';
import type { Theme } from '../state/app-state.ts';
import { store } from '../state/store.ts';

const STORAGE_KEY = 'compaction-playground.theme';

let storage: Pick<Storage, 'getItem' | 'setItem'> | null = null;
let systemDark: MediaQueryList | null = null;

function storedChoice(): Theme | null {
  try {
    const value = storage?.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

function apply(): void {
  setTheme(storedChoice() ?? (systemDark?.matches ? 'dark' : 'light'));
}

/** Follows the stored pick, else the system's scheme; call once at start-up. */
export function startThemeFollowing(env: {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  systemDark: MediaQueryList;
}): void {
  storage = env.storage;
  systemDark = env.systemDark;
  apply();
  systemDark.addEventListener('change', apply);
}

/** Switches to the other scheme and keeps the pick. */
export function toggleTheme(): void {
  const next: Theme = store.getState().theme === 'dark' ? 'light' : 'dark';
  try {
    storage?.setItem(STORAGE_KEY, next);
  } catch {
    // A refused write (privacy settings) still switches for this visit.
  }
  setTheme(next);
}
