/**
 * One request's prompt as the replay priced it, beside the same prompt with
 * nothing compacted or cleared (issues 22 and 41): what the model would
 * have seen at request k, not only at the end, for the diff pane. Under a
 * runtime's policy the right side holds what the policy put in place of
 * each cleared item, with its size; under one of JP's schedules (and a
 * tool's what-if hint) it holds the projection with the compactions in
 * force at k. Both sides are transcript entries keyed by stream index, so
 * the diff lines them up, and both start with the invisible prefix the
 * request carries as one block of its size.
 *
 * Boundary: pure TypeScript, no DOM. The worker runs it as an extra.
 */
import { formatCount } from '../counting/format.ts';
import { getPayload, getResponsePart } from '../counting/report.ts';
import type { ToolChoice } from '../playground/pipeline.ts';
import type { TranscriptEntry } from '../playground/types.ts';
import type { StreamElement } from '../types.ts';
import { getPrefixTokens } from './calibrate.ts';
import {
  type PolicyChoice,
  type PolicyItem,
  parsePolicyChoice,
  replacementKey,
} from './policies/policies.ts';
import { createItemToolNamer, type PolicyPromptSeen, runPolicy } from './policy-runner.ts';
import type { PromptItem } from './prompts.ts';
import {
  type CalibrationChoice,
  createPricingModel,
  type PolicySelection,
  type ReplaySource,
  resolveReplaySettings,
  triggersFor,
} from './replay.ts';
import { getSchedulePrompt } from './schedule-runner.ts';
import type { ScheduleId } from './schedules.ts';
import { createStreamState } from './stream-state.ts';

/** Which request, under which schedule or policy and prices (the model sets the context window some read). */
export interface RequestPromptArgs {
  /** 1-based; null for the last request. */
  request: number | null;
  policy: PolicySelection;
  /** JP's schedule, read when the policy is `jp`; `stored` when left out. */
  schedule?: ScheduleId;
  /** Under JP: one tool's hint replaced, as a cell of the per-tool what-if. */
  toolChoice?: ToolChoice | null;
  model: string | null;
  price: string | null;
  /** The cost pane's calibration: the policy triggers on the prompt as the replay prices it. */
  calibration?: CalibrationChoice;
  prefixTokens?: number | null;
}

/** What the right side is under: a runtime's policy, or JP's schedule with a tool's what-if. */
export type RequestPromptUnder =
  | { kind: 'policy'; policy: PolicyChoice }
  | { kind: 'schedule'; schedule: ScheduleId; toolChoice: ToolChoice | null };

/** Request k's prompt with nothing removed and as the schedule or policy left it. */
export interface RequestPrompt {
  /** 1-based, clamped to the conversation's requests. */
  request: number;
  requests: number;
  /** When the request was made (canonical), null when unknown. */
  time: string | null;
  under: RequestPromptUnder;
  /** The invisible prefix the request carries ahead of its items (billed tokens), as the replay priced it. */
  prefixTokens: number;
  /** Billed tokens per counted token (the calibration's factor). */
  tokenFactor: number;
  /**
   * Output the prompt's responses carry that the transcript does not show
   * (billed tokens, on each side): the billed prompt is the prefix, plus the
   * factor times the counted items, plus this.
   */
  hiddenTokens: { before: number; after: number };
  /** The prompt the replay priced at this request (billed tokens), on each side. */
  billedTokens: { before: number; after: number };
  /** The prompt as the client holds it: nothing cleared or compacted. */
  before: TranscriptEntry[];
  /** The prompt the policy or schedule leaves. */
  after: TranscriptEntry[];
  /** Items replaced (policy) or changed by compaction (schedule) in this prompt, summaries aside. */
  replaced: number;
}

export type RequestPromptResult =
  | { status: 'ok'; value: RequestPrompt }
  | { status: 'invalid'; message: string };

/** What the right side is under, in words: `anthropic-context-editing`, `jp auto`, `jp auto with Read = omit`. */
export function describeRequestPromptUnder(under: RequestPromptUnder): string {
  if (under.kind === 'policy') return under.policy.name;
  const tool = under.toolChoice;
  return `jp ${under.schedule}${tool ? ` with ${tool.tool} = ${tool.choice}` : ''}`;
}

