/**
 * The cost pane's answers, one per part of the pane, so the worker answers
 * the figures first: the chosen replay with every schedule's per-request
 * figures (the headline, the schedules, the chart and its table), then, only
 * when their sections are open, the policies side by side and the per-tool
 * what-if. On a long conversation those two are most of the work (every
 * runtime twice; six replays per tool), and the figures never wait for them.
 *
 * Together they are what `replay --json` and `replay --compare --json` give
 * for the same choices. The workspace's Cost section asks the same way, a
 * row per conversation (`priceConversation`, `replay --by-conversation`'s).
 */
import { comparePolicies, type PolicyComparisonRow } from './compare-policies.ts';
import { type ConversationMoney, getConversationMoney } from './folder-money.ts';
import {
  type ReplayResult,
  type ReplaySource,
  replayFrom,
  replayToolWhatIfs,
  resolveReplaySettings,
  type ToolWhatIf,
} from './replay.ts';
import type { ReplayChoice } from './schedules.ts';
import { sweepAutoTrigger, type TriggerSweep } from './sweep.ts';

/** Why the choices give no replay (a model, price or policy that does not read). */
type Invalid = Extract<ReplayResult, { status: 'invalid' }>;

/** The choices that price a replay, apart from what decides the chosen figures. */
export type ReplayPricing = Pick<ReplayChoice, 'model' | 'price' | 'calibration' | 'prefixTokens'>;

/** The policies side by side, or why there are none. */
export type PolicyComparisonResult = { status: 'ok'; comparison: PolicyComparisonRow[] } | Invalid;

/** The per-tool what-if in money, or why there is none. */
export type ToolWhatIfResult = { status: 'ok'; tools: ToolWhatIf[] } | Invalid;

/**
 * The pane's figures: the chosen policy or schedule with every schedule's
 * per-request figures, without the per-tool what-if (`tools` is empty;
 * `replayToolsForPane` has it).
 */
export function replayForPane(source: ReplaySource, choice: ReplayChoice): ReplayResult {
  return replayFrom(source, choice, { series: true, tools: false });
}

/**
 * Every policy side by side, each with its per-request figures so the chart
 * can overlay one. No row depends on the chosen schedule or policy (each
 * row fixes its own), so the pricing alone is the question: changing the
 * schedule does not ask for it again.
 */
export function comparePoliciesForPane(
  source: ReplaySource,
  pricing: ReplayPricing,
): PolicyComparisonResult {
  // `stored` is the cheapest schedule a runtime's row computes beside its own replay.
  const resolved = resolveReplaySettings(source, { ...pricing, schedule: 'stored', policy: null });
  if (resolved.status !== 'ok') return resolved;
  return {
    status: 'ok',
    comparison: comparePolicies(source.elements, resolved.settings, { series: true }),
  };
}

/** The per-tool what-if in money under JP's `schedule` (a runtime's policy has none). */
export function replayToolsForPane(
  source: ReplaySource,
  choice: ReplayPricing & Pick<ReplayChoice, 'schedule'>,
): ToolWhatIfResult {
  const resolved = resolveReplaySettings(source, { ...choice, policy: null });
  if (resolved.status !== 'ok') return resolved;
  return { status: 'ok', tools: replayToolWhatIfs(source.elements, resolved.settings) };
}

/** When to compact: `auto`'s trigger swept, or why there is no sweep. */
export type TriggerSweepResult = { status: 'ok'; sweep: TriggerSweep } | Invalid;

/** `replay --sweep trigger` for the pane's pricing (JP's `auto`; no runtime policy is swept). */
export function sweepForPane(source: ReplaySource, pricing: ReplayPricing): TriggerSweepResult {
  const resolved = resolveReplaySettings(source, { ...pricing, schedule: 'auto', policy: null });
  if (resolved.status !== 'ok') return resolved;
  return { status: 'ok', sweep: sweepAutoTrigger(source.elements, resolved.settings) };
}

/** A conversation's row, or why the pricing gives no replay (a model or price that does not read). */
export type PricedConversation = { status: 'ok'; money: ConversationMoney } | Invalid;

/**
 * One conversation's row from its source under the pricing alone: JP's
 * schedules with no runtime policy, as `replay --by-conversation` without
 * `--policy`. The per-tool what-if (six replays per tool) is left out: no
 * figure of the row depends on it.
 */
export function priceConversation(
  name: string,
  source: ReplaySource,
  pricing: ReplayPricing,
): PricedConversation {
  const choice = { ...pricing, schedule: 'stored', policy: null } as const;
  const result = replayFrom(source, choice, { tools: false });
  if (result.status !== 'ok') return result;
  return { status: 'ok', money: getConversationMoney(name, result.replay, source.untimed) };
}
