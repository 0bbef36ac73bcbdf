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
import { parse } from 'smol-toml';
import { readCompactionRule } from '../config/rule-config.ts';
import { TomlLocator, type TomlPath } from '../config/toml-locator.ts';
import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import { getOwn, setOwn } from '../json/values.ts';
import type { CompactionRule, Diagnostic, JsonObject, JsonValue } from '../types.ts';

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
 * Reads the auto table from the config's TOML (already known to parse).
 * Every wrong value is an error diagnostic at that value; the defaults stand
 * in for it.
 */
export function readAutoCompaction(text: string): {
  auto: AutoCompaction;
  diagnostics: Diagnostic[];
} {
  const auto: AutoCompaction = {
    ...DEFAULT_AUTO_COMPACTION,
    rule: { ...DEFAULT_AUTO_COMPACTION.rule },
  };
  const diagnostics: Diagnostic[] = [];
  let document: unknown;
  try {
    document = parse(text);
  } catch {
    return { auto, diagnostics }; // the config's own reader reports the syntax error
  }
  const table = tableAt(document, AUTO_PATH);
  if (table === undefined) return { auto, diagnostics };
  const index = new LineIndex(text);
  const locator = new TomlLocator(text);
  const problem = (path: TomlPath, message: string) => {
    const span = locator.valueSpan(path);
    diagnostics.push(
      diagnosticAt(index, span.start, span.end, 'error', message, 'config/invalid-auto'),
    );
  };
  if (table === null) {
    problem(AUTO_PATH, 'conversation.compaction.auto must be a table');
    return { auto, diagnostics };
  }
  const ratio = getOwn(table, 'trigger_ratio');
  if (ratio !== undefined) {
    if (typeof ratio === 'number' && ratio > 0 && Number.isFinite(ratio)) auto.triggerRatio = ratio;
    else
      problem(
        [...AUTO_PATH, 'trigger_ratio'],
        'trigger_ratio must be a number above 0, such as 0.75',
      );
  }
  const minTurns = getOwn(table, 'min_turns');
  if (minTurns !== undefined) {
    if (typeof minTurns === 'number' && Number.isSafeInteger(minTurns) && minTurns >= 0) {
      auto.minTurns = minTurns;
    } else problem([...AUTO_PATH, 'min_turns'], 'min_turns must be a whole number of 0 or more');
  }
  const fields: JsonObject = {};
  for (const key of ['keep_first', 'keep_last', 'reasoning', 'tool_calls']) {
    const value = getOwn(table, key);
    if (value !== undefined) setOwn(fields, key, value as JsonValue);
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

/** The table at `path`: undefined when absent, null when something else stands there. */
function tableAt(
  document: unknown,
  path: readonly string[],
): Record<string, unknown> | null | undefined {
  let node: unknown = document;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = getOwn(node as Record<string, unknown>, key);
    if (node === undefined) return undefined;
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node) || node instanceof Date) {
    return null;
  }
  return node as Record<string, unknown>;
}