/** What the request is computed from: the session's run, as the replay reads it. */
export type RequestPromptSource = ReplaySource;

/** The key of the invisible prefix's block, the same on both sides. */
export const PREFIX_ENTRY_KEY = 'invisible-prefix';

/** The invisible prefix as one block of its size; null when the replay models none. */
function getPrefixEntry(tokens: number): TranscriptEntry | null {
  if (tokens <= 0) return null;
  return {
    key: PREFIX_ENTRY_KEY,
    type: 'invisible prefix',
    text: `[invisible prefix: ${formatCount(tokens)} tokens the runtime sends with every request and never writes to its transcript (system prompt, tool definitions)]`,
    tokens,
  };
}

/**
 * Keys by stream index, with an occurrence where one index gives two items
 * (a response sanitize added takes its request's index), so each side's
 * keys are unique and the same event has the same key on both.
 */
function createEntryKeyer(): (origin: number) => string {
  const seen = new Map<string, number>();
  return (origin) => {
    const base = Number.isFinite(origin) ? `e${origin}` : 'summary';
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}#${n}`;
  };
}

function toEntry(
  key: string,
  element: StreamElement,
  tool: string | null,
  text: string,
  tokens: number,
): TranscriptEntry {
  const entry: TranscriptEntry = { key, type: String(element.type), text, tokens };
  const part = getResponsePart(element);
  if (part !== undefined) entry.part = part;
  if (typeof element.id === 'string') entry.id = element.id;
  if (tool !== null) entry.toolName = tool;
  return entry;
}

/** Request `args.request`'s prompt under `args.policy` (or JP's `args.schedule`), or why it cannot be shown. */
export function getRequestPrompt(
  source: RequestPromptSource,
  args: RequestPromptArgs,
): RequestPromptResult {
  const isJp = args.policy.name === 'jp';
  const policy = isJp ? null : parsePolicyChoice(args.policy.name, args.policy.set);
  if (policy && !policy.ok) {
    return { status: 'invalid', message: `${args.policy.name}: ${policy.errors.join('; ')}` };
  }
  const schedule = args.schedule ?? 'stored';
  // The one resolver the cost pane's figures are priced with: the same calibration and model.
  const resolved = resolveReplaySettings(source, {
    model: args.model,
    price: args.price,
    schedule: isJp ? schedule : 'none',
    calibration: args.calibration ?? 'auto',
    prefixTokens: args.prefixTokens ?? null,
    policy: args.policy,
  });
  if (resolved.status !== 'ok') return { status: 'invalid', message: resolved.message };
  const pricing = createPricingModel(createStreamState(source.elements, resolved.settings));
  const { state } = pricing;
  const requests = state.scan.requests.length;
  if (requests === 0) return { status: 'invalid', message: 'The conversation makes no request' };
  const index = Math.max(
    0,
    Math.min(args.request === null ? requests - 1 : args.request - 1, requests - 1),
  );
  const prefixTokens = Math.round(getPrefixTokens(pricing.calibration, index));
  const prefix = getPrefixEntry(prefixTokens);
  const toolOf = createItemToolNamer(state);
  const billed = (visible: number, hidden: number) =>
    Math.round(pricing.triggers.billedPrompt(index, visible, hidden));
  const common = {
    request: index + 1,
    requests,
    time: state.scan.requests[index]?.time ?? null,
    prefixTokens,
    tokenFactor: pricing.calibration.tokenFactor,
  };

  // The left side: the prompt with nothing removed, as `none` holds it at this request.
  const whole = getSchedulePrompt(state, 'none', triggersFor(pricing, 'none'), index);
  if (!whole) return { status: 'invalid', message: 'The conversation makes no request' };
  const beforeKey = createEntryKeyer();
  const before: TranscriptEntry[] = prefix ? [prefix] : [];
  const wholeItems = whole.items.slice(0, whole.count);
  for (const item of wholeItems) {
    const text = getPayload(item.element)?.text ?? '';
    before.push(toEntry(beforeKey(item.origin), item.element, toolOf(item), text, item.tokens));
  }

  if (policy?.ok) {
    let seen: PolicyPromptSeen | null = null;
    runPolicy(state, policy.value, pricing.calibration, pricing.model.context_window_tokens, {
      index,
      seen: (prompt) => {
        seen = prompt;
      },
    });
    const prompt = seen as PolicyPromptSeen | null;
    if (!prompt) return { status: 'invalid', message: 'The conversation makes no request' };
    const { after, replaced, visible, hidden } = applyPolicyPrompt(prompt, policy.value, prefix);
    return {
      status: 'ok',
      value: {
        ...common,
        under: { kind: 'policy', policy: policy.value },
        hiddenTokens: { before: whole.hidden, after: hidden },
        billedTokens: {
          before: billed(whole.tokens, whole.hidden),
          after: billed(visible, hidden),
        },
        before,
        after,
        replaced,
      },
    };
  }

  const toolChoice = args.toolChoice ?? null;
  const compacted = getSchedulePrompt(
    state,
    schedule,
    triggersFor(pricing, schedule),
    index,
    toolChoice ?? undefined,
  );
  if (!compacted) return { status: 'invalid', message: 'The conversation makes no request' };
  const afterKey = createEntryKeyer();
  const after: TranscriptEntry[] = prefix ? [prefix] : [];
  // An item is unchanged when the compacted prompt holds the very element the whole one does.
  const untouched = new Set<StreamElement>(wholeItems.map((item) => item.element));
  let replaced = 0;
  for (const item of compacted.items.slice(0, compacted.count) as PromptItem[]) {
    const text = getPayload(item.element)?.text ?? '';
    if (!untouched.has(item.element)) replaced++;
    after.push(toEntry(afterKey(item.origin), item.element, toolOf(item), text, item.tokens));
  }
  return {
    status: 'ok',
    value: {
      ...common,
      under: { kind: 'schedule', schedule, toolChoice },
      hiddenTokens: { before: whole.hidden, after: compacted.hidden },
      billedTokens: {
        before: billed(whole.tokens, whole.hidden),
        after: billed(compacted.tokens, compacted.hidden),
      },
      before,
      after,
      replaced,
    },
  };
}

