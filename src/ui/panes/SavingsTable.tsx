/**
 * The savings table: per tool, what its requests and responses cost before
 * and after compaction, what was saved, and which hint decided it; then the
 * totals split into tool requests, tool responses, reasoning and messages.
 */
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { formatChange, formatCount, formatPercent } from '../../core/counting/format.ts';
import {
  type Amount,
  type BeforeAfter,
  compareToolRowNames,
  describeToolName,
  getToolRowKey,
  getToolRowLabel,
  PAYLOAD_GROUPS,
  type PayloadGroup,
  type Report,
  savedPercent,
  type ToolRow,
} from '../../core/counting/report.ts';
import { TOKENIZER_LABELS } from '../../core/counting/tokens.ts';
import type { HintSource, ToolHintInfo } from '../../core/playground/types.ts';
import { BreakableName } from '../BreakableName.tsx';
import { useMediaQuery } from '../use-media-query.ts';
import { getRowCount, getRowIndex, getScrollBoxProps, useVirtualRows } from '../virtual-rows.tsx';
import './panes.css';

/** The width at which panes.css lays the table out for a phone (its name column wraps). */
const PHONE_QUERY = '(max-width: 600px)';

/** Props of {@link SavingsTable}. */
export interface SavingsTableProps {
  /** The report of the current result. */
  report: Report;
  /** The hint in force for each tool and where it comes from. */
  tools: ToolHintInfo[];
  /** The selected tool's row name, or null. */
  selectedTool: string | null;
  /** Called with a row name when a row is selected, and with null when the selected row is chosen again. */
  onSelectTool: (name: string | null) => void;
  /** What selecting a row does, said above the table. Default: it follows the tool in the transcript. */
  selectNote?: string;
  /** What an empty table says. Default: no tool calls in this conversation. */
  emptyText?: string;
}

/** The sortable columns. */
export type SortKey = 'name' | 'calls' | 'request' | 'response' | 'saved' | 'savedPercent' | 'hint';

type Direction = 'ascending' | 'descending';

interface Sort {
  key: SortKey;
  direction: Direction;
}

/** How the totals' groups are named, and what each counts. */
export const GROUP_LABELS: Record<PayloadGroup, { label: string; counts: string }> = {
  toolRequests: { label: 'Tool requests', counts: 'tool call arguments' },
  toolResponses: { label: 'Tool responses', counts: 'tool response content' },
  reasoning: { label: 'Reasoning', counts: 'reasoning text' },
  messages: {
    label: 'Messages',
    counts: 'user requests, assistant messages and structured answers',
  },
};

const SOURCE_LABELS: Record<HintSource, string> = {
  tool: 'own hint',
  '*': "from '*'",
  rule: "rule's tool_calls",
};

const COLUMNS: { key: SortKey; label: string; numeric: boolean }[] = [
  { key: 'name', label: 'Tool', numeric: false },
  { key: 'calls', label: 'Calls', numeric: true },
  { key: 'request', label: 'Request tokens (before → after)', numeric: true },
  { key: 'response', label: 'Response tokens (before → after)', numeric: true },
  { key: 'saved', label: 'Saved tokens', numeric: true },
  { key: 'savedPercent', label: 'Saved %', numeric: true },
  { key: 'hint', label: 'Hint in force', numeric: false },
];

// Rows stay in name order until the user asks otherwise: figures change with
// every edit, and rows that jump around under the cursor are hard to follow.
const DEFAULT_SORT: Sort = { key: 'name', direction: 'ascending' };

function total(pair: BeforeAfter, side: 'before' | 'after'): number {
  return pair[side].tokens;
}

function rowBefore(row: ToolRow): number {
  return row.request.before.tokens + row.response.before.tokens;
}

function rowAfter(row: ToolRow): number {
  return row.request.after.tokens + row.response.after.tokens;
}

function rowPercent(row: ToolRow): number {
  return savedPercent(row.saved.tokens, rowBefore(row));
}

