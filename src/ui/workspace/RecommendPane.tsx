/** The "Recommend hints" pane of the conversation view: the panel, wired to the store. */
import { useAppStore } from '../../state/store.ts';
import { applyRecommendedHints, recommendForConversation } from '../../state/workspace.ts';
import { RecommendationsPanel } from './RecommendationsPanel.tsx';
import './workspace.css';

function apply(recommendations: Parameters<typeof applyRecommendedHints>[0]): void {
  void applyRecommendedHints(recommendations);
}

function recommend(): void {
  void recommendForConversation();
}

/** Recommendations for the conversation in the editor, computed when asked for. */
export function RecommendPane() {
  const state = useAppStore((s) => s.conversationRecommendations);
  const hasResult = useAppStore((s) => s.result !== null);
  return (
    <RecommendationsPanel
      subject="this conversation"
      state={state}
      onRecommend={recommend}
      canRecommend={hasResult}
      onApply={apply}
    />
  );
}
