/**
 * Why an event looks as it does after compaction: its turn, which compaction
 * decided each content type on that turn, where the tool policy came from,
 * and that policy in words. With nothing selected it lists the events to pick
 * from. Every piece of conversation text is rendered as text.
 */
import {
  type KeyboardEvent,
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { formatCount } from '../../core/counting/format.ts';
import type {
  EventExplanation,
  SlotDecision,
  TranscriptEntry,
} from '../../core/playground/types.ts';
import './panes.css';
import { scrollWithinList, useVirtualRows } from '../virtual-rows.tsx';
import { describePolicy, formatTurn, formatTurns } from './policy-words.ts';
import { ADDED_BY_SANITIZE, formatLabel } from './transcript-text.ts';

/** Props of {@link ExplainPanel}. */
export interface ExplainPanelProps {
  /** The provider view with no compaction (to find events compaction removed). */
  before: TranscriptEntry[];
  /** The provider view after compaction; its entries carry the explanations. */
  after: TranscriptEntry[];
  /** The event to explain, by key, or null to show the list. */
  selectedEventKey: string | null;
  /** Called with a key when an event is picked, and with null to go back to the list. */
  onSelectEvent: (key: string | null) => void;
}

/** What each outcome is called. */
export type Outcome = EventExplanation['outcome'];

/** A short name for each outcome. */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  unchanged: 'Unchanged',
  stripped: 'Stripped',
  omitted: 'Omitted',
  summarized: 'Summarized',
  injected: 'Added by a summary',
  'reasoning-stripped': 'Reasoning stripped',
};

/** Said when the core's explanation carries no sentence of its own. */
export const OUTCOME_SENTENCES: Record<Outcome, string> = {
  unchanged: 'The model sees this event as it was written.',
  stripped: 'A tool policy replaced part of this event before the model sees it.',
  omitted: 'A tool policy removed this event: the model does not see it.',
  summarized: 'A summary replaced this turn: the model sees the summary instead of this event.',
  injected: 'A summary compaction added this event in place of the turns it summarizes.',
  'reasoning-stripped': 'A compaction strips reasoning on this turn: the model does not see it.',
};

/** How many characters of an event's text the panel shows. */
const TEXT_LIMIT = 2000;
const PREVIEW_CHARS = 70;

const TOOL_TYPES: ReadonlySet<string> = new Set(['tool_call_request', 'tool_call_response']);

interface ListItem {
  entry: TranscriptEntry;
  /** True for events compaction removed (in "before" only). */
  removed: boolean;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

/**
 * Names the compaction behind a decision as the timeline numbers it, e.g.
 * "compaction #2 (already in the stream), created …, covering turns 2..5".
 */
export function describeDecision(decision: SlotDecision): string {
  const state = decision.isNew ? 'previewed, not yet in the stream' : 'already in the stream';
  return `compaction #${decision.timelineIndex + 1} (${state}), created ${decision.timestamp}, covering ${formatTurns(decision.range)}`;
}

function Decision({
  label,
  decision,
  none,
}: {
  label: string;
  decision: SlotDecision | undefined;
  none: string;
}) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{decision ? describeDecision(decision) : none}</dd>
    </>
  );
}

function Explanation({
  entry,
  explanation,
}: {
  entry: TranscriptEntry;
  explanation: EventExplanation;
}) {
  const isTool = TOOL_TYPES.has(entry.type);
  const policy = explanation.toolPolicy;
  return (
    <>
      <p className="cp-explain-sentence">
        <span className={`cp-badge cp-outcome-${explanation.outcome}`}>
          {OUTCOME_LABELS[explanation.outcome]}
        </span>{' '}
        {explanation.sentence || OUTCOME_SENTENCES[explanation.outcome]}
      </p>
      <dl className="cp-facts">
        <dt>Turn</dt>
        <dd>{formatTurn(explanation.turn)}</dd>
        <Decision
          label="Summary"
          decision={explanation.summary}
          none="no compaction summarizes this turn"
        />
        <Decision
          label="Reasoning"
          decision={explanation.reasoning}
          none="no compaction strips reasoning on this turn"
        />
        <Decision
          label="Tool calls"
          decision={explanation.toolCalls}
          none="no compaction with tool_calls covers this turn, so no hint applies (a hint only refines a rule's tool_calls)"
        />
        {isTool && policy ? (
          <>
            <dt>Policy from</dt>
            <dd>
              {policy.from === 'tool_overrides'
                ? `that compaction's tool_overrides: the ${entry.toolName ?? 'tool'} hint, frozen when it was created`
                : "that compaction's tool_calls: its default for tools without a hint of their own"}
            </dd>
            <dt>Effective policy</dt>
            <dd>{describePolicy(policy.policy)}</dd>
          </>
        ) : null}
      </dl>
      {explanation.summary && explanation.outcome !== 'injected' ? (
        <p className="cp-note">A summary wins over reasoning and tool policies on its turns.</p>
      ) : null}
    </>
  );
}

