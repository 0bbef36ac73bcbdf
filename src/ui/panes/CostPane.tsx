/**
 * The cost pane (issue 21): what the conversation cost, request by request,
 * with prompt caching, under each schedule of compactions (core/replay).
 * Controls for the model or custom prices, the schedule and the scaling to
 * recorded usage; the schedules side by side in tokens and dollars, the
 * recorded usage beside what `stored` models, the per-tool what-if in money,
 * and a chart of each schedule per request with a table of the same rows.
 * Presentational: the adapter hands it the replay and the actions.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { HINT_CHOICES } from '../../core/analyses/hint-table.ts';
import { formatCount, formatDollars, formatPercent } from '../../core/counting/format.ts';
import { MODELS } from '../../core/replay/prices.ts';
import type { Replay, ReplayRequest } from '../../core/replay/replay.ts';
import { type ReplayChoice, SCHEDULES, type ScheduleId } from '../../core/replay/schedules.ts';
import type { Theme } from '../../state/app-state.ts';
import { CHART_COLOURS, type ChartLine, CostChart } from './CostChart.tsx';
import './panes.css';

/** Props of {@link CostControls}. */
export interface CostControlsProps {
  choice: Required<ReplayChoice>;
  onChange: (change: Partial<ReplayChoice>) => void;
  /** Why the latest choices give no replay (a price or model that does not read), or null. */
  problem: string | null;
}

/** Props of {@link CostFigures}. */
export interface CostFiguresProps {
  /** The latest input's replay, or the last good one while the choices have an error. */
  replay: Replay;
  theme: Theme;
}

const CUSTOM = 'custom';

/** Rows of the request table per page: a long conversation is read a page at a time. */
export const REQUEST_PAGE_SIZE = 50;

const SCHEDULE_WORDS: Record<ScheduleId, string> = {
  none: 'no compaction at all (the baseline)',
  stored: 'the compactions stored in the stream, each from where it stands',
  'every-turn': "stored, plus the config's rules at the first request of every turn",
  auto: "stored, plus JP's draft automatic compaction when the prompt passes the trigger",
  idle: "stored, plus the config's rules after a gap longer than the cache's time to live",
};

/**
 * The model, prices and schedule controls, outside the figures' busy frame
 * so focus stays while they compute. Custom prices apply on Enter or "Apply".
 */