function hintText(info: ToolHintInfo | undefined): string {
  return info?.hint ?? '';
}

// The orphan row is not a tool: it stays last whichever way names sort.
const compareNames = compareToolRowNames;

const hintOf = (hints: Map<string, ToolHintInfo>, row: ToolRow) =>
  row.name === null ? undefined : hints.get(row.name);

function sortRows(rows: readonly ToolRow[], sort: Sort, hints: Map<string, ToolHintInfo>) {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const value = (row: ToolRow): number | string => {
    switch (sort.key) {
      case 'name':
        return getToolRowLabel(row.name);
      case 'calls':
        return row.calls;
      case 'request':
        return total(row.request, 'before');
      case 'response':
        return total(row.response, 'before');
      case 'saved':
        return row.saved.tokens;
      case 'savedPercent':
        return rowPercent(row);
      case 'hint':
        return hintText(hintOf(hints, row));
    }
  };
  return [...rows].sort((a, b) => {
    if (sort.key === 'name') {
      const unknownLast = a.name === null || b.name === null;
      return unknownLast ? compareNames(a.name, b.name) : sign * compareNames(a.name, b.name);
    }
    const va = value(a);
    const vb = value(b);
    const order =
      typeof va === 'number' && typeof vb === 'number'
        ? va - vb
        : String(va).localeCompare(String(vb));
    // Ties fall back to name order, so equal rows do not shuffle.
    return order !== 0 ? sign * order : compareNames(a.name, b.name);
  });
}

function Chars({ before, after }: { before: Amount; after: Amount }) {
  return <span className="cp-secondary">{formatChange(before.chars, after.chars)} chars</span>;
}

function ShareBar({ row, scale }: { row: ToolRow; scale: number }) {
  const width = (tokens: number) => `${scale === 0 ? 0 : (tokens / scale) * 100}%`;
  const label =
    `Before: requests ${formatCount(row.request.before.tokens)} tokens, ` +
    `responses ${formatCount(row.response.before.tokens)}. ` +
    `After: requests ${formatCount(row.request.after.tokens)}, ` +
    `responses ${formatCount(row.response.after.tokens)}.`;
  return (
    <div
      className="cp-share"
      role="img"
      aria-label={label}
      title={`${label} Top bar before, bottom bar after; requests in the first colour, responses in the second; one scale for every row.`}
    >
      {(['before', 'after'] as const).map((side) => (
        <div key={side} className={`cp-share-line cp-share-${side}`}>
          <span className="cp-share-request" style={{ width: width(row.request[side].tokens) }} />
          <span className="cp-share-response" style={{ width: width(row.response[side].tokens) }} />
        </div>
      ))}
    </div>
  );
}

function HintCell({ orphan, info }: { orphan: boolean; info: ToolHintInfo | undefined }) {
  if (orphan) {
    return (
      <span title="A response with no matching request has no tool name, so no hint can match it.">
        <span className="cp-secondary-inline">rule's tool_calls</span>
      </span>
    );
  }
  if (!info || info.hint === null) {
    return <span className="cp-secondary-inline">{SOURCE_LABELS[info?.source ?? 'rule']}</span>;
  }
  if (info.ignored !== undefined) {
    return (
      <span>
        <del>
          <code>{info.hint}</code>
        </del>{' '}
        <span className="cp-secondary">{info.ignored}</span>
      </span>
    );
  }
  return (
    <span>
      <code>{info.hint}</code> <span className="cp-secondary">{SOURCE_LABELS[info.source]}</span>
    </span>
  );
}

function SavedCell({ saved, percent }: { saved: Amount; percent?: number }) {
  const negative = percent === undefined ? saved.tokens < 0 : percent < 0;
  return (
    <span
      className={negative ? 'cp-negative' : undefined}
      title={negative ? 'Negative: after compaction this text is longer than before.' : undefined}
    >
      {percent === undefined ? formatCount(saved.tokens) : formatPercent(percent)}
    </span>
  );
}

