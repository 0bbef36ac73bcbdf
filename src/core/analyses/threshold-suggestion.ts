/**
 * The recommender's `over` suggestion (issue 23, JP main only): a tool whose
 * responses split into a few large ones and many small ones is better served
 * by a size threshold on the rule than by a hint, which treats every call
 * alike. The split is read from the responses' sizes (15.2: decoded UTF-8
 * bytes, names from the positional pairing of 15.3); the saving is measured
 * by running the pipeline with the threshold set, never estimated.
 *
 * Under `2026-08` no threshold exists, so nothing is suggested.
 * Boundary: pure TypeScript, no DOM.
 */

import { getToolInfo } from '../compaction/projection.ts';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { formatByteSize, formatByteSizeForPeople } from '../config/byte-size.ts';
import type { ParsedConfig } from '../config/config.ts';
import { formatCount } from '../counting/format.ts';
import { type Amount, addReports } from '../counting/report.ts';
import { reportStream } from '../playground/pipeline.ts';
import type { StreamElement } from '../types.ts';
import type { HintTableOptions } from './hint-table.ts';

/** A tool needs at least this many responses before its sizes are said to split. */
export const THRESHOLD_MIN_CALLS = 5;

/** "A few large": at most this share of the responses is over the threshold. */
export const THRESHOLD_MAX_LARGE_SHARE = 0.25;

/** The smallest large response is at least this many times the largest small one. */
export const THRESHOLD_MIN_GAP = 4;

/** One tool's threshold suggestion. */
export interface ThresholdSuggestion {
  tool: string;
  /** The threshold in its written form (15.2), e.g. `"4KB"`. */
  over: string;
  /** The TOML to set on the rule (the table form of 15.4). */
  toolCalls: string;
  /** Responses over the threshold, and the others. */
  large: number;
  small: number;
  /** Why, with the sizes behind it. */
  reason: string;
  /** The tool's saving with the threshold on the rules and no hint of its own, measured. */
  expectedSaved: Amount;
}

/**
 * Where sorted sizes split into a few large and many small: the threshold
 * (bytes) and how many are over it; undefined when they do not split so.
 * The threshold is the smallest power of two from 1KB on that lies between
 * the two groups, or else the largest small size (the test is strict, 15.2).
 */
export function findSizeSplit(
  sizes: readonly number[],
): { over: number; large: number } | undefined {
  const sorted = [...sizes].sort((a, b) => a - b);
  const count = sorted.length;
  if (count < THRESHOLD_MIN_CALLS) return undefined;
  const maxLarge = Math.floor(count * THRESHOLD_MAX_LARGE_SHARE);
  let best: { at: number; gap: number } | undefined;
  for (let large = 1; large <= maxLarge; large++) {
    const at = count - large;
    const smallMax = sorted[at - 1] as number;
    const largeMin = sorted[at] as number;
    const gap = largeMin / Math.max(smallMax, 1);
    // The widest gap; on a tie the fewer large ones (the loop's order).
    if (gap >= THRESHOLD_MIN_GAP && (best === undefined || gap > best.gap)) best = { at, gap };
  }
  if (!best) return undefined;
  const smallMax = sorted[best.at - 1] as number;
  const largeMin = sorted[best.at] as number;
  let over = smallMax;
  for (let nice = 1024; nice < largeMin; nice *= 2) {
    if (nice >= smallMax) {
      over = nice;
      break;
    }
  }
  return { over, large: count - best.at };
}

/** Each named tool's response sizes in bytes, over every stream (15.3's pairing names them). */
function getResponseSizes(streams: readonly (readonly StreamElement[])[]): Map<string, number[]> {
  const sizes = new Map<string, number[]>();
  for (const elements of streams) {
    for (const [index, info] of getToolInfo(elements, '2026-09')) {
      if (elements[index]?.type !== 'tool_call_response' || info.name === null) continue;
      const list = sizes.get(info.name);
      if (list) list.push(info.own);
      else sizes.set(info.name, [info.own]);
    }
  }
  return sizes;
}

/**
 * The config with `tool_calls = { policy = "strip-responses", over }` on
 * every rule that does not summarize; null when the config has no rule of
 * its own to carry it (the built-in rule is not the user's to edit).
 */
function withThreshold(config: ParsedConfig, over: string): ParsedConfig | null {
  const layer = config.config.rules;
  if (layer === null || !layer.rules.some((rule) => rule.summary === null)) return null;
  return {
    ...config,
    config: {
      ...config.config,
      rules: {
        ...layer,
        rules: layer.rules.map((rule) =>
          rule.summary === null
            ? { ...rule, tool_calls: 'strip-responses' as const, tool_calls_over: over }
            : rule,
        ),
      },
    },
  };
}

/**
 * Threshold suggestions for conversations in memory, under JP main only,
 * sorted by tool name. One is made only where the measured saving is
 * positive: a threshold that catches nothing in a compacted turn says nothing.
 */
export function suggestThresholds(
  streams: readonly (readonly StreamElement[])[],
  config: ParsedConfig,
  options: HintTableOptions,
): ThresholdSuggestion[] {
  const readings = options.readings ?? DEFAULT_READINGS;
  if (readings.base !== '2026-09') return [];
  const suggestions: ThresholdSuggestion[] = [];
  const sizes = [...getResponseSizes(streams)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [tool, toolSizes] of sizes) {
    const split = findSizeSplit(toolSizes);
    if (!split) continue;
    const over = formatByteSize(BigInt(split.over));
    const thresholded = withThreshold(config, over);
    if (!thresholded) continue;
    // Measured: the pipeline with the threshold on the rules and the tool inheriting them.
    const reports = streams.map(
      (elements) =>
        reportStream(elements, thresholded, {
          ...options,
          readings,
          toolChoice: { tool, choice: 'inherit' },
        }).report,
    );
    const row = addReports(reports, options.counter.id).tools.find((r) => r.name === tool);
    if (!row || row.saved.tokens <= 0) continue;
    const small = toolSizes.length - split.large;
    const largest = Math.max(...toolSizes);
    suggestions.push({
      tool,
      over,
      toolCalls: `tool_calls = { policy = "strip-responses", over = "${over}" }`,
      large: split.large,
      small,
      reason: `Its responses split into ${formatCount(split.large)} large (up to ${formatByteSizeForPeople(BigInt(largest))}) and ${formatCount(small)} small (at most ${formatByteSizeForPeople(BigInt(Math.max(...toolSizes.filter((s) => s <= split.over))))}): a rule threshold over ${over} strips the large ones and keeps the small ones as they are, saving ${formatCount(row.saved.tokens)} tokens. It reaches every tool without a hint of its own (15.7), so remove this tool's hint for it to act.`,
      expectedSaved: { ...row.saved },
    });
  }
  return suggestions;
}
