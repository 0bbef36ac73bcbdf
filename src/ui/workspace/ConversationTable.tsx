/**
 * The workspace's conversations: which gain most (from the selected tool's
 * hint, or in all), each one's context before and after against the budget,
 * and a button to open it in the editors.
 */
import { useState } from 'react';
import { formatCount } from '../../core/counting/format.ts';
import type { WorkspaceConversation } from '../../state/app-state.ts';
import { BudgetBar } from './BudgetBar.tsx';

/** Props of {@link ConversationTable}. */
export interface ConversationTableProps {
  conversations: readonly WorkspaceConversation[];
  /** The tool picked in the savings table, or null for every tool together. */
  selectedTool: string | null;
  /** The context window in tokens, or null. */
  budget: number | null;
  onOpen: (index: number) => void;
  /** How many rows show before "Show all". */
  initialRows?: number;
}

interface Row {
  conversation: WorkspaceConversation;
  /** Tokens saved: by the tool's hint, or in all. Null while not counted. */
  saved: number | null;
  calls: number | null;
}

/** The last part of a path: the conversation's own folder. */
function folderOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function rowsOf(conversations: readonly WorkspaceConversation[], tool: string | null): Row[] {
  const rows: Row[] = [];
  for (const conversation of conversations) {
    const figures = conversation.figures;
    if (!figures) {
      // A tool's list holds only conversations that call it; uncounted ones go in the full list.
      if (tool === null) rows.push({ conversation, saved: null, calls: null });
      continue;
    }
    if (tool === null) {
      rows.push({ conversation, saved: figures.before - figures.after, calls: null });
      continue;
    }
    const own = Object.hasOwn(figures.tools, tool) ? figures.tools[tool] : undefined;
    if (own) rows.push({ conversation, saved: own.saved, calls: own.calls });
  }
  const rank = (row: Row) =>
    row.conversation.status === 'done' ? 0 : row.conversation.status === 'pending' ? 1 : 2;
  return rows.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (b.saved ?? 0) - (a.saved ?? 0) ||
      a.conversation.index - b.conversation.index,
  );
}

/** The list, largest saving first. */
export function ConversationTable({
  conversations,
  selectedTool,
  budget,
  onOpen,
  initialRows = 10,
}: ConversationTableProps) {
  const [showAll, setShowAll] = useState(false);
  const rows = rowsOf(conversations, selectedTool);
  const shown = showAll ? rows : rows.slice(0, initialRows);
  const scale = Math.max(0, ...conversations.map((c) => c.figures?.before ?? 0));
  const caption = selectedTool
    ? `Which conversations gain most from ${selectedTool}'s hint`
    : 'Conversations by tokens saved';
  return (
    <div className="ws-conversations">
      <div className="cp-scroll">
        <table className="cp-table ws-conversation-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Conversation</th>
              <th scope="col" className="cp-num">
                {selectedTool ? `Saved by ${selectedTool}` : 'Saved tokens'}
              </th>
              <th scope="col">
                {budget !== null ? 'Context window use' : 'Context'} (tokens, before → after)
              </th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={4} className="cp-empty">
                  {selectedTool
                    ? `No counted conversation calls ${selectedTool}.`
                    : 'No conversations.'}
                </td>
              </tr>
            ) : (
              shown.map(({ conversation, saved, calls }) => (
                <tr key={conversation.index} data-status={conversation.status}>
                  <th scope="row" className="ws-conversation-title">
                    <span className="ws-title">{conversation.title}</span>
                    {conversation.title !== folderOf(conversation.path) ? (
                      <span className="cp-secondary ws-path" title={conversation.path}>
                        {folderOf(conversation.path)}
                      </span>
                    ) : null}
                    {conversation.status === 'failed' ? (
                      <span className="ws-failed">{conversation.message}</span>
                    ) : null}
                  </th>
                  <td className="cp-num">
                    {saved === null ? (
                      <span className="cp-secondary-inline">
                        {conversation.status === 'failed' ? 'not counted' : 'counting…'}
                      </span>
                    ) : (
                      <>
                        <span className={saved < 0 ? 'cp-negative' : undefined}>
                          {formatCount(saved)}
                        </span>
                        {calls !== null ? (
                          <span className="cp-secondary">
                            {formatCount(calls)} {calls === 1 ? 'call' : 'calls'}
                          </span>
                        ) : null}
                      </>
                    )}
                  </td>
                  <td>
                    {conversation.figures ? (
                      <BudgetBar
                        before={conversation.figures.before}
                        after={conversation.figures.after}
                        budget={budget}
                        scale={scale}
                      />
                    ) : null}
                  </td>
                  <td className="ws-open-cell">
                    <button
                      type="button"
                      className="small"
                      onClick={() => onOpen(conversation.index)}
                      aria-label={`Open “${conversation.title}” in the editors`}
                      title="Load this conversation into the stream editor and show its own figures"
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {rows.length > initialRows ? (
        <button type="button" className="small" onClick={() => setShowAll(!showAll)}>
          {showAll ? `Show the first ${initialRows}` : `Show all ${formatCount(rows.length)}`}
        </button>
      ) : null}
    </div>
  );
}
