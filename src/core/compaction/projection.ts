/**
 * The compaction folder owns what compaction does to a stream (spec 4–13):
 * creating compaction events from the config's rules with their frozen
 * `tool_overrides` (creation.ts), projecting a stream with its compactions
 * into what the model is sent (this file, the folder's entry point), the
 * decisions behind each projected element (explain.ts), JP's dry-run lines
 * (jp-timeline.ts) and the switchable readings of D17's open points
 * (readings.ts).
 *
 * JP's projection (spec 4) with the D17 per-tool overrides (spec 11, 13):
 * what a stream with compaction overlays looks like once they are applied,
 * plus the provider filter (spec 3) and, for the UI's "Explain" panel, a
 * record of every decision taken.
 *
 * Linear in the stream (plus the turns each compaction covers). Elements that
 * come through unchanged are the input objects themselves; only modified and
 * injected elements are new.
 */
import { formatByteSize, MAX_BYTE_SIZE, utf8Length } from '../config/byte-size.ts';
import type { JpBase } from '../config/jp-base.ts';
import {
  parseToolCallPolicy,
  readStoredReasoning,
  readStoredSummary,
  readStoredToolCalls,
} from '../config/rule-config.ts';
import { carryNumberTexts } from '../json/number-text.ts';
import { canonicalTimestamp, type Instant, parseTimestamp } from '../stream/timestamp.ts';
import { assignTurns, classifyElement } from '../stream/turns.ts';
import type { JsonValue, StreamElement, ToolCallPolicy } from '../types.ts';
import { DEFAULT_READINGS, type Readings } from './readings.ts';

/** The request text of an injected summary (spec 4 step 5.3). */
export const SUMMARY_REQUEST_CONTENT = '[Summary of previous conversation]';

/** Where a projected turn comes from (spec 4 step 6). */
export type TurnOrigin =
  /** A raw turn, possibly with stripped content; the value is its 0-based raw index. */
  | { kept: number }
  /** An injected summary standing for the raw turns `from..=to` (0-based). */
  | { summary: { from: number; to: number } };

/** A compaction element, identified both ways. */
export interface CompactionRef {
  /** 0-based position among the stream's compactions, in stream order (`--reset=K` is `ordinal + 1`). */
  ordinal: number;
  /** Index of the compaction element in the input array. */
  index: number;
}

/** The summary that won a turn (spec 4 steps 2 and 4). */
export interface SummaryDecision extends CompactionRef {
  /** The summary text that is injected. */
  text: string;
  /** The run of raw turns this summary wins contiguously, which one injection stands for. */
  run: { from: number; to: number };
}

/** The `tool_calls` policy that won a turn (spec 4 step 2). */
export interface ToolCallsDecision extends CompactionRef {
  /** The winner's `tool_calls`: the default for tools it does not override. */
  policy: ToolCallPolicy;
  /** The winner's `tool_overrides` (D17), by tool name; empty when absent. */
  overrides: Readonly<Record<string, ToolCallPolicy>>;
}

/**
 * The winners of one raw turn's three slots (latest timestamp, stream order
 * breaks ties). A summary takes precedence: when `summary` is set, the other
 * two slots are recorded but have no effect on the turn.
 */
export interface TurnDecision {
  /** The raw 0-based turn. */
  turn: number;
  summary: SummaryDecision | null;
  reasoning: CompactionRef | null;
  toolCalls: ToolCallsDecision | null;
}

/** A size threshold as one decision used it (spec 15.2, 15.3). */
export interface ThresholdCheck {
  /** The threshold in its written form (`"1KB"`). */
  over: string;
  /** The size judged against it, in bytes: the item's own, or the pair's total for `omit`. */
  size: number;
  /** Whether the size is over the threshold (`size > over`), so the policy reached the item. */
  reached: boolean;
  /** What was measured: the item alone, or its request/response pair (`omit`). */
  measure: 'own' | 'pair';
}

/** How a response got its tool name (spec 15.3): paired by position in its turn, or the id map. */
export type ResponseNaming =
  | { kind: 'paired'; requestIndex: number }
  | { kind: 'unpaired' }
  | { kind: 'id-map' };

/** The policy applied to one tool event (spec 4 step 5.4.2 with D17). */
export interface ToolPolicyDecision {
  /**
   * The tool's name: the request's `name`, or for a response the name of
   * the request it pairs with (15.3; under `2026-08` the request with its
   * id); `null` when there is none.
   */
  toolName: string | null;
  /** For a response: how its name was found. */
  naming?: ResponseNaming;
  /** The threshold that decided it, when the policy had one (15.3). */
  threshold?: ThresholdCheck;
  /** The effective policy. */
  policy: ToolCallPolicy;
  /** Whether the policy is the winner's `tool_overrides[toolName]` or its `tool_calls`. */
  source: 'tool_overrides' | 'tool_calls';
  /** The compaction that won the turn's tool_calls slot. */
  compaction: CompactionRef;
}

