/**
 * "Why does this event look like this?": turns projection's traces (spec 4
 * step 2 winners, D17 policy source) into an explanation a person can read.
 */

import { formatByteSizeForPeople, parseByteSizeText } from '../config/byte-size.ts';
import { formatTurnRange } from '../config/range.ts';
import { policyToHintName } from '../config/tool-hints.ts';
import type { EventExplanation, SlotDecision, TimelineEntry } from '../playground/types.ts';
import type { StreamElement, ToolCallPolicy } from '../types.ts';
import type {
  CompactionRef,
  ResponseNaming,
  SourceTrace,
  ThresholdCheck,
  TurnDecision,
} from './projection.ts';

/** A threshold as people read it: `1 KB`, `512 B` (its written form, 15.2, spaced). */
function formatThreshold(written: string): string {
  const unit = /[A-Z]+$/.exec(written)?.[0];
  return unit === undefined ? `${written} B` : `${written.slice(0, -unit.length)} ${unit}`;
}

/** "812 B is not over 1 KB" / "4.0 KB is over 1 KB" (15.2: strictly over). */
function describeThreshold(check: ThresholdCheck): string {
  const size = formatByteSizeForPeople(BigInt(check.size));
  const what = check.measure === 'pair' ? 'the pair’s ' : '';
  // The written form always reads back as the same size.
  const over = parseByteSizeText(check.over).ok ? formatThreshold(check.over) : check.over;
  return `${what}${size} is ${check.reached ? '' : 'not '}over ${over}`;
}

/** How a response got its name (15.3), for the explain pane. */
function describeNaming(naming: ResponseNaming | undefined, toolName: string | null): string {
  if (naming === undefined || naming.kind === 'id-map') return '';
  if (naming.kind === 'paired') {
    return ` This response pairs, by position in its turn, with the request at element [${naming.requestIndex}] (${toolName ?? 'unknown'}).`;
  }
  return ' No request of its turn with its id is open before it, so it pairs with none and its name is unknown.';
}

/** What an explanation refers to: the timeline (ordinals index it) and each turn's winners. */
export interface Slots {
  timeline: readonly TimelineEntry[];
  turns: readonly TurnDecision[];
}

function decision(ref: CompactionRef | null, slots: Slots): SlotDecision | undefined {
  if (!ref) return undefined;
  const entry = slots.timeline[ref.ordinal];
  if (!entry) return undefined;
  return {
    timelineIndex: ref.ordinal,
    timestamp: entry.event.timestamp,
    range: { from_turn: entry.event.from_turn, to_turn: entry.event.to_turn },
    isNew: entry.isNew,
  };
}

/** "compaction #2 (new, turns 2..5)" */
function nameOf(slot: SlotDecision): string {
  const state = slot.isNew ? 'previewed' : 'in the stream';
  return `compaction #${slot.timelineIndex + 1} (${state}, ${formatTurnRange(slot.range)})`;
}

function toolSentence(
  element: StreamElement,
  slot: SlotDecision,
  policy: ToolCallPolicy,
  from: 'tool_overrides' | 'tool_calls',
  toolName: string | null,
  threshold?: ThresholdCheck,
): { outcome: EventExplanation['outcome']; sentence: string } {
  const hint = policyToHintName(policy);
  const who = toolName ?? 'this response (no request has its id)';
  const origin =
    from === 'tool_overrides'
      ? `its tool_overrides entry for ${who} says ${hint}`
      : `${who} has no override there, so the compaction's tool_calls (${hint}) applies`;
  const isRequest = element.type === 'tool_call_request';
  let effect: string;
  let outcome: EventExplanation['outcome'];
  if (threshold !== undefined && !threshold.reached) {
    // Spared by the threshold (15.3): the policy reaches only items over it.
    outcome = 'unchanged';
    effect = `kept: ${describeThreshold(threshold)}`;
  } else if (policy.policy === 'omit') {
    outcome = 'omitted';
    effect = `the event is dropped${threshold ? ` (${describeThreshold(threshold)})` : ''}`;
  } else if (isRequest ? policy.request : policy.response) {
    outcome = 'stripped';
    effect = isRequest
      ? 'its arguments become {}'
      : 'its content becomes the status line "[compacted] name: success|error"';
    if (threshold) effect += ` (${describeThreshold(threshold)})`;
  } else {
    outcome = 'unchanged';
    effect = `its ${isRequest ? 'arguments are' : 'content is'} kept`;
  }
  return { outcome, sentence: `${nameOf(slot)} decides tool calls; ${origin}: ${effect}.` };
}

/**
 * Explains one event. `trace` is what projection did to the element (absent
 * for an injected summary event, whose raw turn is then given).
 */
export function explainEvent(
  element: StreamElement,
  trace: SourceTrace | undefined,
  slots: Slots,
  injectedTurn = 0,
): EventExplanation {
  const turn = trace?.turn ?? injectedTurn;
  const decisions = slots.turns[turn];
  const explanation: EventExplanation = {
    turn,
    outcome: 'unchanged',
    sentence: '',
  };
  const summary = decision(decisions?.summary ?? null, slots);
  const reasoning = decision(decisions?.reasoning ?? null, slots);
  const toolCalls = decision(decisions?.toolCalls ?? null, slots);
  if (summary) explanation.summary = summary;
  if (reasoning) explanation.reasoning = reasoning;
  if (toolCalls) explanation.toolCalls = toolCalls;
  const turnText = `Turn ${turn + 1}`;

  if (!trace) {
    explanation.outcome = 'injected';
    explanation.sentence = summary
      ? `Injected by ${nameOf(summary)}: a summary replaces every event of the turns it wins.`
      : 'Injected by a summary compaction.';
    return explanation;
  }
  if (trace.reason === 'summary' && summary) {
    explanation.outcome = 'summarized';
    explanation.sentence = `${turnText} is summarized by ${nameOf(summary)}: the summary replaces every event of the turn, whatever the reasoning and tool policies say.`;
    return explanation;
  }
  if (trace.reason === 'reasoning' && reasoning) {
    explanation.outcome = 'reasoning-stripped';
    const over = trace.reasoningThreshold
      ? ` (${describeThreshold(trace.reasoningThreshold)})`
      : '';
    explanation.sentence = `${turnText}: ${nameOf(reasoning)} strips reasoning, so this reasoning is not sent${over}.`;
    return explanation;
  }
  if (trace.reasoningThreshold && reasoning) {
    explanation.sentence = `${turnText}: ${nameOf(reasoning)} strips reasoning over a threshold; kept: ${describeThreshold(trace.reasoningThreshold)}.`;
    return explanation;
  }
  if (trace.tool && toolCalls) {
    const { policy, source, toolName, threshold, naming } = trace.tool;
    explanation.toolPolicy = { policy, from: source };
    const { outcome, sentence } = toolSentence(
      element,
      toolCalls,
      policy,
      source,
      toolName,
      threshold,
    );
    explanation.outcome = outcome;
    explanation.sentence = `${turnText}: ${sentence}${describeNaming(naming, toolName)}`;
    return explanation;
  }
  const isTool = element.type === 'tool_call_request' || element.type === 'tool_call_response';
  if (isTool) {
    explanation.sentence = reasoning
      ? `${turnText}: ${nameOf(reasoning)} covers this turn but sets no tool_calls, so its tool_overrides are inert and the event is sent as is.`
      : `${turnText} is not covered by any compaction that sets tool_calls: sent as is.`;
    return explanation;
  }
  explanation.sentence = `${turnText} is not changed by any compaction for this event: sent as is.`;
  return explanation;
}
