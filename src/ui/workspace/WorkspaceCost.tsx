/**
 * The workspace in money (issue 41): what each conversation cost, labelled
 * recorded or modelled, per day and in total, and the one schedule
 * cheapest over the folder, the figures of `replay --by-conversation`.
 * Asked for while the section is in view and once the token figures are
 * in (state/workspace-money.ts): the workers answer the figures first.
 */
import { useEffect, useRef } from 'react';
import { formatCount, formatDollars, formatPercent } from '../../core/counting/format.ts';
import { describeFolderMoney, type FolderMoney } from '../../core/replay/folder-money.ts';
import { SAVING_BASIS } from '../../core/replay/presentation.ts';
import type { WorkspaceMoneyState } from '../../state/app-state.ts';
import { useAppStore } from '../../state/store.ts';
import { requestWorkspaceMoney } from '../../state/workspace-money.ts';
import { useInView } from '../use-extra.ts';
import { getRowCount, getRowIndex, getScrollBoxProps, useVirtualRows } from '../virtual-rows.tsx';

const COLUMNS = 6;

/** A row per conversation, in the CLI's order; only the rows in view from 200 on. */
function ConversationCosts({ money }: { money: FolderMoney }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = money.conversations;
  const body = useVirtualRows({
    count: rows.length,
    columns: COLUMNS,
    scrollRef,
    estimateHeight: 30,
  });
  return (
    <div ref={scrollRef} {...getScrollBoxProps('cp-scroll', body.virtual)}>
      <table
        className="cp-table ws-cost-table"
        aria-rowcount={getRowCount(rows.length)}
        data-testid="workspace-conversation-costs"
      >
        <caption>What each conversation cost</caption>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Conversation</th>
            <th scope="col" className="ws-cost-detail">
              Day (UTC)
            </th>
            <th scope="col" className="cp-num ws-cost-detail">
              Requests
            </th>
            <th scope="col" className="cp-num">
              Cost
            </th>
            <th scope="col" className="cp-num ws-cost-detail">
              As ran (stored)
            </th>
            <th scope="col" className="cp-num">
              Cheapest: saving
            </th>
          </tr>
        </thead>
        <tbody>
          {body.before}
          {body.rows.map(({ index, measure }) => {
            const row = rows[index] as FolderMoney['conversations'][number];
            return (
              <tr
                key={index}
                ref={measure}
                data-row-index={index}
                aria-rowindex={getRowIndex(index)}
                data-basis={row.basis}
              >
                <th scope="row" className="ws-cost-name">
                  {row.name}
                </th>
                <td className="ws-cost-detail" data-figure="day">
                  {row.day ?? 'unknown'}
                </td>
                <td className="cp-num ws-cost-detail" data-figure="requests">
                  {formatCount(row.requests)}
                </td>
                <td className="cp-num">
                  <span data-figure="cost">{formatDollars(row.cost)}</span>
                  <span className="cost-basis" data-basis={row.basis} data-figure="basis">
                    {row.basis}
                  </span>
                </td>
                <td className="cp-num ws-cost-detail" data-figure="stored">
                  {formatDollars(row.schedules.stored ?? 0)}
                </td>
                <td className="cp-num">
                  {row.cheapest ? (
                    <>
                      <span data-figure="saving">
                        {formatDollars(row.cheapest.saved)} ({formatPercent(row.cheapest.percent)})
                      </span>
                      <span className="cp-secondary" data-figure="cheapest">
                        {row.cheapest.name} {formatDollars(row.cheapest.cost)}
                      </span>
                    </>
                  ) : (
                    <span className="cp-secondary-inline" data-figure="saving">
                      none cheaper
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
          {body.after}
        </tbody>
      </table>
    </div>
  );
}

/** The cost per day, oldest first, and the total. */
function DayCosts({ money }: { money: FolderMoney }) {
  return (
    <div className="cp-scroll">
      <table className="cp-table ws-day-table" data-testid="workspace-day-costs">
        <caption>Cost per day (of each conversation's first request)</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col" className="cp-num">
              Conversations
            </th>
            <th scope="col" className="cp-num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {money.days.map((day) => (
            <tr key={day.day ?? 'unknown'}>
              <th scope="row">{day.day ?? 'unknown'}</th>
              <td className="cp-num">{formatCount(day.conversations)}</td>
              <td className="cp-num">{formatDollars(day.cost)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="cp-num">{formatCount(money.total.conversations)}</td>
            <td className="cp-num" data-figure="total-cost">
              {formatDollars(money.total.cost)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** Conversations counted but not replayed, each with why. */
function Failed({ failed }: { failed: WorkspaceMoneyState['failed'] }) {
  if (failed.length === 0) return null;
  return (
    <details className="ws-cost-failed">
      <summary>
        {formatCount(failed.length)} {failed.length === 1 ? 'conversation' : 'conversations'} could
        not be replayed
      </summary>
      <ul>
        {failed.map((row) => (
          <li key={row.index}>
            {row.name}: {row.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The section: asks while in view once the workspace is counted, then shows the money. */
export function WorkspaceCost() {
  const ref = useRef<HTMLDivElement>(null);
  const inView = useInView(ref);
  const ready = useAppStore(
    (s) => s.workspaceStatus === 'done' && !s.workspaceBusy && !s.workspaceStale,
  );
  const loading = useAppStore((s) => s.workspaceStatus === 'loading');
  const state = useAppStore((s) => s.workspaceMoney);
  const wanted = inView && ready && state.status === 'idle';
  useEffect(() => {
    if (wanted) void requestWorkspaceMoney();
  }, [wanted]);
  const busy = state.status === 'running' || (inView && state.status === 'idle' && ready);
  const sentences = state.money ? describeFolderMoney(state.money) : null;
  return (
    <div
      ref={ref}
      className="ws-cost"
      aria-busy={busy ? 'true' : 'false'}
      data-status={state.status}
      data-testid="workspace-cost"
    >
      {state.status === 'running' ? (
        <p className="cp-note">
          Replaying {formatCount(state.progress.done)} of {formatCount(state.progress.total)}{' '}
          conversations…
        </p>
      ) : null}
      {state.message ? (
        <p className="ws-message ws-message-error" role="alert">
          {state.message}
        </p>
      ) : null}
      {state.money && sentences ? (
        <>
          <p className="ws-cost-headline">
            <span data-testid="workspace-total-cost">{sentences.total}</span>{' '}
            <span data-testid="workspace-cheapest">{sentences.cheapest}</span>
          </p>
          <ConversationCosts money={state.money} />
          <DayCosts money={state.money} />
          <Failed failed={state.failed} />
          <p className="cp-note">
            Cost: the recorded bill where the file recorded every request, else the session as it
            ran (stored), modelled under the Cost pane's model and prices, calibrated where fitted
            on the bill. Savings are {SAVING_BASIS.stored}, modelled, over JP's schedules with the
            config's rules; the folder's cheapest is one schedule for every conversation. The same
            as <code>replay --by-conversation</code>.
          </p>
        </>
      ) : state.status !== 'running' && !state.message ? (
        <p className="empty">
          {loading
            ? 'What each conversation cost appears once every conversation is counted.'
            : 'Computed when this section is in view.'}
        </p>
      ) : null}
    </div>
  );
}
