/**
 * The hint in force for one tool, as the tool list shows it: one rule for
 * the playground's run and the workspace's session. Tool names come from the
 * stream, so every lookup is an own-property read (`toString` or `__proto__`
 * must never reach `Object.prototype`), and the order is JP's code-point order.
 */

import type { ConfigInForce } from '../config/in-force.ts';
import { compareCodePoints, getOwn } from '../json/values.ts';
import type { ToolHintInfo } from './types.ts';

/** The tool list row of `name` under the config in force, with `calls` calls in the stream. */
export function getToolHintInfo(name: string, calls: number, config: ConfigInForce): ToolHintInfo {
  const source = getOwn(config.hintSources, name);
  return {
    name,
    hint: source?.hint ?? null,
    source: source?.from ?? 'rule',
    policy: getOwn(config.toolOverrides, name) ?? null,
    calls,
  };
}

/** Orders tool rows by name in code-point order, as JP's `BTreeMap` does. */
export function compareToolInfo(a: ToolHintInfo, b: ToolHintInfo): number {
  return compareCodePoints(a.name, b.name);
}