/** The right side under a runtime's policy: the summary in force, then each item or what replaced it. */
function applyPolicyPrompt(
  prompt: PolicyPromptSeen,
  policy: PolicyChoice,
  prefix: TranscriptEntry | null,
): { after: TranscriptEntry[]; replaced: number; visible: number; hidden: number } {
  const after: TranscriptEntry[] = prefix ? [prefix] : [];
  const { summary } = prompt;
  let visible = summary?.tokens ?? 0;
  let hidden = 0;
  if (summary) {
    after.push({
      key: `summary:${summary.since}`,
      type: 'summary',
      text: `[summary made at request ${summary.since + 1}, in place of everything before; its size is an estimate: ${formatCount(summary.tokens)} tokens]`,
      tokens: summary.tokens,
    });
  }
  const key = createEntryKeyer();
  let replaced = 0;
  for (const item of prompt.items as PolicyItem[]) {
    const entryKey = key(item.origin);
    if (summary && item.origin <= summary.through) continue;
    const text = getPayload(item.element)?.text ?? '';
    const replacement = prompt.decision.replaced.get(replacementKey(item.origin, item.kind));
    // A cleared item's hidden output goes with it into the prompt, as the policy run counts it.
    hidden += item.hidden;
    visible += replacement ? replacement.tokens : item.tokens;
    if (replacement) {
      replaced++;
      after.push(
        toEntry(
          entryKey,
          item.element,
          item.tool,
          `[${replacement.what} by ${policy.name}: ${formatCount(item.tokens)} tokens → ${formatCount(replacement.tokens)}]`,
          replacement.tokens,
        ),
      );
    } else {
      after.push(toEntry(entryKey, item.element, item.tool, text, item.tokens));
    }
  }
  return { after, replaced, visible, hidden };
}