/** Why projection changed or dropped an input element. */
export type ProjectionReason =
  /** A compaction element: compactions never survive projection. */
  | 'compaction'
  /** A conversation event of a summarized turn. */
  | 'summary'
  /** A reasoning response under `reasoning: "strip"`. */
  | 'reasoning'
  /** A tool event under the turn's tool policy. */
  | 'tool_calls';

/** What happened to one input element. */
export interface SourceTrace {
  /** Its raw 0-based turn (spec 2, counting every element). */
  turn: number;
  /** `kept`: the same object is in the output; `modified`: a changed copy is; `dropped`: nothing is. */
  fate: 'kept' | 'modified' | 'dropped';
  /** Why it was modified or dropped; absent when kept. */
  reason?: ProjectionReason;
  /** Index of its (possibly modified) element in the projected stream, `null` when dropped. */
  projectedIndex: number | null;
  /** For a tool event of a turn with a tool_calls winner and no summary: the policy applied. */
  tool?: ToolPolicyDecision;
  /** For a reasoning response of a turn whose reasoning winner has a threshold: how it was judged. */
  reasoningThreshold?: ThresholdCheck;
}

/** Where one projected element comes from. */
export interface ProjectedTrace {
  /** Index of its source element in the input, `null` for an injected summary event. */
  sourceIndex: number | null;
  /** The raw turn of its source; for injected events, the first turn of the summary's run. */
  rawTurn: number;
  /** Its 0-based turn in the projected stream (spec 2 numbering); indexes `turnOrigins`. */
  projectedTurn: number;
}

/** The result of {@link project}. */
export interface Projection {
  /** The projected stream: every element but compactions, with policies applied and summaries injected. */
  elements: StreamElement[];
  /** One origin per projected turn (spec 4 step 6). */
  turnOrigins: TurnOrigin[];
  /** Parallel to `elements`: where each projected element comes from. */
  projected: ProjectedTrace[];
  /** Parallel to the input: what happened to each input element. */
  sources: SourceTrace[];
  /** One entry per raw turn `0..=max_turn` (none for an empty input): the winners of its slots. */
  turns: TurnDecision[];
  /** The input index of each compaction, by ordinal. */
  compactionIndices: number[];
  /** Step 3 for each tool event, by input index: its name and sizes (15.3). */
  tools: ReadonlyMap<number, ToolInfo>;
}

/** A compaction element, read leniently: malformed policies count as absent. */
interface CompactionInfo extends CompactionRef {
  instant: Instant | undefined;
  timestampText: string;
  fromTurn: number;
  toTurn: number;
  summary: string | undefined;
  stripsReasoning: boolean;
  /** The reasoning policy's threshold in bytes (15.1), null when it has none. */
  reasoningOver: bigint | null;
  toolCalls: ToolCallPolicy | undefined;
  /** The tool_calls policy's threshold in bytes (15.1), null when it has none. */
  toolCallsOver: bigint | null;
  overrides: Record<string, ToolCallPolicy>;
  hasOverrides: boolean;
}

/** The event types a provider sees after projection (spec 3). */
export const PROVIDER_VISIBLE_TYPES: ReadonlySet<string> = new Set([
  'chat_request',
  'chat_response',
  'tool_call_request',
  'tool_call_response',
]);

/** Whether an element reaches an LLM provider (spec 3). */
export function isProviderVisible(element: StreamElement): boolean {
  return (
    typeof element.type === 'string' &&
    PROVIDER_VISIBLE_TYPES.has(element.type) &&
    classifyElement(element) === 'conversation'
  );
}

/**
 * The provider filter (spec 3): the provider-visible events in order. Elements
 * are shared, not copied; fields a provider never receives (such as `author`)
 * are left for the consumer to ignore.
 */
export function providerView(elements: readonly StreamElement[]): StreamElement[] {
  return elements.filter(isProviderVisible);
}

/** The stream without its compaction elements: what the model would see with no compaction. */
export function removeCompactions(elements: readonly StreamElement[]): StreamElement[] {
  return elements.filter((element) => classifyElement(element) !== 'compaction');
}

/**
 * The id → name map of every `tool_call_request` in the stream, in stream
 * order, a later request overwriting an earlier one with the same id (spec 4
 * step 3). The only way a response gets a tool name.
 */
