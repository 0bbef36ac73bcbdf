/**
 * Every policy side by side on one conversation (issue 22): each runtime's
 * at its defaults and with the config's hints mapped onto its parameters,
 * and JP's schedules, all from the same requests, counter and cache model.
 */
import { getToolsInForce } from '../export/hints-in-force.ts';
import { buildToolInfo, planCompactions } from '../playground/playground.ts';
import type { StreamElement } from '../types.ts';
import {
  getHintsPolicyChoice,
  POLICY_NAMES,
  type PolicyChoice,
  parsePolicyChoice,
} from './policies/policies.ts';
import {
  type Replay,
  type ReplaySettings,
  type ReplayTotals,
  replayStream,
  SCHEDULES,
} from './replay.ts';

/** One row of the comparison. */
export interface PolicyComparisonRow {
  policy: PolicyChoice;
  /** `defaults`, `hints`, or JP's schedule. */
  with: string;
  totals: ReplayTotals;
  /** Tool uses cleared (trimmed, masked, truncated) over all requests, or JP's compactions created. */
  cleared: number;
  /** What the hints could not say, and the estimates. */
  notes: string[];
  /** Per request, in order (only when asked: the page's chart overlays two rows). */
  series?: { cost: number[]; prompt_tokens: number[] };
}

/** What the comparison computes besides each row's totals. */
export interface ComparisonScope {
  /** Each row's per-request cost and prompt tokens. */
  series?: boolean;
}

/** The comparison table's rows, runtime policies first, then JP's schedules. */
export function comparePolicies(
  elements: readonly StreamElement[],
  settings: ReplaySettings,
  scope: ComparisonScope = {},
): PolicyComparisonRow[] {
  const inForce = planCompactions(elements, settings.config, null, settings.readings).configInForce;
  const tools = getToolsInForce(buildToolInfo(elements, inForce), inForce.rules);
  const rows: PolicyComparisonRow[] = [];
  const run = (policy: PolicyChoice, schedule = settings.schedule) =>
    replayStream(elements, { ...settings, policy, schedule }, { schedules: false, tools: false });
  const seriesOf = (replay: Replay) =>
    scope.series
      ? {
          series: {
            cost: replay.requests.map((request) => request.cost),
            prompt_tokens: replay.requests.map((request) => request.prompt_tokens),
          },
        }
      : {};
  const pushPolicy = (policy: PolicyChoice, as: 'defaults' | 'hints', notes: string[]) => {
    const replay = run(policy);
    rows.push({
      policy,
      with: as,
      totals: replay.totals,
      cleared: replay.requests.reduce((n, r) => n + (r.cleared_tool_uses ?? 0), 0),
      notes,
      ...seriesOf(replay),
    });
  };
  for (const name of POLICY_NAMES) {
    if (name === 'jp') continue;
    const defaults = parsePolicyChoice(name, []);
    if (defaults.ok) pushPolicy(defaults.value, 'defaults', []);
    const hinted = getHintsPolicyChoice(name, tools);
    pushPolicy(hinted.choice, 'hints', hinted.notes);
  }
  for (const schedule of SCHEDULES) {
    if (schedule === 'none') continue;
    const replay = run({ name: 'jp', parameters: {} }, schedule);
    rows.push({
      policy: { name: 'jp', parameters: { schedule } },
      with: schedule,
      totals: replay.totals,
      cleared: replay.requests.reduce((n, r) => n + r.compactions_created, 0),
      notes: [],
      ...seriesOf(replay),
    });
  }
  return rows;
}
