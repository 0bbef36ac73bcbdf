/**
 * The hint in force for one tool, as the tool list shows it: one rule for
 * the playground's run and the workspace's session. Tool names come from the
 * stream, so every lookup is an own-property read (`toString` or `__proto__`
 * must never reach `Object.prototype`), and the order is JP's code-point order.
 */

import { DEFAULT_READINGS, type Readings } from '../compaction/readings.ts';
import type { ConfigInForce } from '../config/in-force.ts';
import { compareCodePoints, getOwn } from '../json/values.ts';
import type { ToolHintInfo } from './types.ts';

/**
 * The tool list row of `name` under the config in force, with `calls` calls
 * in the stream. Under the reading `jp=today` a hint is written but not in
 * force: the row says so and names the rules' `tool_calls` that apply instead.
 */
export function getToolHintInfo(
  name: string,
  calls: number,
  config: ConfigInForce,
  readings: Readings = DEFAULT_READINGS,
): ToolHintInfo {
  const source = getOwn(config.hintSources, name);
  const hint = source?.hint ?? null;
  const info: ToolHintInfo = {
    name,
    hint,
    source: source?.from ?? 'rule',
    policy: readings.jp === 'today' ? null : (getOwn(config.toolOverrides, name) ?? null),
    calls,
  };
  if (hint !== null && readings.jp === 'today') info.ignored = describeIgnoredHint(config);
  return info;
}

/** "ignored by today's JP; the rule's tool_calls (strip) applies", in words for the tool list. */
export function describeIgnoredHint(config: Pick<ConfigInForce, 'rules'>): string {
  const modes = [...new Set(config.rules.map((rule) => rule.tool_calls).filter((m) => m !== null))];
  const instead =
    modes.length === 0
      ? 'no rule sets tool_calls, so its calls are sent as they are'
      : config.rules.length === 1
        ? `the rule's tool_calls (${modes.join(', ')}) applies`
        : `each rule's tool_calls (${modes.join(', ')}) applies`;
  return `ignored by today's JP; ${instead}`;
}

/** Orders tool rows by name in code-point order, as JP's `BTreeMap` does. */
export function compareToolInfo(a: ToolHintInfo, b: ToolHintInfo): number {
  return compareCodePoints(a.name, b.name);
}