export function buildToolNameMap(elements: readonly StreamElement[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const element of elements) {
    if (element.type !== 'tool_call_request' || classifyElement(element) !== 'conversation')
      continue;
    if (typeof element.id === 'string' && typeof element.name === 'string') {
      names.set(element.id, element.name);
    }
  }
  return names;
}

/**
 * Projects a stream (spec 4 with D17, spec 11 and 13). Without compactions
 * the output is the input unchanged (step 0). Pure and linear; unchanged
 * elements are shared with the input. `readings` switches D17's open points
 * to their alternatives (readings.ts); the default is the spec's rulings.
 */
export function project(
  elements: readonly StreamElement[],
  readings: Readonly<Readings> = DEFAULT_READINGS,
  knownToolInfo?: KnownToolInfo,
): Projection {
  const rawTurns = assignTurns(elements);
  // Turns are numbered in stream order, so the last element has the largest.
  const maxTurn = rawTurns.length === 0 ? 0 : (rawTurns[rawTurns.length - 1] as number);
  const turnCount = elements.length === 0 ? 0 : maxTurn + 1;
  // Today's JP drops tool_overrides on read (it has no D17).
  const compactions = readCompactions(elements, readings.jp === 'd17', readings.base);
  const toolContest = getToolContest(readings);
  // Only the alternative readings need every contestant of a turn, not just its winner.
  const toolContestants: CompactionInfo[][] | undefined =
    toolContest === 'slot' ? undefined : Array.from({ length: turnCount }, () => []);

  // Step 2: per-turn slots; latest timestamp wins, `>=` lets stream order break ties.
  const summaryWinners: (CompactionInfo | undefined)[] = new Array(turnCount).fill(undefined);
  const reasoningWinners: (CompactionInfo | undefined)[] = new Array(turnCount).fill(undefined);
  const toolWinners: (CompactionInfo | undefined)[] = new Array(turnCount).fill(undefined);
  const ordered = toolContestants === undefined && isInStreamOrderOfTime(compactions);
  if (ordered) {
    fillLastCovering(
      compactions,
      maxTurn,
      turnCount,
      (c) => c.summary !== undefined,
      summaryWinners,
    );
    fillLastCovering(compactions, maxTurn, turnCount, (c) => c.stripsReasoning, reasoningWinners);
    fillLastCovering(
      compactions,
      maxTurn,
      turnCount,
      (c) => c.toolCalls !== undefined,
      toolWinners,
    );
  }
  for (const compaction of ordered ? [] : compactions) {
    const last = Math.min(compaction.toTurn, maxTurn);
    for (let turn = compaction.fromTurn; turn <= last && turn < turnCount; turn++) {
      if (compaction.summary !== undefined && winsOver(compaction, summaryWinners[turn])) {
        summaryWinners[turn] = compaction;
      }
      if (compaction.stripsReasoning && winsOver(compaction, reasoningWinners[turn])) {
        reasoningWinners[turn] = compaction;
      }
      if (compaction.toolCalls !== undefined && winsOver(compaction, toolWinners[turn])) {
        toolWinners[turn] = compaction;
      }
      if (
        toolContestants !== undefined &&
        (compaction.toolCalls !== undefined || compaction.hasOverrides)
      ) {
        toolContestants[turn]?.push(compaction);
      }
    }
  }

  // Step 3: tool names (and sizes), by position within a turn under 2026-09 (15.3).
  const toolInfo =
    knownToolInfo?.base === readings.base
      ? knownToolInfo.tools
      : getToolInfo(elements, readings.base, rawTurns);

  // Step 4: summary runs, following the winners rather than the declared ranges.
  const runEnds: (number | undefined)[] = new Array(turnCount).fill(undefined);
  const runStarts: number[] = new Array(turnCount).fill(0);
  for (let turn = 0; turn < turnCount; turn++) {
    const winner = summaryWinners[turn];
    if (winner === undefined) continue;
    const previous = turn > 0 ? summaryWinners[turn - 1] : undefined;
    if (previous !== undefined && sameSummary(previous, winner)) {
      runStarts[turn] = runStarts[turn - 1] as number;
      continue;
    }
    let end = turn;
    while (end + 1 < turnCount) {
      const next = summaryWinners[end + 1];
      if (next === undefined || !sameSummary(next, winner)) break;
      end++;
    }
    runStarts[turn] = turn;
    runEnds[turn] = end;
  }

  const turns: TurnDecision[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const summary = summaryWinners[turn];
    const reasoning = reasoningWinners[turn];
    const tool = toolWinners[turn];
    const runStart = runStarts[turn] as number;
    turns.push({
      turn,
      summary:
        summary === undefined
          ? null
          : {
              ...refOf(summary),
              text: summary.summary as string,
              run: { from: runStart, to: runEnds[runStart] as number },
            },
      reasoning: reasoning === undefined ? null : refOf(reasoning),
      toolCalls:
        tool === undefined
          ? null
          : {
              ...refOf(tool),
              policy: tool.toolCalls as ToolCallPolicy,
              overrides: tool.overrides,
            },
    });
  }

  // Step 5: walk the elements.
  const output: StreamElement[] = [];
  const projected: ProjectedTrace[] = [];
  const sources: SourceTrace[] = new Array(elements.length);
  const injected: boolean[] = new Array(turnCount).fill(false);
  const emit = (element: StreamElement, sourceIndex: number | null, rawTurn: number): number => {
    output.push(element);
    projected.push({ sourceIndex, rawTurn, projectedTurn: 0 });
    return output.length - 1;
  };

  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as StreamElement;
    const turn = rawTurns[index] as number;
    const kind = classifyElement(element);
    if (kind === 'compaction') {
      sources[index] = { turn, fate: 'dropped', reason: 'compaction', projectedIndex: null };
      continue;
    }
    if (kind !== 'conversation') {
      sources[index] = { turn, fate: 'kept', projectedIndex: emit(element, index, turn) };
      continue;
    }

    const isRequest = element.type === 'tool_call_request';
    const isResponse = element.type === 'tool_call_response';
    const summary = summaryWinners[turn];
    if (summary !== undefined) {
      if (runEnds[turn] !== undefined && !injected[turn]) {
        injected[turn] = true;
        const timestamp = canonicalOf(element.timestamp);
        emit({ timestamp, type: 'turn_start' }, null, turn);
        emit({ timestamp, type: 'chat_request', content: SUMMARY_REQUEST_CONTENT }, null, turn);
        emit({ timestamp, type: 'chat_response', message: summary.summary as string }, null, turn);
      }
      if (
        readings.summaryOverKeep === 'keep-survives' &&
        (isRequest || isResponse) &&
        isKeep(overrideOf(summary, toolInfo.get(index)?.name ?? null))
      ) {
        sources[index] = { turn, fate: 'kept', projectedIndex: emit(element, index, turn) };
        continue;
      }
      sources[index] = { turn, fate: 'dropped', reason: 'summary', projectedIndex: null };
      continue;
    }

    const reasoningWinner = reasoningWinners[turn];
    if (reasoningWinner !== undefined && isReasoningResponse(element)) {
      const over = reasoningWinner.reasoningOver;
      if (over === null) {
        sources[index] = { turn, fate: 'dropped', reason: 'reasoning', projectedIndex: null };
        continue;
      }
      const check = checkThreshold(getMeasuredSize(element), over, 'own');
      sources[index] = check.reached
        ? {
            turn,
            fate: 'dropped',
            reason: 'reasoning',
            projectedIndex: null,
            reasoningThreshold: check,
          }
        : {
            turn,
            fate: 'kept',
            projectedIndex: emit(element, index, turn),
            reasoningThreshold: check,
          };
      continue;
    }

    const info = isRequest || isResponse ? toolInfo.get(index) : undefined;
    const toolName = info?.name ?? null;
    const winner =
      toolContestants === undefined || !(isRequest || isResponse)
        ? toolWinners[turn]
        : contestWinner(toolContestants[turn] ?? [], toolContest, toolName);
    if (winner === undefined || !(isRequest || isResponse)) {
      sources[index] = { turn, fate: 'kept', projectedIndex: emit(element, index, turn) };
      continue;
    }

    const override = overrideOf(winner, toolName);
    const chosen = override ?? winner.toolCalls;
    if (chosen === undefined) {
      // Reading 13.1 "apply": the winner has overrides but none for this tool and no tool_calls.
      sources[index] = { turn, fate: 'kept', projectedIndex: emit(element, index, turn) };
      continue;
    }
    const policy = chosen;
    const tool: ToolPolicyDecision = {
      toolName,
      policy,
      source: override === undefined ? 'tool_calls' : 'tool_overrides',
      compaction: refOf(winner),
    };
    if (isResponse && info !== undefined) tool.naming = info.naming;
    // 15.7.1: an override carries no threshold, unless the reading inherits the winner's.
    const over =
      override === undefined || readings.overrideOver === 'inherit' ? winner.toolCallsOver : null;
    const reaches = (measure: 'own' | 'pair'): boolean => {
      if (over === null || info === undefined) return true;
      tool.threshold = checkThreshold(info[measure], over, measure);
      return tool.threshold.reached;
    };

    if (policy.policy === 'omit') {
      if (reaches('pair')) {
        sources[index] = {
          turn,
          fate: 'dropped',
          reason: 'tool_calls',
          projectedIndex: null,
          tool,
        };
      } else {
        sources[index] = { turn, fate: 'kept', projectedIndex: emit(element, index, turn), tool };
      }
      continue;
    }
    const half = isRequest ? policy.request : policy.response;
    let replacement: StreamElement | undefined;
    if (half && !reaches('own')) {
      // Spared by the threshold: left raw (15.3).
    } else if (isRequest && policy.request) {
      // Not a placeholder: an empty object gives the model nothing to echo (spec 12 #2).
      replacement = getStrippedElement(element, null);
    } else if (isResponse && policy.response) {
      const status = element.is_error === true ? 'error' : 'success';
      replacement = getStrippedElement(element, `[compacted] ${toolName ?? 'unknown'}: ${status}`);
    }
    sources[index] =
      replacement === undefined
        ? { turn, fate: 'kept', projectedIndex: emit(element, index, turn), tool }
        : {
            turn,
            fate: 'modified',
            reason: 'tool_calls',
            projectedIndex: emit(replacement, index, turn),
            tool,
          };
  }

  // Step 6: group the projected stream into turns (spec 2) and report each turn's origin.
  const turnOrigins: TurnOrigin[] = [];
  let projectedTurn = 0;
  let seen = false;
  for (let i = 0; i < output.length; i++) {
    const element = output[i] as StreamElement;
    const trace = projected[i] as ProjectedTrace;
    const conversation = classifyElement(element) === 'conversation';
    const opens = conversation && (!seen || element.type === 'turn_start');
    if (opens && seen) projectedTurn++;
    trace.projectedTurn = projectedTurn;
    if (opens) {
      const run = trace.sourceIndex === null ? turns[trace.rawTurn]?.summary?.run : undefined;
      turnOrigins.push(
        run === undefined ? { kept: trace.rawTurn } : { summary: { from: run.from, to: run.to } },
      );
    }
    if (conversation) seen = true;
  }

  return {
    elements: output,
    turnOrigins,
    projected,
    sources,
    turns,
    compactionIndices: compactions.map((c) => c.index),
    tools: toolInfo,
  };
}

