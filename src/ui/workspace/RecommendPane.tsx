/**
 * The "Recommend hints" pane of the conversation view: the panel, wired to
 * the store. The recommendations are an extra of the conversation's run,
 * computed once asked for and then kept current while the pane is in view.
 */

import { askForRecommendations } from '../../state/actions.ts';
import type { RecommendationState } from '../../state/app-state.ts';
import { useAppStore } from '../../state/store.ts';
import { applyRecommendedHints } from '../../state/workspace.ts';
import { useExtra } from '../use-extra.ts';
import { RecommendationsPanel } from './RecommendationsPanel.tsx';
import './workspace.css';

function apply(recommendations: Parameters<typeof applyRecommendedHints>[0]): void {
  void applyRecommendedHints(recommendations);
}

/** Recommendations for the conversation in the editor, computed when asked for. */
export function RecommendPane() {
  const asked = useAppStore((s) => s.recommendAsked);
  const hasResult = useAppStore((s) => s.result !== null);
  const view = useExtra('recommend', null, asked);
  let state: RecommendationState;
  if (!asked) state = { status: 'idle', result: null, message: null };
  else if (view.value) state = { status: 'done', result: view.value, message: null };
  else if (view.problem === 'invalid') {
    state = { status: 'invalid', result: null, message: 'The input has errors' };
  } else if (view.problem === 'error') {
    state = { status: 'error', result: null, message: view.message };
  } else state = { status: 'running', result: null, message: null };
  return (
    <div className="extra-pane" aria-busy={asked && view.busy ? 'true' : 'false'}>
      <RecommendationsPanel
        subject="this conversation"
        state={state}
        onRecommend={askForRecommendations}
        canRecommend={hasResult}
        onApply={apply}
      />
    </div>
  );
}
