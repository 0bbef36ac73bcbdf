/**
 * Renders its children only once Monaco is configured. Monaco is loaded
 * lazily (see main.tsx); an `@monaco-editor/react` editor that mounted before
 * `loader.config({ monaco })` would try to fetch Monaco from a CDN instead.
 * Wrap every component that renders a Monaco editor or diff editor in this.
 */
import type { ReactNode } from 'react';
import { useAppStore } from '../../state/store.ts';
import { MONACO_THEMES } from './monaco-themes.ts';

/** Props of the gate. */
export interface WhenEditorsReadyProps {
  children: ReactNode;
  /** Shown until Monaco is ready. */
  fallback?: ReactNode;
}

/** The gate. */
export function WhenEditorsReady({ children, fallback }: WhenEditorsReadyProps) {
  const ready = useAppStore((s) => s.editorsReady);
  if (ready) return children;
  return (
    fallback ?? (
      <div className="editor-loading" role="status">
        Loading the editor…
      </div>
    )
  );
}

/** The Monaco theme that matches the app's colour scheme (Monaco themes are page-wide). */
export function useMonacoTheme(): (typeof MONACO_THEMES)[keyof typeof MONACO_THEMES] {
  return useAppStore((s) => MONACO_THEMES[s.theme]);
}
