/**
 * The results column: the editor's conversation (its own panes), or, once a
 * workspace is open, a choice between it and the workspace's figures.
 */
import type { ReactNode } from 'react';
import { formatCount } from '../../core/counting/format.ts';
import type { ResultsView } from '../../state/app-state.ts';
import { useAppStore } from '../../state/store.ts';
import { setResultsView } from '../../state/workspace.ts';
import { WorkspacePanel } from './WorkspacePanel.tsx';
import './workspace.css';

/** The workspace region's id; the switch controls it and the conversation's `#results`. */
const WORKSPACE_ID = 'workspace-results';

function ViewSwitch({ view }: { view: ResultsView }) {
  const count = useAppStore((s) => s.workspaceConversations.length);
  const fileName = useAppStore((s) => s.streamFileName);
  const choices: { value: ResultsView; label: string; detail: string | null }[] = [
    { value: 'conversation', label: 'Conversation', detail: fileName },
    {
      value: 'workspace',
      label: 'Workspace',
      detail:
        count > 0
          ? `${formatCount(count)} ${count === 1 ? 'conversation' : 'conversations'}`
          : null,
    },
  ];
  return (
    <fieldset className="ws-switch">
      <legend className="visually-hidden">Results to show</legend>
      {choices.map((choice) => (
        <button
          key={choice.value}
          type="button"
          aria-pressed={view === choice.value}
          aria-controls={choice.value === 'workspace' ? WORKSPACE_ID : 'results'}
          onClick={() => setResultsView(choice.value)}
        >
          {choice.label}
          {choice.detail ? <span className="ws-switch-detail">{choice.detail}</span> : null}
        </button>
      ))}
    </fieldset>
  );
}

/**
 * Shows `conversation` (the conversation's results region) and, once a
 * workspace is open, a switch above that chooses it or the workspace. The
 * conversation's region stays mounted while hidden: its Monaco diff editor
 * keeps its models, and switching back is instant.
 */
export function ResultsColumn({ conversation }: { conversation: ReactNode }) {
  const open = useAppStore((s) => s.workspaceStatus !== 'empty');
  const view = useAppStore((s) => s.resultsView);
  const showWorkspace = open && view === 'workspace';
  return (
    <div className="results-column">
      {open ? <ViewSwitch view={view} /> : null}
      <div className="results-slot" hidden={showWorkspace}>
        {conversation}
      </div>
      {showWorkspace ? <WorkspacePanel id={WORKSPACE_ID} /> : null}
    </div>
  );
}
