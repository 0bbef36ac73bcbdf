/**
 * The figures of one replay (issues 21 and 40): what the session cost (the
 * recorded bill beside the calibrated `stored`, and what each figure stands
 * on), the model line and the headline, the schedules, the sections a
 * person opens (policies side by side, per tool in money), and the chart of
 * each request with its table. Presentational: the adapter hands it the
 * replay, the sections and the theme.
 */
import { type ReactNode, useId, useMemo } from 'react';
import { formatCount, formatDollars, formatPercent } from '../../../core/counting/format.ts';
import type { PolicyComparisonRow } from '../../../core/replay/compare-policies.ts';
import { formatParameterValue, getPolicyTitle } from '../../../core/replay/policies/policies.ts';
import type { Replay } from '../../../core/replay/replay.ts';
import { SCHEDULES, type ScheduleId } from '../../../core/replay/schedules.ts';
import type { Theme } from '../../../state/app-state.ts';
import '../panes.css';
import {
  describeBasis,
  describeRequestNote,
  getChosenName,
  getModelBasis,
  SAVING_BASIS,
} from '../../../core/replay/presentation.ts';
import { CHART_COLOURS, type ChartLine, CostChart, runningTotal } from './CostChart.tsx';
import { type Overlay, RequestsTable, rowName, SchedulesTable } from './CostTables.tsx';
import { useCostView } from './CostView.tsx';

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
  /** When to compact: auto's trigger swept. */
  sweep: CostSection;
  theme: Theme;
  /** Opens request k's prompt (1-based) under the chosen schedule or policy in the diff pane. */
  onOpenRequest?: (request: number) => void;
}

const SCHEDULE_WORDS: Record<ScheduleId, string> = {
  none: 'no compaction at all (the baseline)',
  stored: 'the compactions stored in the stream, each from where it stands',
  'every-turn': "stored, plus the config's rules at the first request of every turn",
  auto: "stored, plus JP's draft automatic compaction when the prompt passes the trigger",
  idle: "stored, plus the config's rules after a gap longer than the cache's time to live",
};

