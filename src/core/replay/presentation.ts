/**
 * How a replay is said to people, in the same words on the page and in the
 * CLI (issue 40's "one presentation"): the name of the chosen figures, what
 * each figure stands on (recorded, calibrated, modelled), the bill, and the
 * cheapest schedule. Sentences, no markup: each surface lays them out.
 */
import { formatCount, formatDollars, formatPercent } from '../counting/format.ts';
import { formatAssignments } from './policies/parameters.ts';
import { SCHEDULES, type ScheduleId } from './schedules.ts';
import type { CalibrationReport, Replay } from './types.ts';

/** What the chosen figures are under: JP's schedule, or a runtime's policy. */
export function getChosenName(replay: Replay): string {
  return replay.policy.name === 'jp' ? replay.schedule : replay.policy.name;
}

/** The chosen figures with a runtime policy's parameters, for headings. */
export function describeChosen(replay: Replay): string {
  return replay.policy.name === 'jp'
    ? replay.schedule
    : `${replay.policy.name} (${formatAssignments(replay.policy.parameters).join(' ')})`;
}

/** What a figure stands on: the file's own bill, the model fitted to it, or defaults alone. */
export type FigureBasis = 'recorded' | 'calibrated' | 'modelled';

/** The basis of the replay's modelled figures. */
export function getModelBasis(calibration: CalibrationReport): FigureBasis {
  return calibration.source === 'recorded' ? 'calibrated' : 'modelled';
}

/** One sentence: what the modelled figures stand on, and the invisible prefix. */
export function describeBasis(calibration: CalibrationReport): string {
  const steps = calibration.prefix_steps;
  const prefix = `an invisible prefix of ${formatCount(calibration.prefix_tokens)} tokens${steps.length > 0 ? ` (moving at request${steps.length === 1 ? '' : 's'} ${steps.map((s) => s.from_request).join(', ')})` : ''} and ${calibration.token_factor} billed tokens per counted token`;
  switch (calibration.source) {
    case 'recorded':
      return `Calibrated on the recorded usage of ${formatCount(calibration.points)} requests: ${prefix}${calibration.median_error === null ? '' : `; the fit is ${formatPercent(calibration.median_error * 100)} off on them (median)`}.`;
    case 'runtime':
      return `Modelled from ${calibration.runtime ? `${calibration.runtime}'s` : 'the'} defaults (no recorded usage): ${prefix}.`;
    case 'user':
      return `Modelled with your invisible prefix: ${prefix}.`;
    case 'none':
      return 'Modelled from the file alone (calibration none): no invisible prefix, factor 1, no hidden output.';
  }
}

/** One sentence: the recorded bill beside `stored` on the same requests; null without recorded usage. */
export function describeBill(replay: Replay): string | null {
  const r = replay.recorded;
  if (!r) return null;
  const oneHour = r.cache_write_1h_tokens ?? 0;
  const writes =
    oneHour > 0
      ? `write ${formatCount(r.cache_write_tokens)}, of which 1-hour ${formatCount(oneHour)}`
      : `write ${formatCount(r.cache_write_tokens)}`;
  const misses =
    r.unexplained_misses > 0
      ? `; ${formatCount(r.unexplained_misses)} cache miss${r.unexplained_misses === 1 ? '' : 'es'} the model cannot explain (marked)`
      : '';
  return `Recorded bill: ${formatDollars(r.cost)} on ${formatCount(r.requests)} requests (input ${formatCount(r.prompt_tokens)}: cache read ${formatCount(r.cache_read_tokens)}, ${writes}; output ${formatCount(r.output_tokens)}). Stored, on the same requests: ${formatDollars(r.modelled_cost)}, ${formatCount(r.modelled_prompt_tokens)} input tokens${r.median_prompt_error === null ? '' : `, ${formatPercent(r.median_prompt_error * 100)} off the recorded prompt per request (median)`}${misses}.`;
}

/** The cheapest of the schedules the replay computed (the first on a tie). */
export function getCheapestSchedule(replay: Replay): ScheduleId {
  const computed = SCHEDULES.filter((s) => replay.schedules[s] !== undefined);
  const costOf = (s: ScheduleId) => replay.schedules[s] ?? 0;
  return computed.reduce((best, s) => (costOf(s) < costOf(best) ? s : best), computed[0] ?? 'none');
}

/** A request's notes in words: cold, prefix broken, created or cleared, summarised, unexplained miss. */
export function describeRequestNote(request: Replay['requests'][number]): string {
  return [
    request.cold ? 'cold' : '',
    request.prefix_broken ? 'prefix broken' : '',
    request.compactions_created > 0 ? `${request.compactions_created} created` : '',
    (request.cleared_tool_uses ?? 0) > 0 ? `${request.cleared_tool_uses} cleared` : '',
    request.summarised ? 'summarised here' : '',
    request.unexplained_miss ? 'unexplained miss' : '',
  ]
    .filter(Boolean)
    .join(', ');
}
