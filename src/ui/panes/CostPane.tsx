/**
 * The cost pane (issue 21): what the conversation cost, request by request,
 * with prompt caching, under each schedule of compactions (core/replay).
 * Controls for the model or custom prices, the schedule and the scaling to
 * recorded usage; the schedules side by side in tokens and dollars, the
 * recorded usage beside what `stored` models, the per-tool what-if in money,
 * and a chart of each schedule per request with a table of the same rows.
 * The policies side by side and the per-tool what-if are sections a person
 * opens: each is its own extra, asked for only while it is open, so the
 * figures above never wait for them.
 * Presentational: the adapter hands it the replay, the sections and the actions.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { HINT_CHOICES } from '../../core/config/tool-hints.ts';
import { formatCount, formatDollars, formatPercent } from '../../core/counting/format.ts';
import type { PolicyComparisonRow } from '../../core/replay/compare-policies.ts';
import {
  formatParameterValue,
  getPolicyFields,
  getPolicyTitle,
  POLICY_NAMES,
  type PolicyName,
  parsePolicyChoice,
} from '../../core/replay/policies/policies.ts';
import type { FieldSpec } from '../../core/replay/policies/types.ts';
import {
  DEFAULT_MODEL,
  formatPriceSpec,
  MODELS,
  type ModelPrices,
} from '../../core/replay/prices.ts';
import type {
  CalibrationChoice,
  Replay,
  ReplayRequest,
  ToolWhatIf,
} from '../../core/replay/replay.ts';
import {
  type PolicySelection,
  type ReplayChoice,
  SCHEDULES,
  type ScheduleId,
} from '../../core/replay/schedules.ts';
import type { Theme } from '../../state/app-state.ts';
import { CHART_COLOURS, type ChartLine, CostChart } from './CostChart.tsx';
import './panes.css';

/** Props of {@link CostControls}. */
export interface CostControlsProps {
  choice: Required<ReplayChoice>;
  onChange: (change: Partial<ReplayChoice>) => void;
  /** Why the latest choices give no replay (a price or model that does not read), or null. */
  problem: string | null;
  /** The model the last replay priced the transcript's own model as, when it was chosen that way. */
  recordedModel?: ModelPrices | undefined;
}

/** A section of the pane a person opens, whose contents are computed only while it is open. */
export interface CostSection {
  open: boolean;
  onToggle: (open: boolean) => void;
  /** What the section shows (the adapter's frame around the table, busy while it computes). */
  content: ReactNode;
}

/** Props of {@link CostFigures}. */
export interface CostFiguresProps {
  /** The latest input's replay, or the last good one while the choices have an error. */
  replay: Replay;
  /**
   * Every policy at its defaults and with the hints mapped, then JP's
   * schedules, while its section is open and its answer is the latest
   * input's; else null, and the chart offers JP's schedules alone.
   */
  comparison: readonly PolicyComparisonRow[] | null;
  /** The policies side by side. */
  policies: CostSection;
  /** The per-tool what-if in money (shown only under JP's policy). */
  tools: CostSection;
  theme: Theme;
}

const CUSTOM = 'custom';
/** The model select's value for "the model the transcript recorded". */
const RECORDED = '';

