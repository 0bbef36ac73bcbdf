/**
 * The cost pane's tables: the schedules side by side with the recorded bill
 * beside them, the per-tool what-if in money, the policies side by side,
 * and the per-request figures a page at a time. Each scrolls in its own
 * named box, never the page.
 */
import { type ReactNode, useId } from 'react';
import { HINT_CHOICES } from '../../../core/config/tool-hints.ts';
import { formatCount, formatDollars, formatPercent } from '../../../core/counting/format.ts';
import type { HintChoice } from '../../../core/playground/types.ts';
import type { PolicyComparisonRow } from '../../../core/replay/compare-policies.ts';
import type { Replay, ToolWhatIf } from '../../../core/replay/replay.ts';
import { SCHEDULES, type ScheduleId } from '../../../core/replay/schedules.ts';
import { useRovingFocus } from '../../roving-focus.ts';
import { useCostView } from './CostView.tsx';
import '../panes.css';
import {
  cheapestRemovesDrawnOn,
  describeRequestNote,
  getChosenName,
  getModelBasis,
  SAVING_BASIS,
} from '../../../core/replay/presentation.ts';

/** Rows of the request table per page: a long conversation is read a page at a time. */
export const REQUEST_PAGE_SIZE = 50;

/**
 * A box a wide table scrolls sideways in, never the page. It takes focus so
 * a keyboard can scroll it (axe: scrollable-region-focusable), and is named
 * so a screen reader says what it holds.
 */
