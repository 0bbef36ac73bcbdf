/**
 * The result panes, in display order. A pane is `{ id, title, Component }`;
 * the results region renders each in a `<section id="pane-<id>">` with its
 * own error boundary. Components take no props: they read the store through
 * `useAppStore` and selectors, and change it through `state/actions.ts`
 * (e.g. `selectTool`, `selectEvent`, `reset(position)`), so a presentational
 * pane is mounted here through a small adapter that does exactly that.
 */
import type { ComponentType } from 'react';
import {
  DiffPlaceholder,
  ExplainPlaceholder,
  SavingsPlaceholder,
  TimelinePlaceholder,
} from './PlaceholderPanes.tsx';

/** The ids of the panes; also their DOM ids as `pane-<id>`. */
export type PaneId = 'savings' | 'diff' | 'explain' | 'timeline';

/** One result pane. */
export interface PaneDefinition {
  id: PaneId;
  /** The pane's heading. */
  title: string;
  Component: ComponentType;
}

/** The panes the results region shows, in order. */
export const PANES: readonly PaneDefinition[] = [
  { id: 'savings', title: 'Savings per tool', Component: SavingsPlaceholder },
  { id: 'diff', title: 'What the model sees', Component: DiffPlaceholder },
  { id: 'explain', title: 'Why', Component: ExplainPlaceholder },
  { id: 'timeline', title: 'Compactions', Component: TimelinePlaceholder },
];