/** What each calibration is, for its select. */
const CALIBRATION_WORDS: Record<CalibrationChoice, string> = {
  auto: 'best the file has',
  recorded: 'fitted on the recorded usage',
  runtime: "the runtime's defaults",
  user: 'your prefix figure',
  none: 'the file alone (no prefix)',
};
const CALIBRATIONS = Object.keys(CALIBRATION_WORDS) as CalibrationChoice[];

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
export function CostControls({ choice, onChange, problem, recordedModel }: CostControlsProps) {
  const modelId = useId();
  const priceId = useId();
  const scheduleId = useId();
  const calibrationId = useId();
  const prefixId = useId();
  const problemId = useId();
  const [prefixDraft, setPrefixDraft] = useState(
    choice.prefixTokens === null ? '' : String(choice.prefixTokens),
  );
  useEffect(
    () => setPrefixDraft(choice.prefixTokens === null ? '' : String(choice.prefixTokens)),
    [choice.prefixTokens],
  );
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
          value={custom ? CUSTOM : (choice.model ?? RECORDED)}
          onChange={(event) => {
            const value = event.target.value;
            if (value === CUSTOM) {
              // Every key written out, over the model chosen: custom prices keep its cache and window.
              const base = MODELS.find((m) => m.name === choice.model) ?? recordedModel;
              const start = formatPriceSpec(base ?? DEFAULT_MODEL);
              setDraft(start);
              onChange({ price: start });
            } else {
              onChange({ model: value === RECORDED ? null : value, price: null });
            }
          }}
        >
          <option value={RECORDED}>
            The transcript's model{recordedModel ? ` (${recordedModel.name})` : ''}
          </option>
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
      <div className="field">
        <label htmlFor={calibrationId}>Calibration</label>
        <select
          id={calibrationId}
          value={choice.calibration}
          onChange={(event) => {
            const picked = CALIBRATIONS.find((c) => c === event.target.value);
            if (picked) onChange({ calibration: picked });
          }}
        >
          {CALIBRATIONS.map((calibration) => (
            <option key={calibration} value={calibration}>
              {calibration}: {CALIBRATION_WORDS[calibration]}
            </option>
          ))}
        </select>
      </div>
      <div className="field cost-prefix">
        <label htmlFor={prefixId}>Invisible prefix (tokens)</label>
        <input
          id={prefixId}
          type="text"
          inputMode="numeric"
          placeholder="from the file"
          value={prefixDraft}
          onChange={(event) => setPrefixDraft(event.target.value)}
          onBlur={() => {
            const text = prefixDraft.trim();
            if (text === '') onChange({ prefixTokens: null });
            else if (/^\d+$/.test(text)) onChange({ prefixTokens: Number(text) });
          }}
        />
      </div>
      <PolicyControls policy={choice.policy} onChange={(policy) => onChange({ policy })} />
      {problem ? (
        <p className="cost-problem" id={problemId} role="alert">
          {problem}. The figures below are the last good replay.
        </p>
      ) : null}
    </form>
  );
}

/** A policy's parameters in force: the defaults with its `set` applied (the set was validated). */
function getParameters(policy: PolicySelection): Map<string, string> {
  const parsed = parsePolicyChoice(policy.name, policy.set);
  const values = parsed.ok ? parsed.value.parameters : {};
  return new Map(Object.entries(values).map(([key, value]) => [key, formatParameterValue(value)]));
}

/** The policy with one parameter set to `text` (left out when it is the default), or the error. */
function setParameter(
  policy: PolicySelection,
  key: string,
  text: string,
): { policy: PolicySelection } | { error: string } {
  const parsed = parsePolicyChoice(policy.name, [`${key}=${text}`]);
  if (!parsed.ok) return { error: parsed.errors.join('; ') };
  const value = formatParameterValue(parsed.value.parameters[key] ?? '');
  const defaults = getParameters({ name: policy.name, set: [] });
  const others = policy.set.filter((assignment) => !assignment.startsWith(`${key}=`));
  const set = value === defaults.get(key) ? others : [...others, `${key}=${value}`];
  return { policy: { name: policy.name, set } };
}

