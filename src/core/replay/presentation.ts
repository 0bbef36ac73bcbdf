/**
 * How a replay is said to people, in the same words on the page and in the
 * CLI (issue 40's "one presentation"): the name of the chosen figures, what
 * each figure stands on (recorded, calibrated, modelled), the bill, and the
 * cheapest schedule. Sentences, no markup: each surface lays them out.
 */

import { removesResults } from '../counting/drawn-on.ts';
import { formatCount, formatDollars, formatPercent } from '../counting/format.ts';
import { formatAssignments } from './policies/parameters.ts';
import { SCHEDULES, type ScheduleId } from './schedules.ts';
import type { CalibrationReport, Replay, ToolWhatIf } from './types.ts';

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

/**
 * What a saving is measured against, in the same words on every surface
 * (issue 41): the cost pane's headline and tables compare with no
 * compaction; the money line compares with the session as it ran.
 */
export const SAVING_BASIS = {
  none: 'against no compaction',
  stored: 'against the session as it ran',
} as const;

/** What the session cost: its bill where the file recorded every request, else `stored` modelled. */
export interface SessionCost {
  cost: number;
  basis: 'recorded' | FigureBasis;
  requests: number;
  /** Requests whose usage the file recorded (0 without any). */
  recordedRequests: number;
}

/** The session's cost as the money line says it. */
export function getSessionCost(replay: Replay): SessionCost {
  const requests = replay.requests.length;
  const recorded = replay.recorded;
  if (recorded && requests > 0 && recorded.requests === requests) {
    return { cost: recorded.cost, basis: 'recorded', requests, recordedRequests: requests };
  }
  return {
    cost: replay.schedules.stored ?? 0,
    basis: getModelBasis(replay.calibration),
    requests,
    recordedRequests: recorded?.requests ?? 0,
  };
}

/** The cheapest alternative to the session as it ran, with its saving against `stored`. */
export interface CheapestAlternative {
  /** A JP schedule's name, or the runtime policy's with its parameters. */
  name: string;
  cost: number;
  saved: number;
  /** Percent of `stored`'s cost; 0 when that is 0. */
  percent: number;
}

/**
 * The cheapest of what the replay priced besides `stored` (JP's other
 * schedules, and the runtime policy when one is chosen); null when none is
 * cheaper than the session as it ran.
 */
export function getCheapestAlternative(replay: Replay): CheapestAlternative | null {
  const asRan = replay.schedules.stored ?? 0;
  const candidates: { name: string; cost: number }[] = SCHEDULES.filter(
    (s) => s !== 'stored' && replay.schedules[s] !== undefined,
  ).map((s) => ({ name: s, cost: replay.schedules[s] ?? 0 }));
  if (replay.policy.name !== 'jp') {
    candidates.push({ name: describeChosen(replay), cost: replay.totals.schedule.cost });
  }
  const best = candidates.reduce<{ name: string; cost: number } | null>(
    (found, candidate) => (found === null || candidate.cost < found.cost ? candidate : found),
    null,
  );
  if (!best || best.cost >= asRan) return null;
  const saved = asRan - best.cost;
  return { ...best, saved, percent: asRan === 0 ? 0 : (saved / asRan) * 100 };
}

/** The money line: what the session cost and the cheapest alternative, two sentences. */
export function describeSessionMoney(replay: Replay): { cost: string; cheapest: string } {
  const session = getSessionCost(replay);
  const requests = `${formatCount(session.requests)} request${session.requests === 1 ? '' : 's'}`;
  const partly =
    session.recordedRequests > 0 && session.basis !== 'recorded'
      ? `; the file recorded usage on ${formatCount(session.recordedRequests)} of them`
      : '';
  const cost =
    session.basis === 'recorded'
      ? `This session cost ${formatDollars(session.cost)}: its recorded usage at ${replay.model.name}'s prices, ${requests}.`
      : `This session cost about ${formatDollars(session.cost)}: ${session.basis} as it ran (stored) at ${replay.model.name}'s prices, ${requests}${partly}.`;
  const asRan = formatDollars(replay.schedules.stored ?? 0);
  const alternative = getCheapestAlternative(replay);
  const cheapest = alternative
    ? `Cheapest found: ${alternative.name} at ${formatDollars(alternative.cost)}, saving ${formatDollars(alternative.saved)} (${formatPercent(alternative.percent)}) ${SAVING_BASIS.stored} (${asRan} modelled).`
    : `Nothing the replay tried is cheaper than the session as it ran (${asRan} modelled).`;
  return { cost, cheapest };
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
    request.under_minimum ? 'under the minimum' : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * Whether a tool's cheapest choice, where it is not the hint in force,
 * takes out results the model drew on later (for `inherit`, it may: the
 * rule decides): the ★ and `<` say so.
 */
export function cheapestRemovesDrawnOn(tool: ToolWhatIf): boolean {
  // A cheapest that is the hint in force recommends no change.
  return (
    tool.cheapest !== tool.hint &&
    tool.drawn_on_later.drawn > 0 &&
    removesResults(tool.cheapest) !== false
  );
}