function Details({
  entry,
  removed,
  beforeTokens,
  onBack,
}: {
  entry: TranscriptEntry;
  removed: boolean;
  beforeTokens: number | undefined;
  onBack: () => void;
}) {
  const text = entry.text.length > TEXT_LIMIT ? `${entry.text.slice(0, TEXT_LIMIT)}…` : entry.text;
  return (
    <article className="cp-explain" aria-label={`Why ${formatLabel(entry)} looks as it does`}>
      <div className="cp-toolbar">
        <button type="button" onClick={onBack}>
          All events
        </button>
      </div>
      <h3 className="cp-explain-title">
        <code>{formatLabel(entry)}</code>
        {entry.sanitize === 'added' ? <span className="cp-badge">{ADDED_BY_SANITIZE}</span> : null}
      </h3>
      {entry.explanation ? (
        <Explanation entry={entry} explanation={entry.explanation} />
      ) : (
        <p className="cp-explain-sentence">
          {removed
            ? 'Compaction removed this event: the model does not see it.'
            : 'No explanation is available for this event.'}
        </p>
      )}
      <p className="cp-note">
        On each turn, each content type (summary, reasoning, tool calls) is decided by the
        compaction with the latest timestamp that covers it; on a tie, the later one in the stream
        wins.
      </p>
      <dl className="cp-facts">
        <dt>Tokens</dt>
        <dd>
          {removed
            ? `${formatCount(entry.tokens)} → 0`
            : beforeTokens === undefined
              ? `${formatCount(entry.tokens)} (not in the view before compaction)`
              : `${formatCount(beforeTokens)} → ${formatCount(entry.tokens)}`}
        </dd>
      </dl>
      <h4 className="cp-explain-subtitle">
        {removed ? 'Text before compaction' : 'Text the model sees'}
      </h4>
      <pre className="cp-explain-text">{text === '' ? '(empty)' : text}</pre>
    </article>
  );
}

/** Scrolls the least that shows `element`, smoothly unless the reader asked for less motion. */
function bringIntoView(element: HTMLElement | null): void {
  if (!element || typeof element.scrollIntoView !== 'function') return;
  const reduceMotion =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'nearest', behavior: reduceMotion ? 'auto' : 'smooth' });
}

/** Explains the selected event, or lists the events to choose from. */
export function ExplainPanel({
  before,
  after,
  selectedEventKey,
  onSelectEvent,
}: ExplainPanelProps) {
  const afterKeys = useMemo(() => new Set(after.map((entry) => entry.key)), [after]);
  const beforeByKey = useMemo(() => new Map(before.map((entry) => [entry.key, entry])), [before]);
  const items = useMemo<ListItem[]>(
    () => [
      ...after.map((entry) => ({ entry, removed: false })),
      ...before
        .filter((entry) => !afterKeys.has(entry.key))
        .map((entry) => ({ entry, removed: true })),
    ],
    [before, after, afterKeys],
  );

  const selected =
    selectedEventKey === null
      ? undefined
      : items.find((item) => item.entry.key === selectedEventKey);

  // A line clicked in the diff above fills this pane in, often below the
  // fold: bring it into view when the selection changes, never when the pane
  // merely mounts again with a selection (scrolling near it must not jump).
  const detailsRef = useRef<HTMLDivElement>(null);
  const revealedKey = useRef(selectedEventKey);
  useEffect(() => {
    if (selectedEventKey === revealedKey.current) return;
    revealedKey.current = selectedEventKey;
    if (selectedEventKey !== null) bringIntoView(detailsRef.current);
  }, [selectedEventKey]);

  if (selected) {
    return (
      <div className="cp-pane cp-explain-pane" ref={detailsRef}>
        <Details
          entry={selected.entry}
          removed={selected.removed}
          beforeTokens={beforeByKey.get(selected.entry.key)?.tokens}
          onBack={() => onSelectEvent(null)}
        />
      </div>
    );
  }
  return (
    <div className="cp-pane cp-explain-pane">
      {selectedEventKey !== null ? (
        <p className="cp-note">The selected event is not in this result any more.</p>
      ) : null}
      <EventList items={items} onPick={onSelectEvent} />
    </div>
  );
}