function ModelLine({ replay }: { replay: Replay }) {
  const { model, calibration } = replay;
  // The cache as the runtime uses it: a 1-hour write where the bill or its version says so.
  const write = calibration.cache_write === '1h' ? model.write_1h : model.write;
  return (
    <p className="note" data-testid="cost-model">
      {model.name}: input ${model.input}, output ${model.output} per million tokens; cache write ×
      {write}
      {calibration.cache_write === '1h' ? ' (1-hour writes)' : ''}, read ×{model.read}, time to live{' '}
      {formatCount(calibration.ttl_seconds)} s, minimum prefix{' '}
      {formatCount(model.min_prefix_tokens)} tokens; prices as of {model.as_of}.{' '}
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

/**
 * What the session cost, first (issue 40): the recorded bill where the file
 * has usage, beside the calibrated `stored` on the same requests with the
 * per-request error and the misses the model cannot explain; else the
 * modelled cost; and what every modelled figure stands on.
 */
function Bill({ replay }: { replay: Replay }) {
  const recorded = replay.recorded;
  const stored = replay.schedules.stored;
  const basis = getModelBasis(replay.calibration);
  return (
    <section className="cost-bill" data-testid="cost-bill" aria-label="What the session cost">
      {recorded ? (
        <p className="cost-bill-line">
          <span className="cost-bill-figure" data-figure="recorded-cost">
            {formatDollars(recorded.cost)}
          </span>{' '}
          <span className="cost-basis" data-basis="recorded">
            recorded
          </span>{' '}
          is what the transcript's own usage of {formatCount(recorded.requests)} requests costs at{' '}
          {replay.model.name}'s prices. Stored, on the calibrated model:{' '}
          <span data-figure="stored-cost">{formatDollars(recorded.modelled_cost)}</span>
          {recorded.median_prompt_error === null
            ? ''
            : `, each request's prompt ${formatPercent(recorded.median_prompt_error * 100)} off the recorded one (median)`}
          {recorded.unexplained_misses > 0 ? (
            <>
              ;{' '}
              <span data-figure="unexplained-misses">
                {formatCount(recorded.unexplained_misses)}
              </span>{' '}
              cache miss{recorded.unexplained_misses === 1 ? '' : 'es'} the model cannot explain
              (marked in the table)
            </>
          ) : null}
          .
        </p>
      ) : (
        <p className="cost-bill-line">
          <span className="cost-bill-figure" data-figure="stored-cost">
            {formatDollars(stored ?? replay.totals.baseline.cost)}
          </span>{' '}
          <span className="cost-basis" data-basis={basis}>
            {basis}
          </span>{' '}
          is what this session cost as modelled: the transcript recorded no usage.
        </p>
      )}
      <p className="note" data-testid="cost-basis">
        <span className="cost-basis" data-basis={basis}>
          {basis}
        </span>{' '}
        {describeBasis(replay.calibration)} The invisible prefix is what the runtime sends with
        every request and never writes to its transcript (system prompt, tool definitions).
      </p>
    </section>
  );
}

/** The headline: baseline, the chosen schedule, saved. */
function Headline({ replay }: { replay: Replay }) {
  const { totals } = replay;
  return (
    <p className="cost-headline" data-testid="cost-headline">
      Baseline {formatDollars(totals.baseline.cost)}; {getChosenName(replay)}{' '}
      {formatDollars(totals.schedule.cost)}; saved {formatDollars(totals.saved.cost)} (
      {formatPercent(totals.saved.percent)}) {SAVING_BASIS.none},{' '}
      {formatCount(totals.saved.prompt_tokens)} prompt tokens, over{' '}
      {formatCount(replay.requests.length)} requests.
    </p>
  );
}

/** The chart's legend: a swatch per schedule, in the chart's colours. */
function Legend({ lines, theme }: { lines: readonly ChartLine[]; theme: Theme }) {
  const colours = CHART_COLOURS[theme];
  return (
    <ul className="cost-legend" aria-hidden="true">
      {lines.map((line, k) => (
        <li key={line.label} data-style={line.style}>
          <span
            className="cost-swatch"
            data-style={line.style}
            style={{ background: colours[k % colours.length] }}
          />
          {line.label}
        </li>
      ))}
    </ul>
  );
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
export function CostFigures({
  replay,
  comparison,
  policies,
  tools,
  sweep,
  theme,
  onOpenRequest,
}: CostFiguresProps) {
  const { measure, setMeasure, cumulative, setCumulative, pickedB, setPickedB } = useCostView();
  const overlays = useMemo(() => getOverlays(replay, comparison), [replay, comparison]);
  const second = overlays.options.find((o) => o.label === pickedB) ?? overlays.defaultB;
  const lines = useMemo<ChartLine[]>(() => {
    const pick = (o: Overlay) => (measure === 'cost' ? o.cost : o.prompt_tokens);
    const shown = [overlays.baseline, overlays.chosen, ...(second ? [second] : [])];
    const lines: ChartLine[] = shown.map((o, k) => ({
      label: o.label,
      values: pick(o),
      style: o === overlays.chosen ? 'emphasised' : k === 0 ? 'line' : 'dashed',
    }));
    // What the file recorded, where it did: its own points, never a line that hides another.
    if (replay.recorded) {
      lines.push({
        label: 'recorded',
        values: replay.requests.map((r) =>
          measure === 'cost'
            ? (r.recorded_cost ?? Number.NaN)
            : (r.recorded?.prompt_tokens ?? Number.NaN),
        ),
        style: 'points',
      });
    }
    // The invisible prefix, a band under the prompts: the part no clearing can remove.
    if (measure === 'tokens' && !cumulative && replay.calibration.source !== 'none') {
      lines.push({
        label: 'invisible prefix',
        values: replay.requests.map((r) => r.prefix_tokens),
        style: 'band',
      });
    }
    return cumulative
      ? lines.map((line) => ({ ...line, values: runningTotal(line.values) }))
      : lines;
  }, [overlays, second, measure, cumulative, replay]);
  const requestNotes = useMemo(() => replay.requests.map(describeRequestNote), [replay]);
  const compareId = useId();
  const measureName = useId();
  return (
    <div className="cost-figures">
      <Bill replay={replay} />
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
      <Section title="When to compact" section={sweep}>
        {sweep.content}
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
        <label>
          <input
            type="checkbox"
            checked={cumulative}
            onChange={(event) => setCumulative(event.target.checked)}
          />{' '}
          running total on the chart
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
          <CostChart
            lines={lines}
            measure={measure}
            theme={theme}
            requestNotes={requestNotes}
            formatValue={measure === 'cost' ? formatDollars : formatCount}
            {...(onOpenRequest
              ? {
                  onOpenPoint: (k: number) => onOpenRequest(k + 1),
                  openLabel: (k: number) =>
                    `Open request ${k + 1}'s prompt under ${overlays.chosen.label} in the diff`,
                }
              : {})}
          />
          <figcaption>
            <Legend lines={lines} theme={theme} />
            {cumulative ? 'Running total of the ' : ''}
            {measure === 'cost'
              ? cumulative
                ? 'cost'
                : 'Cost'
              : cumulative
                ? 'prompt tokens'
                : 'Prompt tokens'}{' '}
            {cumulative ? 'up to' : 'of'} each request: the baseline, {overlays.chosen.label} (drawn
            thicker) and {second?.label ?? 'nothing else'} (dashed)
            {replay.recorded ? ', what the file recorded (points)' : ''}
            {measure === 'tokens' && replay.calibration.source !== 'none'
              ? ', and the invisible prefix (the shaded band)'
              : ''}
            ; the table below has the same figures.
          </figcaption>
        </figure>
      )}
      <RequestsTable
        replay={replay}
        measure={measure}
        overlays={[overlays.chosen, ...(second ? [second] : [])].filter((o) => !o.schedule)}
        {...(onOpenRequest ? { onOpenRequest } : {})}
      />
    </div>
  );
}
