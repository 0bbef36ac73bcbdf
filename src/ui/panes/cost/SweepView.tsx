/**
 * When to compact (issue 41): `auto`'s trigger swept (core/replay/sweep.ts),
 * as the answer in a sentence, a curve of the session's cost against the
 * trigger with the cheapest point marked and the session as it ran beside
 * it, and the same figures in a table (`replay --sweep trigger`).
 */
import { useMemo } from 'react';
import { formatCount, formatDollars } from '../../../core/counting/format.ts';
import { describeSweep, type TriggerSweep } from '../../../core/replay/sweep.ts';
import type { Theme } from '../../../state/app-state.ts';
import { type ChartLine, CostChart } from './CostChart.tsx';
import { ScrollBox } from './CostTables.tsx';

export function SweepView({ sweep, theme }: { sweep: TriggerSweep; theme: Theme }) {
  const xs = useMemo(() => sweep.points.map((point) => point.trigger_tokens / 1000), [sweep]);
  const lines = useMemo<ChartLine[]>(
    () => [
      { label: 'stored', values: sweep.points.map(() => sweep.stored_cost), style: 'line' },
      {
        label: 'auto at the trigger',
        values: sweep.points.map((point) => point.cost),
        style: 'emphasised',
      },
      {
        label: 'cheapest',
        values: sweep.points.map((point) =>
          point === sweep.points.find((p) => p.trigger_ratio === sweep.cheapest?.trigger_ratio)
            ? point.cost
            : Number.NaN,
        ),
        style: 'points',
      },
    ],
    [sweep],
  );
  return (
    <div className="cost-sweep">
      <p data-testid="sweep-answer">{describeSweep(sweep)}</p>
      <figure className="cost-figure">
        <CostChart
          lines={lines}
          measure="cost"
          theme={theme}
          xs={xs}
          xLabel="auto's trigger (thousand tokens)"
          formatValue={formatDollars}
          pointLabel={(k) =>
            `Trigger at ${formatCount(sweep.points[k]?.trigger_tokens ?? 0)} tokens`
          }
          sliderLabel="Trigger on the chart"
        />
        <figcaption>
          The session's cost with auto compacting once the prompt passes each trigger (thicker),
          beside the session as it ran (stored), the cheapest point marked; the table below has the
          same figures.
        </figcaption>
      </figure>
      <ScrollBox label="When to compact">
        <table className="cp-table cost-sweep-table" aria-label="Cost per trigger of auto">
          <thead>
            <tr>
              <th scope="col">Trigger (tokens)</th>
              <th scope="col">Cost</th>
              <th scope="col">trigger_ratio</th>
              <th scope="col">Compactions</th>
            </tr>
          </thead>
          <tbody>
            {sweep.points.map((point) => (
              <tr
                key={point.trigger_tokens}
                data-cheapest={
                  point.trigger_ratio === sweep.cheapest?.trigger_ratio ? 'true' : undefined
                }
              >
                <th scope="row">
                  {formatCount(point.trigger_tokens)}
                  {point.trigger_ratio === sweep.cheapest?.trigger_ratio ? (
                    <small> (cheapest)</small>
                  ) : null}
                </th>
                <td data-figure="cost">{formatDollars(point.cost)}</td>
                <td data-figure="trigger_ratio">{point.trigger_ratio}</td>
                <td data-figure="compactions">{formatCount(point.compactions)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </div>
  );
}