interface EventOptionProps {
  id: string;
  index: number;
  /** Its row in the list (headings included), for the virtual list to measure it. */
  rowIndex: number;
  /** Its place in its group, and the group's size: a virtual list draws only some of them. */
  position: number;
  groupSize: number;
  measure: ((node: Element | null) => void) | undefined;
  entry: TranscriptEntry;
  active: boolean;
  onPick: (index: number, key: string) => void;
}

/**
 * One event of the list. Memoised on what it shows: every result brings new
 * entry objects, and a long conversation lists hundreds of events, of which
 * an edit changes a few.
 */
const EventOption = memo(
  function EventOption({
    id,
    index,
    rowIndex,
    position,
    groupSize,
    measure,
    entry,
    active,
    onPick,
  }: EventOptionProps) {
    const outcome = entry.explanation?.outcome;
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys
      <div
        ref={measure}
        data-row-index={rowIndex}
        id={id}
        role="option"
        tabIndex={-1}
        aria-selected={active}
        aria-posinset={position}
        aria-setsize={groupSize}
        className={active ? 'cp-option cp-option-active' : 'cp-option'}
        onClick={() => onPick(index, entry.key)}
      >
        <code>{formatLabel(entry)}</code>
        {outcome ? (
          <span className={`cp-badge cp-outcome-${outcome}`}>{OUTCOME_LABELS[outcome]}</span>
        ) : null}
        <span className="cp-secondary">{preview(entry.text)}</span>
      </div>
    );
  },
  (a, b) =>
    a.onPick === b.onPick &&
    a.id === b.id &&
    a.index === b.index &&
    a.rowIndex === b.rowIndex &&
    a.position === b.position &&
    a.groupSize === b.groupSize &&
    a.measure === b.measure &&
    a.active === b.active &&
    a.entry.key === b.entry.key &&
    a.entry.type === b.entry.type &&
    a.entry.part === b.entry.part &&
    a.entry.toolName === b.entry.toolName &&
    a.entry.id === b.entry.id &&
    a.entry.text === b.entry.text &&
    a.entry.explanation?.outcome === b.entry.explanation?.outcome,
);

/** A row of the event list: a group's heading, or an event. */
type ListRow = { kind: 'heading'; group: number } | { kind: 'option'; index: number };

/** A row's height before it is measured: one line of label, badge and preview. */
const ROW_HEIGHT = 42;

/**
 * The events to pick from, in two groups (what the model sees, and what
 * compaction removed). A long conversation lists thousands of events: from
 * `VIRTUAL_FROM` rows on, only those in view of the list's scroll box are
 * drawn (`virtual-rows.tsx`), not every one with `content-visibility: auto`
 * (the browser watches each such element with an intersection observer of
 * its own, computed in every frame). Each option says its place in its group
 * (`aria-posinset`), since a screen reader counts only those drawn.
 */