/** Savings per tool, sortable and selectable, with the totals below. */
export function SavingsTable({
  report,
  tools,
  selectedTool,
  onSelectTool,
  selectNote = 'Select a row (click, or Enter) to follow that tool in the transcript below; arrow keys move between rows.',
  emptyText = 'No tool calls in this conversation.',
}: SavingsTableProps) {
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const hintId = useId();
  const hints = useMemo(() => new Map(tools.map((info) => [info.name, info])), [tools]);
  const rows = useMemo(() => sortRows(report.tools, sort, hints), [report.tools, sort, hints]);
  // One scale for every bar, so rows compare with each other.
  const scale = useMemo(
    () => Math.max(0, ...report.tools.map((row) => Math.max(rowBefore(row), rowAfter(row)))),
    [report.tools],
  );

  const toggleSort = (key: SortKey, numeric: boolean) => {
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : // Biggest first is what one looks for in a figure column.
          { key, direction: numeric ? 'descending' : 'ascending' },
    );
  };

  const select = (name: string) => onSelectTool(name === selectedTool ? null : name);

  const scrollRef = useRef<HTMLDivElement>(null);
  // On a phone a name wraps at its separators (<wbr>); wider, it stays on one
  // line, cut with an ellipsis: Chromium breaks at <wbr> even under nowrap.
  const wrapNames = useMediaQuery(PHONE_QUERY);
  const body = useVirtualRows({
    count: rows.length,
    columns: COLUMNS.length,
    scrollRef,
    estimateHeight: 48,
  });

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number, name: string) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(name);
      return;
    }
    // By index, not by sibling: a virtual table has not drawn the rows out of view.
    const target =
      event.key === 'ArrowDown'
        ? index + 1
        : event.key === 'ArrowUp'
          ? index - 1
          : event.key === 'Home' && event.ctrlKey
            ? 0
            : event.key === 'End' && event.ctrlKey
              ? rows.length - 1
              : null;
    if (target === null) return;
    event.preventDefault();
    if (target >= 0 && target < rows.length) body.focusRowWhenDrawn(target);
  };

  const totals = report.totals;
  return (
    <div className="cp-pane cp-savings">
      <p id={hintId} className="cp-note">
        {selectNote}
      </p>
      <div ref={scrollRef} {...getScrollBoxProps('cp-scroll', body.virtual)}>
        <table
          className="cp-table cp-tools"
          aria-describedby={hintId}
          aria-rowcount={getRowCount(Math.max(rows.length, 1))}
        >
          <caption>Savings per tool</caption>
          <thead>
            <tr aria-rowindex={1}>
              {COLUMNS.map((column) => (
                <SortHeader key={column.key} column={column} sort={sort} onSort={toggleSort} />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr aria-rowindex={2}>
                <td colSpan={COLUMNS.length} className="cp-empty">
                  {emptyText}
                </td>
              </tr>
            ) : (
              <>
                {body.before}
                {body.rows.map(({ index, measure }) => {
                  const row = rows[index] as ToolRow;
                  const key = getToolRowKey(row.name);
                  const selected = key === selectedTool;
                  const label = getToolRowLabel(row.name);
                  const { text, tag, detail } = describeToolName(row.name);
                  return (
                    <tr
                      key={key}
                      ref={measure}
                      data-row-index={index}
                      aria-rowindex={getRowIndex(index)}
                      className={selected ? 'cp-row cp-row-selected' : 'cp-row'}
                      aria-selected={selected}
                      tabIndex={0}
                      onClick={() => select(key)}
                      onKeyDown={(event) => onRowKeyDown(event, index, key)}
                    >
                      <th scope="row" className="cp-tool-name">
                        {/* Long MCP names are cut with an ellipsis; the full name is the text (so the accessible name) and the tooltip. */}
                        <span className="cp-truncate" title={label}>
                          {wrapNames ? <BreakableName name={text} /> : text}
                        </span>
                        {/* Rows that read the same (a tool named "(unknown)" and the orphan row, NFC and NFD) differ by this tag, in the accessible name too. */}
                        {tag !== undefined && (
                          <span className="cp-name-tag" title={detail}>
                            {` [${tag}]`}
                          </span>
                        )}
                      </th>
                      <td className="cp-num">{formatCount(row.calls)}</td>
                      <td className="cp-num">
                        {formatChange(row.request.before.tokens, row.request.after.tokens)}
                        <Chars before={row.request.before} after={row.request.after} />
                      </td>
                      <td className="cp-num">
                        {formatChange(row.response.before.tokens, row.response.after.tokens)}
                        <Chars before={row.response.before} after={row.response.after} />
                      </td>
                      <td className="cp-num">
                        <SavedCell saved={row.saved} />
                        <span className="cp-secondary">{formatCount(row.saved.chars)} chars</span>
                      </td>
                      <td className="cp-num">
                        <SavedCell saved={row.saved} percent={rowPercent(row)} />
                        <ShareBar row={row} scale={scale} />
                      </td>
                      <td>
                        <HintCell orphan={row.name === null} info={hintOf(hints, row)} />
                      </td>
                    </tr>
                  );
                })}
                {body.after}
              </>
            )}
          </tbody>
        </table>
      </div>

      <div className="cp-scroll">
        <table className="cp-table cp-totals">
          <caption>Totals by content type</caption>
          <thead>
            <tr>
              <th scope="col">Content</th>
              <th scope="col" className="cp-num">
                Tokens (before → after)
              </th>
              <th scope="col" className="cp-num">
                Saved tokens
              </th>
              <th scope="col" className="cp-num">
                Saved %
              </th>
              <th scope="col" className="cp-num">
                Characters (before → after)
              </th>
            </tr>
          </thead>
          <tbody>
            {PAYLOAD_GROUPS.map((group) => (
              <TotalsRow
                key={group}
                group={group}
                label={GROUP_LABELS[group].label}
                counts={GROUP_LABELS[group].counts}
                pair={report.groups[group]}
              />
            ))}
          </tbody>
          <tfoot>
            <TotalsRow
              group="all"
              label="All counted text"
              counts="everything above"
              pair={totals}
            />
          </tfoot>
        </table>
      </div>

      <p className="cp-note">
        Tokens: {TOKENIZER_LABELS[report.tokenizer]}. Counted: payload text only (tool arguments,
        tool response content, message and reasoning text); not ids, tool names, timestamps,
        metadata or provider framing. No tokenizer here is exact for Claude: figures for Claude
        models are approximate.
      </p>
    </div>
  );
}