export function CostControls({ choice, onChange, problem }: CostControlsProps) {
  const modelId = useId();
  const priceId = useId();
  const scheduleId = useId();
  const problemId = useId();
  const custom = choice.price !== null;
  const [draft, setDraft] = useState(choice.price ?? '');
  useEffect(() => setDraft(choice.price ?? ''), [choice.price]);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onChange({ price: draft.trim() === '' ? null : draft.trim() });
  };
  return (
    <form className="cost-controls" onSubmit={apply}>
      <div className="field">
        <label htmlFor={modelId}>Model</label>
        <select
          id={modelId}
          value={custom ? CUSTOM : (choice.model ?? MODELS[0]?.name)}
          onChange={(event) => {
            const value = event.target.value;
            if (value === CUSTOM) {
              const base = MODELS.find((m) => m.name === (choice.model ?? MODELS[0]?.name));
              const start = base
                ? `input=${base.input},output=${base.output},write=${base.write},read=${base.read},ttl=${base.ttl_seconds},min=${base.min_prefix_tokens}`
                : 'input=3,output=15';
              setDraft(start);
              onChange({ price: start });
            } else {
              onChange({ model: value === MODELS[0]?.name ? null : value, price: null });
            }
          }}
        >
          {MODELS.map((model) => (
            <option key={model.name} value={model.name}>
              {model.name}
            </option>
          ))}
          <option value={CUSTOM}>Custom prices…</option>
        </select>
      </div>
      {custom ? (
        <div className="field cost-price">
          <label htmlFor={priceId}>Custom prices</label>
          <input
            id={priceId}
            type="text"
            spellCheck={false}
            value={draft}
            aria-invalid={problem ? 'true' : 'false'}
            {...(problem ? { 'aria-describedby': problemId } : {})}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="small">
            Apply
          </button>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={scheduleId}>Schedule</label>
        <select
          id={scheduleId}
          value={choice.schedule}
          onChange={(event) => {
            const picked = SCHEDULES.find((s) => s === event.target.value);
            if (picked) onChange({ schedule: picked });
          }}
        >
          {SCHEDULES.map((schedule) => (
            <option key={schedule} value={schedule}>
              {schedule}
            </option>
          ))}
        </select>
      </div>
      <label className="cost-scale">
        <input
          type="checkbox"
          checked={choice.scaleToRecorded}
          onChange={(event) => onChange({ scaleToRecorded: event.target.checked })}
        />{' '}
        Scale to recorded usage
      </label>
      {problem ? (
        <p className="cost-problem" id={problemId} role="alert">
          {problem}. The figures below are the last good replay.
        </p>
      ) : null}
    </form>
  );
}

/**
 * A box a wide table scrolls sideways in, never the page. It takes focus so
 * a keyboard can scroll it (axe: scrollable-region-focusable), and is named
 * so a screen reader says what it holds.
 */
function ScrollBox({
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

function ModelLine({ replay }: { replay: Replay }) {
  const { model } = replay;
  return (
    <p className="note" data-testid="cost-model">
      {model.name}: input ${model.input}, output ${model.output} per million tokens; cache write ×
      {model.write}, read ×{model.read}, time to live {formatCount(model.ttl_seconds)} s, minimum
      prefix {formatCount(model.min_prefix_tokens)} tokens; prices as of {model.as_of}. Under{' '}
      <strong>{replay.schedule}</strong>: {SCHEDULE_WORDS[replay.schedule]}.
    </p>
  );
}

/** The headline: baseline, the chosen schedule, saved. */
function Headline({ replay }: { replay: Replay }) {
  const { totals } = replay;
  return (
    <p className="cost-headline" data-testid="cost-headline">
      Baseline {formatDollars(totals.baseline.cost)}; {replay.schedule}{' '}
      {formatDollars(totals.schedule.cost)}; saved {formatDollars(totals.saved.cost)} (
      {formatPercent(totals.saved.percent)}), {formatCount(totals.saved.prompt_tokens)} prompt
      tokens, over {formatCount(replay.requests.length)} requests.
    </p>
  );
}

/** Every schedule side by side in tokens and dollars, with the recorded usage under them. */
function SchedulesTable({ replay }: { replay: Replay }) {
  const computed = SCHEDULES.filter((s) => replay.schedules[s] !== undefined);
  const costOf = (s: ScheduleId) => replay.schedules[s] ?? 0;
  const cheapest = computed.reduce((best, s) => (costOf(s) < costOf(best) ? s : best));
  const baseline = costOf('none');
  const recorded = replay.recorded;
  return (
    <ScrollBox label="Schedules side by side">
      <table className="cp-table cost-schedules" aria-label="Cost per schedule">
        <thead>
          <tr>
            <th scope="col">Schedule</th>
            <th scope="col">Input tokens</th>
            <th scope="col">Cache read</th>
            <th scope="col">Cache write</th>
            <th scope="col">Output</th>
            <th scope="col">Cost</th>
            <th scope="col">Saved</th>
          </tr>
        </thead>
        <tbody>
          {computed.map((schedule) => {
            const totals = replay.series?.[schedule]?.totals;
            const cost = costOf(schedule);
            const marks = [
              schedule === replay.schedule ? 'chosen' : '',
              schedule === cheapest ? 'cheapest' : '',
            ].filter(Boolean);
            return (
              <tr
                key={schedule}
                data-schedule={schedule}
                data-chosen={schedule === replay.schedule ? 'true' : undefined}
              >
                <th scope="row">
                  {schedule}
                  {marks.length > 0 ? <small> ({marks.join(', ')})</small> : null}
                </th>
                <td data-figure="prompt_tokens">
                  {totals ? formatCount(totals.prompt_tokens) : ''}
                </td>
                <td data-figure="cache_read">{totals ? formatCount(totals.cache_read) : ''}</td>
                <td data-figure="cache_write">{totals ? formatCount(totals.cache_write) : ''}</td>
                <td data-figure="output_tokens">
                  {totals ? formatCount(totals.output_tokens) : ''}
                </td>
                <td data-figure="cost">{formatDollars(cost)}</td>
                <td data-figure="saved">
                  {baseline === 0 ? '' : formatPercent(((baseline - cost) / baseline) * 100)}
                </td>
              </tr>
            );
          })}
          {recorded ? (
            <tr data-schedule="recorded">
              <th scope="row">
                recorded <small>({formatCount(recorded.requests)} requests)</small>
              </th>
              <td data-figure="prompt_tokens">{formatCount(recorded.prompt_tokens)}</td>
              <td data-figure="cache_read">{formatCount(recorded.cache_read_tokens)}</td>
              <td data-figure="cache_write">{formatCount(recorded.cache_write_tokens)}</td>
              <td data-figure="output_tokens">{formatCount(recorded.output_tokens)}</td>
              <td />
              <td />
            </tr>
          ) : null}
        </tbody>
      </table>
      {recorded ? (
        <p className="note" data-testid="cost-recorded">
          Recorded usage on {formatCount(recorded.requests)} requests: the transcript's own bill. On
          them, stored models {formatCount(recorded.modelled_prompt_tokens)} input tokens
          {recorded.ratio === null
            ? '.'
            : `; recorded/modelled ${recorded.ratio.toFixed(2)} (no bundled tokenizer is the provider's own).`}
        </p>
      ) : null}
    </ScrollBox>
  );
}

/** Per tool, the cost under each of its six hint choices, others as configured. */
function ToolsTable({ replay }: { replay: Replay }) {
  if (replay.tools.length === 0) return <p className="empty">No tools in this conversation.</p>;
  return (
    <ScrollBox label="Per-tool what-if in money">
      <table className="cp-table cost-tools" aria-label="Cost per tool under each hint">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            {HINT_CHOICES.map((choice) => (
              <th key={choice} scope="col">
                {choice}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {replay.tools.map((tool) => (
            <tr key={tool.name} data-tool={tool.name}>
              <th scope="row">{tool.name}</th>
              {HINT_CHOICES.map((choice) => {
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
                    {formatDollars(tool.what_if_cost[choice])}
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
        The whole conversation's cost under {replay.schedule} with that hint for that tool; ● in
        force, ★ the cheapest.
      </p>
    </ScrollBox>
  );
}

function requestNote(request: ReplayRequest): string {
  return [
    request.cold ? 'cold' : '',
    request.prefix_broken ? 'prefix broken' : '',
    request.compactions_created > 0 ? `${request.compactions_created} created` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** The chart's figures as a table, a page at a time, with the chosen schedule's details. */
function RequestsTable({ replay, measure }: { replay: Replay; measure: 'cost' | 'tokens' }) {
  const [page, setPage] = useState(0);
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
  return (
    <div className="cost-requests">
      <p className="cost-requests-caption" id={captionId}>
        Requests {formatCount(first + 1)}–{formatCount(first + rows.length)} of {formatCount(total)}
        : {measure === 'cost' ? 'cost' : 'prompt tokens'} per schedule, and {replay.schedule}'s
        cache
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
              <th scope="col">Read</th>
              <th scope="col">Write</th>
              <th scope="col">Output</th>
              <th scope="col">Note</th>
              {hasRecorded ? <th scope="col">Recorded input</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((request, i) => {
              const k = first + i;
              return (
                <tr key={request.index} data-index={request.index}>
                  <th scope="row">{request.index}</th>
                  <td className="cost-time">{request.time ?? '–'}</td>
                  <td>{request.turn + 1}</td>
                  {schedules.map((schedule) => (
                    <td key={schedule} data-schedule={schedule}>
                      {figure(schedule, k)}
                    </td>
                  ))}
                  <td data-figure="cache_read">{formatCount(request.cache_read)}</td>
                  <td data-figure="cache_write">{formatCount(request.cache_write)}</td>
                  <td data-figure="output_tokens">{formatCount(request.output_tokens)}</td>
                  <td>{requestNote(request)}</td>
                  {hasRecorded ? (
                    <td data-figure="recorded">
                      {request.recorded ? formatCount(request.recorded.prompt_tokens) : ''}
                    </td>
                  ) : null}
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

/** The chart's legend: a swatch per schedule, in the chart's colours. */
function Legend({ lines, theme }: { lines: readonly ChartLine[]; theme: Theme }) {
  const colours = CHART_COLOURS[theme];
  return (
    <ul className="cost-legend" aria-hidden="true">
      {lines.map((line, k) => (
        <li key={line.label} data-emphasised={line.emphasised ? 'true' : undefined}>
          <span className="cost-swatch" style={{ background: colours[k % colours.length] }} />
          {line.label}
        </li>
      ))}
    </ul>
  );
}

/** The figures of one replay: totals, schedules, tools, chart and table. */
export function CostFigures({ replay, theme }: CostFiguresProps) {
  const [measure, setMeasure] = useState<'cost' | 'tokens'>('cost');
  const lines = useMemo<ChartLine[]>(() => {
    const series = replay.series;
    if (!series) return [];
    return SCHEDULES.flatMap((schedule) => {
      const s = series[schedule];
      if (!s) return [];
      return [
        {
          label: schedule,
          values: measure === 'cost' ? s.cost : s.prompt_tokens,
          emphasised: schedule === replay.schedule,
        },
      ];
    });
  }, [replay, measure]);
  const measureName = useId();
  return (
    <div className="cost-figures">
      <ModelLine replay={replay} />
      <Headline replay={replay} />
      <ul className="cost-notes">
        {replay.notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
      <h3>Schedules side by side</h3>
      <SchedulesTable replay={replay} />
      <h3>Per tool, in money</h3>
      <ToolsTable replay={replay} />
      <h3>Per request</h3>
      <fieldset className="cost-measure">
        <legend>Chart and table show</legend>
        <label>
          <input
            type="radio"
            name={measureName}
            checked={measure === 'cost'}
            onChange={() => setMeasure('cost')}
          />{' '}
          cost
        </label>
        <label>
          <input
            type="radio"
            name={measureName}
            checked={measure === 'tokens'}
            onChange={() => setMeasure('tokens')}
          />{' '}
          prompt tokens
        </label>
      </fieldset>
      {replay.requests.length === 0 ? (
        <p className="empty">No requests: the stream has no assistant output.</p>
      ) : (
        <figure className="cost-figure">
          <CostChart lines={lines} measure={measure} theme={theme} />
          <figcaption>
            <Legend lines={lines} theme={theme} />
            {measure === 'cost' ? 'Cost' : 'Prompt tokens'} of each request under each schedule (
            {replay.schedule} drawn thicker); the table below has the same figures.
          </figcaption>
        </figure>
      )}
      <RequestsTable replay={replay} measure={measure} />
    </div>
  );
}
