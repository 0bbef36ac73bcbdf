/**
 * `[conversation.compaction.auto]`: JP's draft D50 automatic compaction, as
 * the `auto` schedule runs it. After a turn, when the projected prompt
 * passes `trigger_ratio` × the context window and the conversation has at
 * least `min_turns` turns, one compaction is created from the auto rule over
 * the rolling range. Unset keys take the draft's defaults: `trigger_ratio =
 * 0.75`, `min_turns = 5`, and the rule strips reasoning and tools with
 * `keep_first = 1`, `keep_last = 3`. The rule's keys are read by the
 * config's own rule reader.
 */

import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import { getOwn, setOwn } from '../json/values.ts';
import type { CompactionRule, Diagnostic, JsonObject, JsonValue } from '../types.ts';
import { readCompactionRule } from './rule-config.ts';
import type { TomlLocator, TomlPath } from './toml-locator.ts';

/** The auto schedule's settings. */
export interface AutoCompaction {
  triggerRatio: number;
  minTurns: number;
  rule: CompactionRule;
}

/** The draft's defaults. */
export const DEFAULT_AUTO_COMPACTION: AutoCompaction = {
  triggerRatio: 0.75,
  minTurns: 5,
  rule: {
    keep_first: { turns: 1 },
    keep_last: { turns: 3 },
    reasoning: 'strip',
    tool_calls: 'strip',
    summary: null,
  },
};

const AUTO_PATH = ['conversation', 'compaction', 'auto'] as const;

/**
 * Reads the auto table, as the config's reader found it at `value` (TOML
 * integers as bigints). Every wrong value is an error diagnostic at that
 * value, and the default stands in for it. The config's reader
 * (`parseConfigToml`) calls it, so the config editor marks what the `auto`
 * schedule cannot read.
 */
export function readAutoTable(
  value: unknown,
  text: string,
  locator: TomlLocator,
): { auto: AutoCompaction; diagnostics: Diagnostic[] } {
  const auto: AutoCompaction = {
    ...DEFAULT_AUTO_COMPACTION,
    rule: { ...DEFAULT_AUTO_COMPACTION.rule },
  };
  const diagnostics: Diagnostic[] = [];
  let index: LineIndex | undefined;
  const problem = (path: TomlPath, message: string) => {
    const span = locator.valueSpan(path);
    index ??= new LineIndex(text);
    diagnostics.push(
      diagnosticAt(index, span.start, span.end, 'error', message, 'config/invalid-auto'),
    );
  };
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    value instanceof Date
  ) {
    problem(AUTO_PATH, 'conversation.compaction.auto must be a table');
    return { auto, diagnostics };
  }
  const table = value as Record<string, unknown>;
  const ratio = toNumber(getOwn(table, 'trigger_ratio'));
  if (ratio !== undefined) {
    if (typeof ratio === 'number' && ratio > 0 && Number.isFinite(ratio)) auto.triggerRatio = ratio;
    else
      problem(
        [...AUTO_PATH, 'trigger_ratio'],
        'trigger_ratio must be a number above 0, such as 0.75',
      );
  }
  const minTurns = toNumber(getOwn(table, 'min_turns'));
  if (minTurns !== undefined) {
    if (typeof minTurns === 'number' && Number.isSafeInteger(minTurns) && minTurns >= 0) {
      auto.minTurns = minTurns;
    } else problem([...AUTO_PATH, 'min_turns'], 'min_turns must be a whole number of 0 or more');
  }
  const fields: JsonObject = {};
  for (const key of ['keep_first', 'keep_last', 'reasoning', 'tool_calls']) {
    const field = getOwn(table, key);
    if (field !== undefined) setOwn(fields, key, field as JsonValue);
  }
  const { rule, errors } = readCompactionRule(fields);
  for (const error of errors) problem([...AUTO_PATH, error.field], error.message);
  auto.rule = {
    keep_first: rule.keep_first ?? auto.rule.keep_first,
    keep_last: rule.keep_last ?? auto.rule.keep_last,
    reasoning: getOwn(table, 'reasoning') === undefined ? auto.rule.reasoning : rule.reasoning,
    tool_calls: getOwn(table, 'tool_calls') === undefined ? auto.rule.tool_calls : rule.tool_calls,
    summary: null,
  };
  return { auto, diagnostics };
}

/** A TOML integer (a bigint) as a number where it is one exactly; any other value as it is. */
function toNumber(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}