/** One line of the totals: tokens before → after, saved, saved %, and characters. */
function TotalsRow({
  group,
  label,
  counts,
  pair,
}: {
  group: PayloadGroup | 'all';
  label: string;
  /** What the line counts, shown on hover. */
  counts: string;
  pair: BeforeAfter;
}) {
  const saved = {
    tokens: pair.before.tokens - pair.after.tokens,
    chars: pair.before.chars - pair.after.chars,
  };
  return (
    <tr data-group={group}>
      <th scope="row" title={`Counts ${counts}`}>
        {label}
      </th>
      <td className="cp-num">{formatChange(pair.before.tokens, pair.after.tokens)}</td>
      <td className="cp-num">
        <SavedCell saved={saved} />
      </td>
      <td className="cp-num">
        <SavedCell saved={saved} percent={savedPercent(saved.tokens, pair.before.tokens)} />
      </td>
      <td className="cp-num cp-chars">{formatChange(pair.before.chars, pair.after.chars)}</td>
    </tr>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: Sort;
  onSort: (key: SortKey, numeric: boolean) => void;
}) {
  const active = sort.key === column.key;
  return (
    <th
      scope="col"
      aria-sort={active ? sort.direction : undefined}
      className={column.numeric ? 'cp-num' : undefined}
    >
      <button type="button" className="cp-sort" onClick={() => onSort(column.key, column.numeric)}>
        {column.label}
        <span className="cp-sort-mark" aria-hidden="true">
          {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