/**
 * Step 3 under `base`: how each tool event is named and sized, by input
 * index. Under `2026-09` requests and responses pair by position within a
 * turn (15.3); under `2026-08` a response is named through the stream-wide
 * id map (spec 4). Projection and every figure that names a response use it.
 */
export function getToolInfo(
  elements: readonly StreamElement[],
  base: JpBase,
  rawTurns?: readonly number[],
): Map<number, ToolInfo> {
  return base === '2026-08'
    ? idMapToolInfo(elements, buildToolNameMap(elements))
    : pairToolCalls(elements, rawTurns);
}

/**
 * Step 3 of a stream's first elements, computed by the caller under `base`:
 * what {@link project} takes instead of pairing again when all that follows
 * them is compaction events. Those are neither tool events nor turn starts,
 * so they change no earlier pairing, turn or size; each run of a hint edit
 * projects the same stream with new compactions appended.
 */
export interface KnownToolInfo {
  base: JpBase;
  tools: ReadonlyMap<number, ToolInfo>;
}

/** Each tool response of `elements` (by object) with its name from step 3 under `base`. */
export function nameToolResponses(
  elements: readonly StreamElement[],
  base: JpBase,
  tools: ReadonlyMap<number, ToolInfo> = getToolInfo(elements, base),
): Map<StreamElement, string | null> {
  const names = new Map<StreamElement, string | null>();
  for (const [index, info] of tools) {
    const element = elements[index] as StreamElement;
    if (element.type === 'tool_call_response') names.set(element, info.name);
  }
  return names;
}

