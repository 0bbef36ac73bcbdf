/**
 * The result panes, in display order. A pane is `{ id, title, Component }`;
 * the results region renders each in a `<section id="pane-<id>">` with its
 * own error boundary. Components take no props: they read the store through
 * `useAppStore` and selectors, and change it through `state/actions.ts`, so a
 * presentational pane is mounted here through a small adapter
 * (`PaneAdapters.tsx`) that does exactly that.
 */
import type { ComponentType } from 'react';
import {
  CostPane,
  DesignQuestionsPane,
  DiffPane,
  ExplainPane,
  SavingsPane,
  TimelinePane,
  WhatIfPane,
} from './PaneAdapters.tsx';
import { RecommendPane } from './workspace/RecommendPane.tsx';

/** The ids of the panes; also their DOM ids as `pane-<id>`. */
export type PaneId =
  | 'savings'
  | 'what-if'
  | 'recommend'
  | 'design'
  | 'diff'
  | 'explain'
  | 'timeline'
  | 'cost';

/** One result pane. */
export interface PaneDefinition {
  id: PaneId;
  /** The pane's heading. */
  title: string;
  /** `wide` panes take the whole width; `half` panes sit side by side when there is room. */
  width: 'wide' | 'half';
  Component: ComponentType;
}

/** The panes the results region shows, in order. */
export const PANES: readonly PaneDefinition[] = [
  { id: 'savings', title: 'Savings per tool', width: 'wide', Component: SavingsPane },
  { id: 'what-if', title: 'What if: every hint at once', width: 'wide', Component: WhatIfPane },
  { id: 'recommend', title: 'Recommend hints', width: 'wide', Component: RecommendPane },
  { id: 'design', title: 'Design questions', width: 'wide', Component: DesignQuestionsPane },
  { id: 'diff', title: 'What the model sees', width: 'wide', Component: DiffPane },
  { id: 'explain', title: 'Why an event looks as it does', width: 'half', Component: ExplainPane },
  { id: 'timeline', title: 'Compactions', width: 'half', Component: TimelinePane },
  { id: 'cost', title: 'Cost over the conversation', width: 'wide', Component: CostPane },
];