/** One parameter: a checkbox, a list of choices, or a text applied on Enter or on leaving it. */
function ParameterField({
  field,
  value,
  onCommit,
}: {
  field: FieldSpec;
  value: string;
  onCommit: (text: string) => string | null;
}) {
  const id = useId();
  const docId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDraft(value);
    setError(null);
  }, [value]);
  const commit = (text: string) => setError(onCommit(text));
  const described = error ? `${docId} ${errorId}` : docId;
  let control: ReactNode;
  if (field.kind === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === 'true'}
        aria-describedby={described}
        onChange={(event) => commit(String(event.target.checked))}
      />
    );
  } else if (field.kind === 'choice') {
    control = (
      <select
        id={id}
        value={value}
        aria-describedby={described}
        onChange={(event) => commit(event.target.value)}
      >
        {(field.choices ?? []).map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        type="text"
        spellCheck={false}
        value={draft}
        aria-invalid={error ? 'true' : 'false'}
        aria-describedby={described}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => {
          if (draft !== value) commit(draft);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(draft);
          }
        }}
      />
    );
  }
  return (
    <div className="cost-parameter" data-parameter={field.key}>
      <label htmlFor={id}>{field.key}</label>
      {control}
      <small id={docId}>{field.doc}</small>
      {error ? (
        <small className="cost-parameter-error" id={errorId} role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** The policy selector and the chosen policy's parameters (issue 22). */
function PolicyControls({
  policy,
  onChange,
}: {
  policy: PolicySelection | null;
  onChange: (policy: PolicySelection) => void;
}) {
  const selectId = useId();
  const name: PolicyName = policy?.name ?? 'jp';
  const selection = policy ?? { name, set: [] };
  const fields = getPolicyFields(name);
  const values = getParameters(selection);
  return (
    <fieldset className="cost-policy">
      <legend>Policy</legend>
      <div className="field">
        <label htmlFor={selectId}>Clearing policy</label>
        <select
          id={selectId}
          value={name}
          onChange={(event) => {
            const picked = POLICY_NAMES.find((p) => p === event.target.value);
            if (picked) onChange({ name: picked, set: [] });
          }}
        >
          {POLICY_NAMES.map((option) => (
            <option key={option} value={option}>
              {option}: {getPolicyTitle(option)}
            </option>
          ))}
        </select>
      </div>
      {fields.length === 0 ? (
        <p className="note">JP's own compactions: the schedule above says when they run.</p>
      ) : (
        <div className="cost-parameters">
          {fields.map((field) => (
            <ParameterField
              key={`${name}:${field.key}`}
              field={field}
              value={values.get(field.key) ?? ''}
              onCommit={(text) => {
                const next = setParameter(selection, field.key, text);
                if ('error' in next) return next.error;
                onChange(next.policy);
                return null;
              }}
            />
          ))}
        </div>
      )}
    </fieldset>
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

/** What the chosen figures are under: JP's schedule, or a runtime's policy. */
function chosenName(replay: Replay): string {
  return replay.policy.name === 'jp' ? replay.schedule : replay.policy.name;
}

/** A comparison row's name: the policy and what its parameters are. */
function rowName(row: PolicyComparisonRow): string {
  return row.policy.name === 'jp' ? `jp ${row.with}` : `${row.policy.name} (${row.with})`;
}

function ModelLine({ replay }: { replay: Replay }) {
  const { model } = replay;
  return (
    <p className="note" data-testid="cost-model">
      {model.name}: input ${model.input}, output ${model.output} per million tokens; cache write ×
      {model.write}, read ×{model.read}, time to live {formatCount(model.ttl_seconds)} s, minimum
      prefix {formatCount(model.min_prefix_tokens)} tokens; prices as of {model.as_of}.{' '}
      {replay.policy.name === 'jp' ? (
        <>
          Under <strong>{replay.schedule}</strong>: {SCHEDULE_WORDS[replay.schedule]}.
        </>
      ) : (
        <>
          Under <strong>{replay.policy.name}</strong>: {getPolicyTitle(replay.policy.name)}, with{' '}
          {Object.entries(replay.policy.parameters)
            .map(([key, value]) => `${key}=${formatParameterValue(value)}`)
            .join(' ')}
          .
        </>
      )}
    </p>
  );
}

/** The headline: baseline, the chosen schedule, saved. */
function Headline({ replay }: { replay: Replay }) {
  const { totals } = replay;
  return (
    <p className="cost-headline" data-testid="cost-headline">
      Baseline {formatDollars(totals.baseline.cost)}; {chosenName(replay)}{' '}
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
export function ToolsTable({
  tools,
  schedule,
}: {
  tools: readonly ToolWhatIf[];
  schedule: ScheduleId;
}) {
  if (tools.length === 0) return <p className="empty">No tools in this conversation.</p>;
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
          {tools.map((tool) => (
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
        The whole conversation's cost under {schedule} with that hint for that tool; ● in force, ★
        the cheapest.
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
            <th scope="col">Parameters</th>
            <th scope="col">Prompt tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Saved</th>
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
              <td>{row.with === 'hints' ? 'your hints' : row.with}</td>
              <td data-figure="prompt_tokens">{formatCount(row.totals.schedule.prompt_tokens)}</td>
              <td data-figure="cost">{formatDollars(row.totals.schedule.cost)}</td>
              <td data-figure="saved">
                {baseline === 0 ? '' : formatPercent(row.totals.saved.percent)}
              </td>
              <td data-figure="cleared">{formatCount(row.cleared)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">
        Baseline {formatDollars(baseline)}. Cleared: tool uses a policy cleared, trimmed, masked or
        truncated, summed over the requests (a result cleared again at each request counts each
        time); for JP, the compactions created.
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

function requestNote(request: ReplayRequest): string {
  return [
    request.cold ? 'cold' : '',
    request.prefix_broken ? 'prefix broken' : '',
    request.compactions_created > 0 ? `${request.compactions_created} created` : '',
    (request.cleared_tool_uses ?? 0) > 0 ? `${request.cleared_tool_uses} cleared` : '',
    request.summarised ? 'summarised here' : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** The chart's figures as a table, a page at a time, with the chosen schedule's details. */
function RequestsTable({
  replay,
  measure,
  overlays,
}: {
  replay: Replay;
  measure: 'cost' | 'tokens';
  /** The chart's lines that are not JP schedules: a column each. */
  overlays: readonly Overlay[];
}) {
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
              {overlays.map((overlay) => (
                <th key={overlay.label} scope="col" data-overlay={overlay.label}>
                  {overlay.label}
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
                  {overlays.map((overlay) => (
                    <td key={overlay.label} data-overlay={overlay.label}>
                      {measure === 'cost'
                        ? formatDollars(overlay.cost[k] ?? 0)
                        : formatCount(overlay.prompt_tokens[k] ?? 0)}
                    </td>
                  ))}
                  <td data-figure="cache_read">{formatCount(request.cache_read)}</td>
                  <td data-figure="cache_write">{formatCount(request.cache_write)}</td>
                  <td data-figure="output_tokens">{formatCount(request.output_tokens)}</td>
                  <td data-figure="note">{requestNote(request)}</td>
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

/** One line the chart can draw: per request, cost and prompt tokens. */
interface Overlay {
  label: string;
  cost: readonly number[];
  prompt_tokens: readonly number[];
  /** The JP schedule it is, when it is one (the request table has a column per schedule). */
  schedule?: ScheduleId;
}

/**
 * The lines the chart overlays: the baseline, the chosen figures (a JP
 * schedule or a runtime's policy with its parameters), and a second picked
 * from JP's schedules and, once that section has been opened, the policies
 * side by side. By default JP's schedule beside a runtime's policy, and
 * `stored` beside JP's others: never a line that waits for the policies, so
 * the chart does not change its second line when they arrive.
 */
function getOverlays(replay: Replay, comparison: readonly PolicyComparisonRow[] | null) {
  const ofSchedule = (schedule: ScheduleId): Overlay => {
    const series = replay.series?.[schedule];
    return {
      label: schedule === 'none' ? 'baseline' : `jp ${schedule}`,
      cost: series?.cost ?? [],
      prompt_tokens: series?.prompt_tokens ?? [],
      schedule,
    };
  };
  const baseline = ofSchedule('none');
  const chosen: Overlay =
    replay.policy.name === 'jp'
      ? ofSchedule(replay.schedule)
      : {
          label: `${replay.policy.name} (yours)`,
          cost: replay.requests.map((r) => r.cost),
          prompt_tokens: replay.requests.map((r) => r.prompt_tokens),
        };
  // The policies' rows first, as their table lists them, then JP's schedules from the replay itself.
  const policies: Overlay[] = (comparison ?? []).flatMap((row) =>
    row.policy.name !== 'jp' && row.series
      ? [{ label: rowName(row), cost: row.series.cost, prompt_tokens: row.series.prompt_tokens }]
      : [],
  );
  const schedules = SCHEDULES.filter(
    (s) => s !== 'none' && s !== chosen.schedule && replay.series?.[s] !== undefined,
  ).map(ofSchedule);
  const options = [...policies, ...schedules];
  const jpStored = schedules.find((o) => o.schedule === 'stored');
  const defaultB =
    replay.policy.name === 'jp'
      ? jpStored
      : (schedules.find((o) => o.schedule === replay.schedule) ?? jpStored);
  return { baseline, chosen, options, defaultB: defaultB ?? schedules[0] };
}

/** A section a person opens, its heading the summary: its contents are asked for only while open. */
function Section({
  title,
  section,
  children,
}: {
  title: string;
  section: CostSection;
  children: ReactNode;
}) {
  return (
    <details
      className="cost-section"
      open={section.open}
      onToggle={(event) => {
        const { open } = event.currentTarget;
        if (open !== section.open) section.onToggle(open);
      }}
    >
      <summary>
        <h3>{title}</h3>
      </summary>
      {section.open ? children : null}
    </details>
  );
}

/** The figures of one replay: totals, schedules, tools, chart and table. */
export function CostFigures({ replay, comparison, policies, tools, theme }: CostFiguresProps) {
  const [measure, setMeasure] = useState<'cost' | 'tokens'>('cost');
  const overlays = useMemo(() => getOverlays(replay, comparison), [replay, comparison]);
  const [pickedB, setPickedB] = useState<string | null>(null);
  const second = overlays.options.find((o) => o.label === pickedB) ?? overlays.defaultB;
  const lines = useMemo<ChartLine[]>(() => {
    const pick = (o: Overlay) => (measure === 'cost' ? o.cost : o.prompt_tokens);
    const shown = [overlays.baseline, overlays.chosen, ...(second ? [second] : [])];
    return shown.map((o) => ({
      label: o.label,
      values: pick(o),
      emphasised: o === overlays.chosen,
    }));
  }, [overlays, second, measure]);
  const compareId = useId();
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
      <Section title="Policies side by side" section={policies}>
        {policies.content}
      </Section>
      <Section title="Per tool, in money" section={tools}>
        {replay.policy.name === 'jp' ? (
          tools.content
        ) : (
          <p className="empty">
            The per-tool what-if prices JP's hints under JP's schedules; under {replay.policy.name}{' '}
            its per-tool knobs are its parameters above (compare defaults and your hints in the
            table of policies).
          </p>
        )}
      </Section>
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
      <div className="field cost-compare">
        <label htmlFor={compareId}>Compare {overlays.chosen.label} with</label>
        <select
          id={compareId}
          value={second?.label ?? ''}
          onChange={(event) => setPickedB(event.target.value)}
        >
          {overlays.options.map((option) => (
            <option key={option.label} value={option.label}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {policies.open ? null : (
        <p className="note">Open “Policies side by side” to compare with a runtime's policy too.</p>
      )}
      {replay.requests.length === 0 ? (
        <p className="empty">No requests: the stream has no assistant output.</p>
      ) : (
        <figure className="cost-figure">
          <CostChart lines={lines} measure={measure} theme={theme} />
          <figcaption>
            <Legend lines={lines} theme={theme} />
            {measure === 'cost' ? 'Cost' : 'Prompt tokens'} of each request: the baseline,{' '}
            {overlays.chosen.label} (drawn thicker) and {second?.label ?? 'nothing else'}; the table
            below has the same figures.
          </figcaption>
        </figure>
      )}
      <RequestsTable
        replay={replay}
        measure={measure}
        overlays={[overlays.chosen, ...(second ? [second] : [])].filter((o) => !o.schedule)}
      />
    </div>
  );
}