/**
 * Each tool response of the projected stream (by object) with the name the
 * projection gave it: its source's step-3 name, the one a placeholder says.
 */
export function nameProjectedResponses(projection: Projection): Map<StreamElement, string | null> {
  const names = new Map<StreamElement, string | null>();
  projection.elements.forEach((element, index) => {
    if (element.type !== 'tool_call_response') return;
    const source = projection.projected[index]?.sourceIndex;
    if (source === null || source === undefined) return;
    names.set(element, projection.tools.get(source)?.name ?? null);
  });
  return names;
}

/** How the tool-call slot is contested under the readings (13.1 and 13.2). */
type ToolContest = 'slot' | 'any-policy' | 'per-tool';

function getToolContest(readings: Readonly<Readings>): ToolContest {
  // Without hints (JP today) every alternative contest gives the spec's slot winner.
  if (readings.jp === 'today') return 'slot';
  if (readings.stacking === 'per-tool') return 'per-tool';
  return readings.noToolCalls === 'apply' ? 'any-policy' : 'slot';
}

/**
 * The winner among a turn's contestants (stream order, spec 4 step 2's
 * `>=`): under `any-policy` every compaction with tool_calls or overrides;
 * under `per-tool` only those with tool_calls or an override for the tool.
 */
function contestWinner(
  contestants: readonly CompactionInfo[],
  contest: ToolContest,
  toolName: string | null,
): CompactionInfo | undefined {
  let winner: CompactionInfo | undefined;
  for (const contestant of contestants) {
    if (
      contest === 'per-tool' &&
      contestant.toolCalls === undefined &&
      overrideOf(contestant, toolName) === undefined
    ) {
      continue;
    }
    if (winsOver(contestant, winner)) winner = contestant;
  }
  return winner;
}

