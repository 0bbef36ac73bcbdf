/**
 * The workspace view of the results column: the status line, the progress
 * of counting (with Cancel), what each conversation cost (WorkspaceCost.tsx),
 * the savings per tool added up over every
 * conversation, the conversations (which gain most from the selected tool's
 * hint, their context against the budget, a button to open each), and the
 * recommendations. `aria-busy` is "true" while the figures for the current
 * input are computed, so tests and assistive technology never read partial
 * figures as complete.
 */
import { memo } from 'react';
import { formatCount, formatSize } from '../../core/counting/format.ts';
import { setToolChoice } from '../../state/actions.ts';
import { selectWorkspaceStatusMessage } from '../../state/selectors.ts';
import { useAppStore } from '../../state/store.ts';
import {
  applyRecommendedHints,
  cancelWorkspaceLoad,
  closeWorkspace,
  openConversationInEditor,
  recountWorkspace,
  selectWorkspaceTool,
  setContextBudget,
} from '../../state/workspace.ts';
import { ErrorBoundary } from '../feedback/ErrorBoundary.tsx';
import { SavingsTable } from '../panes/SavingsTable.tsx';
import { WhatIfGridView } from '../panes/WhatIfGrid.tsx';
import { ResultsRegion, StatusBar } from '../StatusBar.tsx';
import { ContextBudgetField } from './ContextBudgetField.tsx';
import { ConversationTable } from './ConversationTable.tsx';
import { RecommendationsPanel } from './RecommendationsPanel.tsx';
import { WorkspaceCost } from './WorkspaceCost.tsx';
import { WorkspaceProgress } from './WorkspaceProgress.tsx';
import './workspace.css';

function StatusLine() {
  const message = useAppStore(selectWorkspaceStatusMessage);
  const busy = useAppStore((s) => s.workspaceBusy);
  const partial = useAppStore((s) => s.workspaceStatus === 'loading');
  return (
    <StatusBar message={message} testId="workspace-status">
      {partial ? (
        <span className="badge busy">Partial: still counting</span>
      ) : busy ? (
        <span className="badge busy" aria-hidden="true">
          Updating…
        </span>
      ) : null}
    </StatusBar>
  );
}

function Summary() {
  const name = useAppStore((s) => s.workspaceName);
  const count = useAppStore((s) => s.workspaceConversations.length);
  const bytes = useAppStore((s) => s.workspaceConversations.reduce((sum, c) => sum + c.bytes, 0));
  return (
    <div className="ws-summary">
      <span className="ws-name" title={name ?? undefined}>
        {name}
      </span>
      {count > 0 ? (
        <span className="cp-secondary-inline">
          {formatCount(count)} {count === 1 ? 'conversation' : 'conversations'}, {formatSize(bytes)}
        </span>
      ) : null}
      <button type="button" className="small" onClick={closeWorkspace}>
        Close workspace
      </button>
    </div>
  );
}

function Progress() {
  const loading = useAppStore((s) => s.workspaceStatus === 'loading');
  const done = useAppStore((s) => s.workspaceProgress.done);
  const total = useAppStore((s) => s.workspaceProgress.total);
  if (!loading) return null;
  return <WorkspaceProgress done={done} total={total} onCancel={cancelWorkspaceLoad} />;
}

function Message() {
  const message = useAppStore((s) => s.workspaceMessage);
  const status = useAppStore((s) => s.workspaceStatus);
  if (!message) return null;
  const canRecount = status === 'cancelled' || status === 'failed';
  return (
    <div
      className={`ws-message ws-message-${message.tone}`}
      role={message.tone === 'error' ? 'alert' : undefined}
    >
      <p>{message.text}</p>
      {canRecount ? (
        <button type="button" onClick={() => void recountWorkspace()}>
          Count again
        </button>
      ) : null}
    </div>
  );
}

const SELECT_NOTE =
  'Select a row (click, or Enter) to see below which conversations gain most from that tool’s hint; arrow keys move between rows.';

/** A section before its figures: while the workspace counts, when they will appear. */
function NoFiguresYet({ whileLoading }: { whileLoading: string }) {
  const status = useAppStore((s) => s.workspaceStatus);
  return <p className="empty">{status === 'loading' ? whileLoading : 'No figures.'}</p>;
}