export function ScrollBox({
  label,
  labelledBy,
  children,
}: {
  label?: string;
  labelledBy?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named scroll box, not a page section
    <div
      className="cost-scroll"
      role="region"
      {...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': label })}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls it only when it can take focus
      tabIndex={0}
    >
      {children}
    </div>
  );
}

/** A comparison row's name: the policy and what its parameters are. */
export function rowName(row: PolicyComparisonRow): string {
  return row.policy.name === 'jp' ? `jp ${row.with}` : `${row.policy.name} (${row.with})`;
}

/** Every schedule side by side in tokens and dollars, with the recorded usage under them. */
export function SchedulesTable({ replay }: { replay: Replay }) {
  const computed = SCHEDULES.filter((s) => replay.schedules[s] !== undefined);
  const costOf = (s: ScheduleId) => replay.schedules[s] ?? 0;
  const cheapest = computed.reduce((best, s) => (costOf(s) < costOf(best) ? s : best));
  const baseline = costOf('none');
  const recorded = replay.recorded;
  const basis = getModelBasis(replay.calibration);
  return (
    <ScrollBox label="Schedules side by side">
      <table className="cp-table cost-schedules" aria-label="Cost per schedule">
        <thead>
          <tr>
            {/* Money first: Cost and Saved stay on screen at 390 px (issue 41). */}
            <th scope="col">Schedule</th>
            <th scope="col">Cost</th>
            <th scope="col">Saved</th>
            <th scope="col">Basis</th>
            <th scope="col">Input tokens</th>
            <th scope="col">Cache read</th>
            <th scope="col">Cache write</th>
            <th scope="col">Output</th>
          </tr>
        </thead>
        <tbody>
          {computed.map((schedule) => {
            const totals = replay.series?.[schedule]?.totals;
            const cost = costOf(schedule);
            // Under a runtime's policy no JP schedule is the chosen figures.
            const chosen = replay.policy.name === 'jp' && schedule === replay.schedule;
            const marks = [chosen ? 'chosen' : '', schedule === cheapest ? 'cheapest' : ''].filter(
              Boolean,
            );
            return (
              <tr key={schedule} data-schedule={schedule} data-chosen={chosen ? 'true' : undefined}>
                <th scope="row">
                  {schedule}
                  {marks.length > 0 ? <small> ({marks.join(', ')})</small> : null}
                </th>
                <td data-figure="cost">{formatDollars(cost)}</td>
                <td data-figure="saved">
                  {baseline === 0 ? '' : formatPercent(((baseline - cost) / baseline) * 100)}
                </td>
                <td data-figure="basis">{basis}</td>
                <td data-figure="prompt_tokens">
                  {totals ? formatCount(totals.prompt_tokens) : ''}
                </td>
                <td data-figure="cache_read">{totals ? formatCount(totals.cache_read) : ''}</td>
                <td data-figure="cache_write">{totals ? formatCount(totals.cache_write) : ''}</td>
                <td data-figure="output_tokens">
                  {totals ? formatCount(totals.output_tokens) : ''}
                </td>
              </tr>
            );
          })}
          {recorded ? (
            <tr data-schedule="recorded">
              <th scope="row">
                recorded <small>({formatCount(recorded.requests)} requests)</small>
              </th>
              <td data-figure="cost">{formatDollars(recorded.cost)}</td>
              <td />
              <td data-figure="basis">recorded</td>
              <td data-figure="prompt_tokens">{formatCount(recorded.prompt_tokens)}</td>
              <td data-figure="cache_read">{formatCount(recorded.cache_read_tokens)}</td>
              <td data-figure="cache_write">{formatCount(recorded.cache_write_tokens)}</td>
              <td data-figure="output_tokens">{formatCount(recorded.output_tokens)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {recorded ? (
        <p className="note" data-testid="cost-recorded">
          Recorded: the transcript's own usage on {formatCount(recorded.requests)} requests, priced
          at the model's rates (5-minute and 1-hour writes as recorded). On them, stored models{' '}
          {formatCount(recorded.modelled_prompt_tokens)} input tokens and{' '}
          {formatDollars(recorded.modelled_cost)}.
        </p>
      ) : null}
    </ScrollBox>
  );
}

/** Per tool, the cost under each of its six hint choices, others as configured. */
export function ToolsTable({
  tools,
  schedule,
  onOpenPrompt,
}: {
  tools: readonly ToolWhatIf[];
  schedule: ScheduleId;
  /** Opens the last request's prompt under `schedule` with this tool's hint replaced, in the diff. */
  onOpenPrompt?: (tool: string, choice: HintChoice) => void;
}) {
  const roving = useRovingFocus(tools.length * HINT_CHOICES.length, HINT_CHOICES.length);
  if (tools.length === 0) return <p className="empty">No tools in this conversation.</p>;
  return (
    <ScrollBox label="Per-tool what-if in money">
      <table className="cp-table cost-tools" aria-label="Cost per tool under each hint">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Cheapest</th>
            <th scope="col">Drawn on later</th>
            {HINT_CHOICES.map((choice) => (
              <th key={choice} scope="col">
                {choice}
              </th>
            ))}
          </tr>
        </thead>
        <tbody {...roving.container}>
          {tools.map((tool, row) => (
            <tr key={tool.name} data-tool={tool.name}>
              <th scope="row">{tool.name}</th>
              {/* The ★ choice and its cost beside the name: on screen at 390 px (issue 41). */}
              <td data-figure="cheapest">
                {tool.cheapest} {formatDollars(tool.what_if_cost[tool.cheapest])}
                {cheapestRemovesDrawnOn(tool) ? (
                  <span className="what-if-mark" data-loses="true">
                    {' '}
                    ⚠<span className="visually-hidden"> (removes results drawn on later)</span>
                  </span>
                ) : null}
              </td>
              <td data-figure="drawn_on_later">
                {formatCount(tool.drawn_on_later.drawn)} of{' '}
                {formatCount(tool.drawn_on_later.results)}
              </td>
              {HINT_CHOICES.map((choice, column) => {
                const marks = [
                  choice === tool.hint ? 'in force' : '',
                  choice === tool.cheapest ? 'cheapest' : '',
                ].filter(Boolean);
                return (
                  <td
                    key={choice}
                    data-choice={choice}
                    data-in-force={choice === tool.hint ? 'true' : undefined}
                    data-cheapest={choice === tool.cheapest ? 'true' : undefined}
                  >
                    {onOpenPrompt ? (
                      <button
                        type="button"
                        className="link-button"
                        {...roving.button(row * HINT_CHOICES.length + column)}
                        aria-label={`${tool.name} = ${choice}: ${formatDollars(tool.what_if_cost[choice])}; open the last request's prompt under ${schedule} with this hint in the diff`}
                        onClick={() => onOpenPrompt(tool.name, choice)}
                      >
                        {formatDollars(tool.what_if_cost[choice])}
                      </button>
                    ) : (
                      formatDollars(tool.what_if_cost[choice])
                    )}
                    {marks.length > 0 ? (
                      <span className="what-if-mark">
                        {choice === tool.hint ? ' ●' : ''}
                        {choice === tool.cheapest ? ' ★' : ''}
                        <span className="visually-hidden"> ({marks.join(', ')})</span>
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">
        The whole conversation's cost under {schedule} with that hint for that tool; ● in force, ★
        the cheapest; a figure opens the last request's prompt with that hint in the diff (the arrow
        keys move between figures). Drawn on later: the tool's results the model quoted or named
        afterwards (a path, an identifier, a line), a heuristic of what removing them may cost in
        answers, which the dollars do not show; ⚠ marks a cheapest choice that removes such results
        {tools.some((tool) => tool.cheapest === 'inherit' && tool.drawn_on_later.drawn > 0)
          ? ' (inherit: when the rule strips or omits tool results)'
          : ''}
        .
      </p>
    </ScrollBox>
  );
}

/** Every policy at its defaults and with the hints mapped, then JP's schedules, in tokens and dollars. */
export function PoliciesTable({
  rows,
  baseline,
}: {
  rows: readonly PolicyComparisonRow[];
  baseline: number;
}) {
  if (rows.length === 0) return null;
  const cheapest = rows.reduce((best, row) =>
    row.totals.schedule.cost < best.totals.schedule.cost ? row : best,
  );
  const notes = [
    ...new Set(rows.flatMap((row) => row.notes.map((note) => `${rowName(row)}: ${note}`))),
  ];
  return (
    <ScrollBox label="Policies side by side">
      <table className="cp-table cost-policies" aria-label="Cost per policy">
        <thead>
          <tr>
            <th scope="col">Policy</th>
            <th scope="col">Cost</th>
            <th scope="col">Saved</th>
            <th scope="col">Parameters</th>
            <th scope="col">Prompt tokens</th>
            <th scope="col">Cleared</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowName(row)} data-policy={row.policy.name} data-with={row.with}>
              <th scope="row">
                {row.policy.name}
                {row === cheapest ? <small> (cheapest)</small> : null}
              </th>
              <td data-figure="cost">{formatDollars(row.totals.schedule.cost)}</td>
              <td data-figure="saved">
                {baseline === 0 ? '' : formatPercent(row.totals.saved.percent)}
              </td>
              <td>{row.with === 'hints' ? 'your hints' : row.with}</td>
              <td data-figure="prompt_tokens">{formatCount(row.totals.schedule.prompt_tokens)}</td>
              <td data-figure="cleared">{formatCount(row.cleared)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">
        Saved {SAVING_BASIS.none}: the baseline, {formatDollars(baseline)}. Cleared: tool uses a
        policy cleared, trimmed, masked or truncated, summed over the requests (a result cleared
        again at each request counts each time); for JP, the compactions created.
      </p>
      {notes.length > 0 ? (
        <ul className="cost-notes" data-testid="cost-policy-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </ScrollBox>
  );
}

/** The chart's figures as a table, a page at a time, with the chosen schedule's details. */
export function RequestsTable({
  replay,
  measure,
  overlays,
  onOpenRequest,
}: {
  replay: Replay;
  measure: 'cost' | 'tokens';
  /** The chart's lines that are not JP schedules: a column each. */
  overlays: readonly Overlay[];
  /** Opens request k's prompt (1-based) under the chosen schedule or policy in the diff. */
  onOpenRequest?: (request: number) => void;
}) {
  const { page, setPage } = useCostView();
  const schedules = SCHEDULES.filter((s) => replay.series?.[s] !== undefined);
  const total = replay.requests.length;
  const pages = Math.max(1, Math.ceil(total / REQUEST_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const first = current * REQUEST_PAGE_SIZE;
  const rows = replay.requests.slice(first, first + REQUEST_PAGE_SIZE);
  const hasRecorded = replay.requests.some((r) => r.recorded !== null);
  const figure = (schedule: ScheduleId, k: number) => {
    const series = replay.series?.[schedule];
    if (!series) return '';
    return measure === 'cost'
      ? formatDollars(series.cost[k] ?? 0)
      : formatCount(series.prompt_tokens[k] ?? 0);
  };
  const captionId = useId();
  const roving = useRovingFocus(rows.length);
  return (
    <div className="cost-requests">
      <p className="cost-requests-caption" id={captionId}>
        Requests {formatCount(first + 1)}–{formatCount(first + rows.length)} of {formatCount(total)}
        : {measure === 'cost' ? 'cost' : 'prompt tokens'} per schedule, and {getChosenName(replay)}
        's cache
      </p>
      <ScrollBox labelledBy={captionId}>
        <table className="cp-table cost-requests-table" aria-labelledby={captionId}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">Turn</th>
              {schedules.map((schedule) => (
                <th key={schedule} scope="col" data-schedule={schedule}>
                  {schedule}
                </th>
              ))}
              {overlays.map((overlay) => (
                <th key={overlay.label} scope="col" data-overlay={overlay.label}>
                  {overlay.label}
                </th>
              ))}
              {/* What the file recorded beside the modelled figures, not off-screen at the end. */}
              {hasRecorded ? <th scope="col">Recorded input</th> : null}
              {hasRecorded ? <th scope="col">Recorded cost</th> : null}
              <th scope="col">Prefix</th>
              <th scope="col">Read</th>
              <th scope="col">Write</th>
              <th scope="col">Output</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody {...roving.container}>
            {rows.map((request, i) => {
              const k = first + i;
              return (
                <tr key={request.index} data-index={request.index}>
                  <th scope="row">
                    {onOpenRequest ? (
                      <button
                        type="button"
                        className="link-button"
                        {...roving.button(i)}
                        aria-label={`Request ${request.index}: open its prompt under ${getChosenName(replay)} in the diff`}
                        onClick={() => onOpenRequest(request.index)}
                      >
                        {request.index}
                      </button>
                    ) : (
                      request.index
                    )}
                  </th>
                  <td className="cost-time">{request.time ?? '–'}</td>
                  <td>{request.turn + 1}</td>
                  {schedules.map((schedule) => (
                    <td key={schedule} data-schedule={schedule}>
                      {figure(schedule, k)}
                    </td>
                  ))}
                  {overlays.map((overlay) => (
                    <td key={overlay.label} data-overlay={overlay.label}>
                      {measure === 'cost'
                        ? formatDollars(overlay.cost[k] ?? 0)
                        : formatCount(overlay.prompt_tokens[k] ?? 0)}
                    </td>
                  ))}
                  {hasRecorded ? (
                    <td data-figure="recorded">
                      {request.recorded ? formatCount(request.recorded.prompt_tokens) : ''}
                    </td>
                  ) : null}
                  {hasRecorded ? (
                    <td data-figure="recorded_cost">
                      {request.recorded_cost === null ? '' : formatDollars(request.recorded_cost)}
                    </td>
                  ) : null}
                  <td data-figure="prefix_tokens">{formatCount(request.prefix_tokens)}</td>
                  <td data-figure="cache_read">{formatCount(request.cache_read)}</td>
                  <td data-figure="cache_write">{formatCount(request.cache_write)}</td>
                  <td data-figure="output_tokens">{formatCount(request.output_tokens)}</td>
                  <td data-figure="note">{describeRequestNote(request)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollBox>
      {pages > 1 ? (
        <nav className="cost-pages" aria-label="Pages of requests">
          <button
            type="button"
            className="small"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            Previous {REQUEST_PAGE_SIZE}
          </button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <button
            type="button"
            className="small"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Next {REQUEST_PAGE_SIZE}
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** One line the chart can draw: per request, cost and prompt tokens. */
export interface Overlay {
  label: string;
  cost: readonly number[];
  prompt_tokens: readonly number[];
  /** The JP schedule it is, when it is one (the request table has a column per schedule). */
  schedule?: ScheduleId;
}