/** What step 3 knows of one tool event: its name and the sizes thresholds judge (15.3). */
export interface ToolInfo {
  name: string | null;
  /** Its own size in bytes (15.2). */
  own: number;
  /** Its pair's total for `omit` (its own size when it has no partner). */
  pair: number;
  /** For a response: how its name was found. */
  naming?: ResponseNaming;
}

/**
 * Sizes measured so far, by element. Elements are never mutated, and every
 * hint edit projects the same ones again: measuring a 1.8 MB stream's tool
 * events anew (its arguments serialized, every character of its contents
 * read) was about a third of an edit's run in the worker.
 */
const measuredSizes = new WeakMap<StreamElement, number>();

/**
 * Only sizes from this many bytes are kept: a small event is measured again
 * in less time than an entry costs. With 50,000 small tool events, keeping
 * every size was a tenth of a stream's first run, most of it the collector
 * walking the map's entries.
 */
const MEASURED_SIZE_KEPT_FROM = 1024;

/**
 * The size in bytes that thresholds judge (15.2): compact JSON of a tool
 * request's arguments, a tool response's content, a reasoning response's
 * reasoning.
 */
export function getMeasuredSize(element: StreamElement): number {
  let size = measuredSizes.get(element);
  if (size === undefined) {
    if (element.type === 'tool_call_request') {
      size = utf8Length(JSON.stringify(element.arguments ?? {}));
    } else if (element.type === 'tool_call_response') {
      size = typeof element.content === 'string' ? utf8Length(element.content) : 0;
    } else size = isReasoningResponse(element) ? utf8Length(element.reasoning as string) : 0;
    if (size >= MEASURED_SIZE_KEPT_FROM) measuredSizes.set(element, size);
  }
  return size;
}

/**
 * JP main's `build_tool_calls` (15.3): a response pairs with the oldest open
 * request of its own turn with its id; an unpaired response is `unknown`.
 * Built once on the raw input, so thresholds judge raw sizes.
 */
export function pairToolCalls(
  elements: readonly StreamElement[],
  rawTurns: readonly number[] = assignTurns(elements),
): Map<number, ToolInfo> {
  const infos = new Map<number, ToolInfo>();
  // The open requests of the current turn by id: an index, or the indices in
  // stream order when an id repeats. Turns only grow along the stream, so the
  // map starts empty at each turn (keys of turn and id cost 10 µs an event).
  const open = new Map<string, number | number[]>();
  let openTurn = -1;
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as StreamElement;
    const isRequest = element.type === 'tool_call_request';
    if (!(isRequest || element.type === 'tool_call_response')) continue;
    if (classifyElement(element) !== 'conversation') continue;
    const own = getMeasuredSize(element);
    const turn = rawTurns[index] as number;
    if (turn !== openTurn) {
      open.clear();
      openTurn = turn;
    }
    const id = typeof element.id === 'string' ? element.id : '';
    if (isRequest) {
      infos.set(index, {
        name: typeof element.name === 'string' ? element.name : null,
        own,
        pair: own,
      });
      const queued = open.get(id);
      if (queued === undefined) open.set(id, index);
      else if (typeof queued === 'number') open.set(id, [queued, index]);
      else queued.push(index);
      continue;
    }
    const requestIndex = takeOldest(open, id);
    const request = requestIndex === undefined ? undefined : infos.get(requestIndex);
    if (requestIndex === undefined || request === undefined) {
      infos.set(index, { name: null, own, pair: own, naming: { kind: 'unpaired' } });
      continue;
    }
    const total = request.own + own;
    // Saturating at u64::MAX, which no string in memory reaches.
    const pair = Math.min(total, MAX_BYTE_SIZE_NUMBER);
    request.pair = pair;
    infos.set(index, { name: request.name, own, pair, naming: { kind: 'paired', requestIndex } });
  }
  return infos;
}

