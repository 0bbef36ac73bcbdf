/**
 * One request's prompt under a runtime's own clearing, beside the same
 * prompt with no clearing (issue 22): what the model would have seen at request k, not
 * only at the end, for the diff pane. Both sides are transcript entries
 * keyed by stream index, so the diff lines them up; the right side holds
 * what the policy put in place of each cleared item, with its size.
 *
 * Boundary: pure TypeScript, no DOM. The worker runs it as an extra.
 */
import type { Readings } from '../compaction/readings.ts';
import type { ParsedConfig } from '../config/config.ts';
import { formatCount } from '../counting/format.ts';
import { getPayload, getResponsePart } from '../counting/report.ts';
import type { TokenCounter } from '../counting/tokens.ts';
import type { TranscriptEntry, ViewMode } from '../playground/types.ts';
import {
  type PolicyChoice,
  type PolicyItem,
  parsePolicyChoice,
  replacementKey,
} from './policies/policies.ts';
import {
  type CalibrationChoice,
  getPolicyPromptAt,
  type PolicySelection,
  type ReplaySource,
  resolveReplaySettings,
} from './replay.ts';

/** Which request, under which policy and prices (the model sets the context window some policies read). */
export interface RequestPromptArgs {
  /** 1-based; null for the last request. */
  request: number | null;
  policy: PolicySelection;
  model: string | null;
  price: string | null;
  /** The cost pane's calibration: the policy triggers on the prompt as the replay prices it. */
  calibration?: CalibrationChoice;
  prefixTokens?: number | null;
}

/** Request k's prompt with no clearing and under the policy. */
export interface RequestPrompt {
  /** 1-based, clamped to the conversation's requests. */
  request: number;
  requests: number;
  /** When the request was made (canonical), null when unknown. */
  time: string | null;
  policy: PolicyChoice;
  /** The prompt as the client holds it: nothing cleared. */
  before: TranscriptEntry[];
  /** The prompt the policy leaves: cleared items replaced, a summary in place of what it replaced. */
  after: TranscriptEntry[];
  /** Items the policy replaced in this prompt (results and inputs), summaries aside. */
  replaced: number;
}

export type RequestPromptResult =
  | { status: 'ok'; value: RequestPrompt }
  | { status: 'invalid'; message: string };

/** What the request is computed from: the session's run, as the replay reads it. */
export type RequestPromptSource = ReplaySource;

function toEntry(item: PolicyItem, text: string, tokens: number): TranscriptEntry {
  const { element } = item;
  const entry: TranscriptEntry = {
    key: `e${item.origin}`,
    type: String(element.type),
    text,
    tokens,
  };
  const part = getResponsePart(element);
  if (part !== undefined) entry.part = part;
  if (typeof element.id === 'string') entry.id = element.id;
  if (item.tool !== null) entry.toolName = item.tool;
  return entry;
}

/** Request `args.request`'s prompt under `args.policy`, or why it cannot be shown. */
export function getRequestPrompt(
  source: RequestPromptSource,
  args: RequestPromptArgs,
): RequestPromptResult {
  if (args.policy.name === 'jp') {
    return {
      status: 'invalid',
      message: 'Choose a runtime policy: JP compacts by its schedules, not per request',
    };
  }
  const policy = parsePolicyChoice(args.policy.name, args.policy.set);
  if (!policy.ok) {
    return { status: 'invalid', message: `${args.policy.name}: ${policy.errors.join('; ')}` };
  }
  // The one resolver the cost pane's figures are priced with: the same calibration and model.
  const resolved = resolveReplaySettings(source, {
    model: args.model,
    price: args.price,
    schedule: 'none',
    calibration: args.calibration ?? 'auto',
    prefixTokens: args.prefixTokens ?? null,
    policy: args.policy,
  });
  if (resolved.status !== 'ok') return { status: 'invalid', message: resolved.message };
  const settings = resolved.settings;
  const index = args.request === null ? Number.MAX_SAFE_INTEGER : args.request - 1;
  const prompt = getPolicyPromptAt(source.elements, settings, index);
  if (!prompt) return { status: 'invalid', message: 'The conversation makes no request' };

  const before: TranscriptEntry[] = [];
  const after: TranscriptEntry[] = [];
  const { summary } = prompt;
  if (summary) {
    after.push({
      key: `summary:${summary.since}`,
      type: 'summary',
      text: `[summary made at request ${summary.since + 1}, in place of everything before; its size is an estimate: ${formatCount(summary.tokens)} tokens]`,
      tokens: summary.tokens,
    });
  }
  let replaced = 0;
  for (const item of prompt.items) {
    const text = getPayload(item.element)?.text ?? '';
    before.push(toEntry(item, text, item.tokens));
    if (summary && item.origin <= summary.through) continue;
    const replacement = prompt.decision.replaced.get(replacementKey(item.origin, item.kind));
    if (replacement) {
      replaced++;
      after.push(
        toEntry(
          item,
          `[${replacement.what} by ${policy.value.name}: ${formatCount(item.tokens)} tokens → ${formatCount(replacement.tokens)}]`,
          replacement.tokens,
        ),
      );
    } else {
      after.push(toEntry(item, text, item.tokens));
    }
  }
  return {
    status: 'ok',
    value: {
      request: prompt.index + 1,
      requests: prompt.requests,
      time: prompt.time,
      policy: policy.value,
      before,
      after,
      replaced,
    },
  };
}