function WorkspaceSavings() {
  const report = useAppStore((s) => s.workspaceReport);
  const tools = useAppStore((s) => s.workspaceTools);
  const selected = useAppStore((s) => s.workspaceSelectedTool);
  if (!report) {
    return <NoFiguresYet whileLoading="The first figures appear as conversations are counted." />;
  }
  return (
    <SavingsTable
      report={report}
      tools={tools}
      selectedTool={selected}
      onSelectTool={selectWorkspaceTool}
      selectNote={SELECT_NOTE}
      emptyText="No tool calls in these conversations."
    />
  );
}

function openInEditor(index: number): void {
  void openConversationInEditor(index);
}

function Conversations() {
  const conversations = useAppStore((s) => s.workspaceConversations);
  const selected = useAppStore((s) => s.workspaceSelectedTool);
  const budget = useAppStore((s) => s.contextBudget);
  return (
    <>
      <div className="ws-conversations-bar">
        <p className="cp-note">
          {selected
            ? `Sorted by the tokens ${selected}'s hint saves in each. `
            : 'Sorted by the tokens saved in each; select a tool above to sort by its hint alone. '}
          The bars compare each conversation's provider view before and after compaction with the
          context window.
        </p>
        <ContextBudgetField budget={budget} onChange={setContextBudget} />
      </div>
      <ConversationTable
        conversations={conversations}
        selectedTool={selected}
        budget={budget}
        onOpen={openInEditor}
      />
      <p className="cp-note">
        Counted tokens only (message, reasoning and tool text); the provider's framing, the system
        prompt and tool definitions also take room in the window.
      </p>
    </>
  );
}

/** Every tool under each hint choice, summed over the conversations; a cell sets that hint. */
function WorkspaceWhatIf() {
  const grid = useAppStore((s) => s.workspaceWhatIf);
  if (!grid) {
    return <NoFiguresYet whileLoading="The grid appears once every conversation is counted." />;
  }
  return (
    <>
      <WhatIfGridView grid={grid} onChoose={setToolChoice} />
      <p className="cp-note">
        The workspace counts with the spec's rulings for D17; the D17 readings control changes the
        editor's conversation only.
      </p>
    </>
  );
}

function apply(recommendations: Parameters<typeof applyRecommendedHints>[0]): void {
  void applyRecommendedHints(recommendations);
}

function Recommendations() {
  const state = useAppStore((s) => s.workspaceRecommendations);
  const count = useAppStore(
    (s) => s.workspaceConversations.filter((c) => c.status === 'done').length,
  );
  return (
    <RecommendationsPanel
      subject={`these ${formatCount(count)} conversations`}
      state={state}
      onApply={apply}
    />
  );
}

const SECTIONS = [
  // Money first (issue 41); it is computed only once the token figures are in.
  { id: 'ws-cost', title: 'Cost per conversation', Component: WorkspaceCost },
  { id: 'ws-savings', title: 'Savings per tool, all conversations', Component: WorkspaceSavings },
  { id: 'ws-conversations', title: 'Conversations', Component: Conversations },
  { id: 'ws-what-if', title: 'What if', Component: WorkspaceWhatIf },
  { id: 'ws-recommend', title: 'Recommend hints', Component: Recommendations },
] as const;

const Sections = memo(function Sections() {
  const hasFigures = useAppStore((s) => s.workspaceConversations.length > 0);
  if (!hasFigures) return null;
  return (
    <div className="panes">
      {SECTIONS.map(({ id, title, Component }) => (
        <section key={id} id={id} className="pane pane-wide" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>{title}</h2>
          <ErrorBoundary label={`the ${title} pane`}>
            <Component />
          </ErrorBoundary>
        </section>
      ))}
    </div>
  );
});

/** The workspace region. */
export function WorkspacePanel({ id }: { id: string }) {
  const busy = useAppStore((s) => s.workspaceBusy);
  const status = useAppStore((s) => s.workspaceStatus);
  const stale = useAppStore((s) => s.workspaceStale);
  return (
    <ResultsRegion
      id={id}
      className="results ws-results"
      label="Workspace"
      busy={busy}
      status={status}
      stale={stale}
    >
      <StatusLine />
      <Summary />
      <Progress />
      <Message />
      <Sections />
    </ResultsRegion>
  );
}