/** u64::MAX as a number, for sums that are numbers (no string in memory comes near it). */
const MAX_BYTE_SIZE_NUMBER = Number(MAX_BYTE_SIZE);

/** Takes the oldest open request with `id` out of `open`. */
function takeOldest(open: Map<string, number | number[]>, id: string): number | undefined {
  const queued = open.get(id);
  if (typeof queued !== 'object') {
    open.delete(id);
    return queued;
  }
  return queued.shift();
}

/** Step 3 as JP 4c1c39f1 has it: names through the stream-wide id map, and no thresholds. */
function idMapToolInfo(
  elements: readonly StreamElement[],
  toolNames: ReadonlyMap<string, string>,
): Map<number, ToolInfo> {
  const infos = new Map<number, ToolInfo>();
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as StreamElement;
    if (element.type === 'tool_call_request') {
      infos.set(index, {
        name: typeof element.name === 'string' ? element.name : null,
        own: 0,
        pair: 0,
      });
    } else if (element.type === 'tool_call_response') {
      const name = typeof element.id === 'string' ? (toolNames.get(element.id) ?? null) : null;
      infos.set(index, { name, own: 0, pair: 0, naming: { kind: 'id-map' } });
    }
  }
  return infos;
}

/** `size > over` (15.2: strict), with the figures for the explain pane. */
function checkThreshold(size: number, over: bigint, measure: 'own' | 'pair'): ThresholdCheck {
  return { over: formatByteSize(over), size, reached: BigInt(size) > over, measure };
}

function overrideOf(
  compaction: CompactionInfo,
  toolName: string | null,
): ToolCallPolicy | undefined {
  return toolName !== null && Object.hasOwn(compaction.overrides, toolName)
    ? compaction.overrides[toolName]
    : undefined;
}

/** The stored form of the `keep` hint: strip nothing. */
function isKeep(policy: ToolCallPolicy | undefined): boolean {
  return policy?.policy === 'strip' && !policy.request && !policy.response;
}

function refOf(compaction: CompactionInfo): CompactionRef {
  return { ordinal: compaction.ordinal, index: compaction.index };
}

/** `challenger.timestamp >= holder.timestamp`, with an unreadable timestamp ordered first. */
/**
 * Whether every compaction has a time and none is earlier than the one
 * before it in the stream: then each turn's winner under `winsOver` is the
 * last compaction covering it, found without walking every range.
 */
function isInStreamOrderOfTime(compactions: readonly CompactionInfo[]): boolean {
  let previous: Instant | undefined;
  for (const compaction of compactions) {
    if (compaction.instant === undefined) return false;
    if (previous !== undefined && compaction.instant < previous) return false;
    previous = compaction.instant;
  }
  return true;
}

/**
 * Each turn's last covering compaction among those `takes`, in time linear
 * in the compactions and turns: from the last compaction back, each fills
 * the turns of its range no later one filled (the next unfilled turn found
 * by pointers that skip filled runs). The same as folding `winsOver` in
 * stream order when the compactions are in stream order of time; a
 * thousand compactions each over a thousand turns (a long session compacted
 * every turn) would otherwise be a million steps a projection.
 */
function fillLastCovering(
  compactions: readonly CompactionInfo[],
  maxTurn: number,
  turnCount: number,
  takes: (compaction: CompactionInfo) => boolean,
  winners: (CompactionInfo | undefined)[],
): void {
  // next[t]: the first turn at or after t not yet filled (turnCount when none).
  const next = new Int32Array(turnCount + 1);
  for (let t = 0; t <= turnCount; t++) next[t] = t;
  const find = (turn: number): number => {
    let root = turn;
    while ((next[root] as number) !== root) root = next[root] as number;
    let at = turn;
    while ((next[at] as number) !== root) {
      const up = next[at] as number;
      next[at] = root;
      at = up;
    }
    return root;
  };
  for (let k = compactions.length - 1; k >= 0; k--) {
    const compaction = compactions[k] as CompactionInfo;
    if (!takes(compaction)) continue;
    const last = Math.min(compaction.toTurn, maxTurn, turnCount - 1);
    if (compaction.fromTurn > last) continue;
    for (let turn = find(compaction.fromTurn); turn <= last; turn = find(turn)) {
      winners[turn] = compaction;
      next[turn] = turn + 1;
    }
  }
}

function winsOver(challenger: CompactionInfo, holder: CompactionInfo | undefined): boolean {
  if (holder === undefined || holder.instant === undefined) return true;
  if (challenger.instant === undefined) return false;
  return challenger.instant >= holder.instant;
}