function EventList({ items, onPick }: { items: ListItem[]; onPick: (key: string) => void }) {
  const baseId = useId();
  const [active, setActive] = useState(0);
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const clamped = Math.min(active, Math.max(0, items.length - 1));
  const activeId = optionId(clamped);

  const { groups, rows, rowOf } = useMemo(() => {
    const removedStart = items.findIndex((item) => item.removed);
    const groups: { label: string; start: number; end: number }[] = [
      {
        label: 'What the model sees after compaction',
        start: 0,
        end: removedStart === -1 ? items.length : removedStart,
      },
    ];
    if (removedStart !== -1) {
      groups.push({ label: 'Removed by compaction', start: removedStart, end: items.length });
    }
    const rows: ListRow[] = [];
    const rowOf: number[] = [];
    groups.forEach((group, groupIndex) => {
      rows.push({ kind: 'heading', group: groupIndex });
      for (let index = group.start; index < group.end; index++) {
        rowOf.push(rows.length);
        rows.push({ kind: 'option', index });
      }
    });
    return { groups, rows, rowOf };
  }, [items]);

  const listRef = useRef<HTMLDivElement>(null);
  const body = useVirtualRows({
    count: items.length === 0 ? 0 : rows.length,
    columns: 1,
    scrollRef: listRef,
    estimateHeight: ROW_HEIGHT,
  });
  const { virtual, scrollToRow } = body;
  const activeRow = rowOf[clamped] ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `scrollToRow` is new on every render; the active row is what matters
  useEffect(() => {
    // Keep the active option in view by scrolling the list only (virtual-rows.tsx).
    if (virtual) {
      scrollToRow(activeRow);
      return;
    }
    const list = listRef.current;
    const option = document.getElementById(activeId);
    if (list && option) scrollWithinList(list, option);
  }, [activeId, activeRow, virtual]);

  const pick = useCallback(
    (index: number, key: string) => {
      setActive(index);
      onPick(key);
    },
    [onPick],
  );

  if (items.length === 0) {
    return <p className="cp-empty">No events to explain yet.</p>;
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(clamped + 1, last),
      ArrowUp: Math.max(clamped - 1, 0),
      PageDown: Math.min(clamped + 10, last),
      PageUp: Math.max(clamped - 10, 0),
      Home: 0,
      End: last,
    };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setActive(move);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const item = items[clamped];
      if (item) onPick(item.entry.key);
    }
  };

  // The drawn rows by group, in order: a group is drawn while any of its rows is.
  const drawn = groups
    .map((group, groupIndex) => {
      const groupRows = body.rows.filter(({ index }) => {
        const row = rows[index];
        return row?.kind === 'heading'
          ? row.group === groupIndex
          : row !== undefined && row.index >= group.start && row.index < group.end;
      });
      const headingDrawn = groupRows.some(({ index }) => rows[index]?.kind === 'heading');
      return { group, rows: groupRows, headingDrawn };
    })
    .filter(({ rows: groupRows }) => groupRows.length > 0);
  // A list scrolled away from its active option has none until a key moves it back.
  const activeDrawn = body.rows.some(({ index }) => index === activeRow);

  return (
    <>
      <p className="cp-note" id={`${baseId}-help`}>
        Pick an event to see why it looks as it does: arrow keys move, Enter picks.
      </p>
      <div
        ref={listRef}
        className="cp-listbox"
        role="listbox"
        tabIndex={0}
        aria-label="Events"
        aria-describedby={`${baseId}-help`}
        aria-activedescendant={activeDrawn ? activeId : undefined}
        data-virtual={virtual ? 'true' : undefined}
        onKeyDown={onKeyDown}
      >
        {body.spaceBefore > 0 ? (
          <div aria-hidden="true" style={{ height: body.spaceBefore }} />
        ) : null}
        {drawn.map(({ group, rows: groupRows, headingDrawn }) => (
          // biome-ignore lint/a11y/useSemanticElements: an ARIA group of options, not a form fieldset
          <div key={group.label} role="group" aria-label={group.label}>
            {headingDrawn ? null : (
              // Its heading row is scrolled far away: pinned over the rows
              // instead, taking no height, so the rows keep their places.
              <div className="cp-listbox-pinned" aria-hidden="true">
                <div className="cp-listbox-group">{group.label}</div>
              </div>
            )}
            {groupRows.map(({ index: rowIndex, measure }) => {
              const row = rows[rowIndex];
              if (row?.kind === 'heading') {
                return (
                  <div
                    key={`heading-${row.group}`}
                    ref={measure}
                    data-row-index={rowIndex}
                    className="cp-listbox-group"
                    aria-hidden="true"
                  >
                    {group.label}
                  </div>
                );
              }
              const item = row ? items[row.index] : undefined;
              if (!row || !item) return null;
              return (
                <EventOption
                  key={item.entry.key}
                  id={optionId(row.index)}
                  index={row.index}
                  rowIndex={rowIndex}
                  position={row.index - group.start + 1}
                  groupSize={group.end - group.start}
                  measure={measure}
                  entry={item.entry}
                  active={row.index === clamped}
                  onPick={pick}
                />
              );
            })}
          </div>
        ))}
        {body.spaceAfter > 0 ? (
          <div aria-hidden="true" style={{ height: body.spaceAfter }} />
        ) : null}
      </div>
    </>
  );
}
