/**
 * The config in force for a stream (spec 14.1): the user's TOML layer over
 * the stream's own `config_delta` tools, with the rules, `tool_overrides` and
 * hint sources that result.
 */

import { getOwn, isJsonObject, setOwn } from '../json/values.ts';
import type { CompactionRule, JsonObject, StreamElement, ToolCallPolicy } from '../types.ts';
import type { UserConfig } from './config.ts';
import { mergeRuleLayers, resolveCompactionRules } from './rule-config.ts';
import {
  mergeToolLayers,
  overridesFromSources,
  parseToolHintName,
  resolveToolHintSources,
  TOOL_HINT_KEY,
  type ToolHintSource,
} from './tool-hints.ts';

/** The config in force for a stream (spec 14.1). */
export interface ConfigInForce {
  /** The rules from the user's TOML alone, with defaults, or the built-in rule. */
  rules: CompactionRule[];
  /** True when no rule is configured and the built-in default rule applies. */
  usesBuiltinRule: boolean;
  /** `conversation.tools` in force: config_deltas, then the TOML, plus every stream tool. */
  tools: Record<string, JsonObject>;
  /** The `tool_overrides` new compactions get (sorted by tool name). */
  toolOverrides: Record<string, ToolCallPolicy>;
  /** For every tool with an effective hint: the hint and where it comes from. */
  hintSources: Record<string, ToolHintSource>;
}

/**
 * The `delta.conversation.tools` of every `config_delta` element, in stream
 * order. Lenient: anything that is not an object is skipped.
 */
export function getStreamConfigDeltaTools(
  elements: readonly StreamElement[],
): Record<string, JsonObject>[] {
  const layers: Record<string, JsonObject>[] = [];
  for (const element of elements) {
    if (!isJsonObject(element) || element.type !== 'config_delta') continue;
    const delta = element.delta;
    if (!isJsonObject(delta) || !isJsonObject(delta.conversation)) continue;
    const tools = delta.conversation.tools;
    if (!isJsonObject(tools)) continue;
    const layer: Record<string, JsonObject> = Object.create(null);
    for (const [name, fields] of Object.entries(tools)) {
      if (isJsonObject(fields)) setOwn(layer, name, fields);
    }
    layers.push(layer);
  }
  return layers;
}

/** A stream layer without hints it cannot read: those are not the user's text, so no error. */
function withoutInvalidHints(
  layer: Readonly<Record<string, JsonObject>>,
): Record<string, JsonObject> {
  const cleaned: Record<string, JsonObject> = Object.create(null);
  for (const [name, fields] of Object.entries(layer)) {
    const hint = getOwn(fields, TOOL_HINT_KEY);
    if (hint !== undefined && hint !== null && !parseToolHintName(hint).ok) {
      const { [TOOL_HINT_KEY]: _dropped, ...rest } = fields;
      setOwn(cleaned, name, rest);
    } else setOwn(cleaned, name, fields);
  }
  return cleaned;
}

/**
 * The config in force (spec 14.1): rules from the user's TOML alone
 * (config_delta rules are ignored; none or `rules = []` gives the built-in
 * rule); tools from the stream's config_deltas merged in order with the
 * user's TOML on top (per tool, per field), plus every tool named in the
 * stream as an empty entry; then the `tool_overrides` of spec 11.
 */
export function resolveConfigInForce(
  userConfig: UserConfig,
  streamConfigDeltaTools: readonly Readonly<Record<string, JsonObject>>[],
  streamToolNames: readonly string[],
): ConfigInForce {
  const layers = userConfig.rules ? [userConfig.rules] : [];
  const rules = resolveCompactionRules(layers);
  const usesBuiltinRule = mergeRuleLayers(layers).length === 0;

  const tools = mergeToolLayers([
    ...streamConfigDeltaTools.map(withoutInvalidHints),
    withoutInvalidHints(userConfig.tools),
  ]);
  for (const name of streamToolNames) {
    if (!Object.hasOwn(tools, name)) setOwn(tools, name, {});
  }

  const hintSources = resolveToolHintSources(tools);
  return {
    rules,
    usesBuiltinRule,
    tools,
    toolOverrides: overridesFromSources(hintSources),
    hintSources,
  };
}
