/**
 * The page: header, the two editors on the left, the results on the right,
 * with splitters between them. Below 900 px wide the columns stack, the
 * results first: the answer is the first screen on a phone.
 */
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useAppStore } from '../state/store.ts';
import { ConversationResults } from './ConversationResults.tsx';
import { ConfigEditor } from './editor/ConfigEditor.tsx';
import { LargeStreamNote, OpenFileButton, StreamEditor } from './editor/StreamEditor.tsx';
import { QuickRuleField } from './exports/QuickRuleField.tsx';
import { ErrorBoundary } from './feedback/ErrorBoundary.tsx';
import { Toaster } from './feedback/Toaster.tsx';
import { UpdateNotice } from './feedback/UpdateNotice.tsx';
import { Header } from './Header.tsx';
import { ProblemsList } from './ProblemsList.tsx';
import { Splitter } from './Splitter.tsx';
import { RestoreNotice } from './share/RestoreNotice.tsx';
import { ResultsColumn } from './workspace/ResultsColumn.tsx';
import { WorkspaceOpenButtons } from './workspace/WorkspaceOpenButtons.tsx';
import './styles.css';

/** A splitter's share, kept in localStorage so a reload keeps the layout. */
function useKeptSize(name: string, initial: number): [number, (value: number) => void] {
  const key = `compaction-playground.split.${name}`;
  const [value, setValue] = useState(() => {
    try {
      const stored = Number(window.localStorage.getItem(key));
      return stored >= 10 && stored <= 90 ? stored : initial;
    } catch {
      return initial;
    }
  });
  const change = (next: number) => {
    setValue(next);
    try {
      window.localStorage.setItem(key, String(next));
    } catch {
      // Refused storage: the size holds for this visit only.
    }
  };
  return [value, change];
}

function Workspace() {
  const workspaceRef = useRef<HTMLElement>(null);
  const editorsRef = useRef<HTMLElement>(null);
  const [columns, setColumns] = useKeptSize('columns', 40);
  const [rows, setRows] = useKeptSize('rows', 58);
  const fileName = useAppStore((s) => s.streamFileName);
  const inWorkspace = useAppStore((s) => s.resultsView === 'workspace');

  const layout = {
    '--split-columns': `${columns}%`,
    '--split-rows': `${rows}%`,
  } as CSSProperties;

  return (
    <main className="workspace" ref={workspaceRef} style={layout}>
      <section className="editors" id="editors" aria-label="Inputs" ref={editorsRef}>
        <div className="editor-panel" id="config-panel">
          <div className="panel-bar">
            <h2>Config (TOML)</h2>
            <span className="panel-hint">Ctrl+Space for suggestions</span>
          </div>
          <QuickRuleField />
          <div className="editor-host">
            <ConfigEditor />
          </div>
        </div>
        <Splitter
          orientation="horizontal"
          value={rows}
          onChange={setRows}
          containerRef={editorsRef}
          label="Resize config and stream editors"
          controls="config-panel"
        />
        <div className="editor-panel stream-panel">
          <div className="panel-bar">
            <h2>Event stream (JSON)</h2>
            {fileName ? <span className="panel-hint">{fileName}</span> : null}
            <LargeStreamNote />
            <OpenFileButton />
            <WorkspaceOpenButtons />
          </div>
          {inWorkspace ? (
            <p className="workspace-scope" role="note">
              Workspace view: the config, Now, View and the tokenizer apply to every conversation.
              This stream, its Problems, Encoding, Compact and Reset act on the single conversation
              only.
            </p>
          ) : null}
          <div className="editor-host">
            <StreamEditor />
          </div>
        </div>
        <ProblemsList />
      </section>
      <Splitter
        orientation="vertical"
        value={columns}
        onChange={setColumns}
        containerRef={workspaceRef}
        label="Resize inputs and results"
        controls="editors"
      />
      <ResultsColumn conversation={<ConversationResults id="results" />} />
    </main>
  );
}

/** Keeps `<html data-theme>` in step with the store, for the CSS variables. */
function useThemeAttribute(): void {
  const theme = useAppStore((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** The whole app. */
export function App() {
  useThemeAttribute();
  return (
    <ErrorBoundary label="the page" offerReload>
      <div className="app">
        <a className="skip-link" href="#results">
          Skip to results
        </a>
        <Header />
        <Workspace />
        <Toaster />
        <RestoreNotice />
        <UpdateNotice />
      </div>
    </ErrorBoundary>
  );
}