/** Summaries are the same when their (text, from, to, timestamp) tuples are (spec 4 step 2). */
function sameSummary(a: CompactionInfo, b: CompactionInfo): boolean {
  if (a === b) return true;
  if (a.summary !== b.summary || a.fromTurn !== b.fromTurn || a.toTurn !== b.toTurn) return false;
  if (a.instant !== undefined && b.instant !== undefined) return a.instant === b.instant;
  return a.instant === b.instant && a.timestampText === b.timestampText;
}

/** Each element's stripped copies: its arguments emptied, and its content by placeholder. */
const emptiedArguments = new WeakMap<StreamElement, StreamElement>();
const replacedContents = new WeakMap<StreamElement, Map<string, StreamElement>>();

/**
 * The element with one field replaced (a tool request's arguments emptied,
 * a response's content by its placeholder), the same object each time it
 * is stripped alike: every projection of a stream under compactions strips
 * the same elements again, and an element that stays the same object is
 * compared, counted and cached as one (the replay's cache prefix and token
 * counts over a thousand projections of a long session). Elements are
 * never mutated. The copy keeps the element's other fields, numbers as read
 * included.
 */
function getStrippedElement(element: StreamElement, placeholder: string | null): StreamElement {
  if (placeholder === null) {
    let copy = emptiedArguments.get(element);
    if (!copy) {
      copy = { ...element, arguments: {} };
      carryNumberTexts(element, copy);
      emptiedArguments.set(element, copy);
    }
    return copy;
  }
  let byPlaceholder = replacedContents.get(element);
  if (!byPlaceholder) {
    byPlaceholder = new Map();
    replacedContents.set(element, byPlaceholder);
  }
  let copy = byPlaceholder.get(placeholder);
  if (!copy) {
    copy = { ...element, content: placeholder };
    carryNumberTexts(element, copy);
    byPlaceholder.set(placeholder, copy);
  }
  return copy;
}

/** A `chat_response` of the reasoning variant (spec 1.3 variant order). */
export function isReasoningResponse(element: StreamElement): boolean {
  return (
    element.type === 'chat_response' &&
    typeof element.message !== 'string' &&
    typeof element.reasoning === 'string'
  );
}

function canonicalOf(timestamp: JsonValue | undefined): string {
  return typeof timestamp === 'string' ? canonicalTimestamp(timestamp) : '';
}

function isTurnIndex(value: JsonValue | undefined): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A stored policy, or undefined when the value is not one (the config's rule, spec 1.3). */
function readPolicy(value: JsonValue | undefined): ToolCallPolicy | undefined {
  const parsed = parseToolCallPolicy(value);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Every compaction element, in stream order, with its stored policies read
 * by the rules of `base` (15.1; overrides only when read). A policy that does
 * not read counts as absent: the codec refuses such a stream anyway.
 */
function readCompactions(
  elements: readonly StreamElement[],
  readOverrides: boolean,
  base: JpBase,
): CompactionInfo[] {
  const compactions: CompactionInfo[] = [];
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as StreamElement;
    if (classifyElement(element) !== 'compaction') continue;
    const ordinal = compactions.length;
    const timestampText = typeof element.timestamp === 'string' ? element.timestamp : '';
    const summary = readStoredSummary(element.summary, base);
    const reasoning = readStoredReasoning(element.reasoning, base);
    const toolCalls = readStoredToolCalls(element.tool_calls, base);
    const overrides: Record<string, ToolCallPolicy> = Object.create(null);
    const rawOverrides = element.tool_overrides;
    if (
      readOverrides &&
      typeof rawOverrides === 'object' &&
      rawOverrides !== null &&
      !Array.isArray(rawOverrides)
    ) {
      for (const [name, value] of Object.entries(rawOverrides)) {
        const policy = readPolicy(value);
        if (policy !== undefined) overrides[name] = policy;
      }
    }
    // A malformed range has no effect (the codec reports it as an error).
    const valid = isTurnIndex(element.from_turn) && isTurnIndex(element.to_turn);
    compactions.push({
      ordinal,
      index,
      instant: parseTimestamp(timestampText),
      timestampText,
      fromTurn: valid ? (element.from_turn as number) : 1,
      toTurn: valid ? (element.to_turn as number) : 0,
      summary: summary.ok && summary.value !== null ? summary.value.summary : undefined,
      stripsReasoning: reasoning.ok && reasoning.value !== null,
      reasoningOver: reasoning.ok ? (reasoning.value?.over ?? null) : null,
      toolCalls: toolCalls.ok ? toolCalls.value?.policy : undefined,
      toolCallsOver: toolCalls.ok ? (toolCalls.value?.over ?? null) : null,
      overrides,
      hasOverrides: Object.keys(overrides).length > 0,
    });
  }
  return compactions;
}
