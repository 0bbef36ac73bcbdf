/**
 * The config folder owns everything read from the user's TOML: the rules and
 * their ranges, durations and `--compact` DSL (rule-config.ts, range.ts,
 * duration.ts, dsl.ts), the per-tool hints and their words (tool-hints.ts),
 * the layer merged into the config in force (in-force.ts), exact positions
 * for every value (toml-locator.ts), misplaced tables (misplaced-rules.ts)
 * and the guidance shown beside a valid config (guidance.ts). This file is
 * its entry point.
 *
 * The user's TOML config layer (spec 14.1) and the config in force.
 *
 * `parseConfigToml` reads the keys the playground uses
 * (`conversation.compaction.rules` and `conversation.tools`), ignores every
 * other key (JP configs carry many), and reports each wrong value as a
 * diagnostic at the exact position of that value in the text. smol-toml gives
 * no positions for values, so a small locator scans the (already valid) TOML
 * for the span of every key path.
 */
import { parse, TomlDate, TomlError } from 'smol-toml';
import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import { capDiagnostics, checkConfigTextLength } from '../json/limits.ts';
import { keepNumberText } from '../json/number-text.ts';
import { suggestClosest } from '../json/suggest.ts';
import { describeType, getOwn, isJsonObject, setOwn, showValue } from '../json/values.ts';
import type { Diagnostic, JsonObject, JsonValue, Severity } from '../types.ts';
import { DEFAULT_BASE, type JpBase } from './jp-base.ts';
import {
  getKeysInsideRule,
  getSingleBracketRules,
  type MisplacedContext,
} from './misplaced-rules.ts';
import {
  type PartialCompactionRule,
  RULE_KEYS,
  type RulesLayer,
  readCompactionRule,
} from './rule-config.ts';
import { formatTomlKey, TomlLocator, type TomlPath } from './toml-locator.ts';
import { parseToolHintName, TOOL_HINT_KEY } from './tool-hints.ts';

export type { ToolHintSource } from './tool-hints.ts';

/** The parts of the user's TOML layer the playground uses, as written. */
export interface UserConfig {
  /** `conversation.compaction.rules` as written, or null when the TOML sets none. */
  rules: RulesLayer | null;
  /**
   * `conversation.tools` as written: tool name (or `'*'`) to its fields.
   * Entries that are not tables and hints with errors are left out.
   */
  tools: Record<string, JsonObject>;
}

/** The user's config and the problems found in its text. */
export interface ParsedConfig {
  config: UserConfig;
  diagnostics: Diagnostic[];
}

// --- Reading the TOML layer ---------------------------------------------------

/** The keys of a tool table in JP (spec 9), plus the D17 hint. */
const TOOL_KEYS: readonly string[] = [
  'source',
  'enable',
  'command',
  'summary',
  'description',
  'examples',
  'parameters',
  'run',
  'format',
  'result',
  'cancellation_response',
  'style',
  'questions',
  'options',
  'access',
  TOOL_HINT_KEY,
];

/**
 * The tables in a tool's fields that are no field of a tool: what
 * `[conversation.tools.a.b]` makes of a tool named `a.b` (tool `a`, table `b`).
 */
export function listSplitToolTables(fields: JsonObject): string[] {
  return Object.keys(fields).filter(
    (field) => !TOOL_KEYS.includes(field) && isJsonObject(getOwn(fields, field)),
  );
}

/**
 * smol-toml values as JSON: integers (read as bigint) become numbers, dates
 * strings. An integer a double cannot hold exactly keeps its digits
 * (json/number-text.ts), so a message quotes it as written, not as `1e+23`.
 */
function tomlToJson(value: unknown): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof TomlDate) return value.toISOString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const array = value.map(tomlToJson);
    value.forEach((item, index) => {
      keepIntegerText(array, index, item);
    });
    return array;
  }
  if (typeof value === 'object' && value !== null) {
    const object: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      setOwn(object, key, tomlToJson(item));
      keepIntegerText(object, key, item);
    }
    return object;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  return null;
}

function keepIntegerText(container: object, key: string | number, value: unknown): void {
  if (typeof value === 'bigint' && BigInt(Number(value)) !== value) {
    keepNumberText(container, key, String(value));
  }
}

/** TOML's integers: a signed 64-bit integer (TOML 1.0, "Integer"), which JP's TOML reader holds. */
const TOML_INTEGER_MIN = -(2n ** 63n);
const TOML_INTEGER_MAX = 2n ** 63n - 1n;

/** A TOML table as smol-toml returns it (bigints and dates included). */
type TomlTable = { [key: string]: unknown };

function isTomlTable(value: unknown): value is TomlTable {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

/** Collects diagnostics for one text, placed by key path. */
class ConfigReader {
  readonly diagnostics: Diagnostic[] = [];
  private readonly index: LineIndex;
  private readonly locator: TomlLocator;
  /** For checks that need the text itself (misplaced rules). */
  readonly context: MisplacedContext;

  constructor(text: string) {
    this.index = new LineIndex(text);
    this.locator = new TomlLocator(text);
    this.context = { text, index: this.index, locator: this.locator };
  }

  /** A problem with the value at `path`. */
  valueProblem(path: TomlPath, message: string, code: string, severity: Severity = 'error'): void {
    const span = this.locator.valueSpan(path);
    this.diagnostics.push(diagnosticAt(this.index, span.start, span.end, severity, message, code));
  }

  /**
   * A bound JP main refuses, with the quick fix that writes what it accepts
   * in place of the value (15.4).
   */
  valueProblemWithFix(path: TomlPath, message: string, code: string, text: string): void {
    const span = this.locator.valueSpan(path);
    const diagnostic = diagnosticAt(this.index, span.start, span.end, 'error', message, code);
    const from = this.index.position(span.start);
    const to = this.index.position(span.end);
    diagnostic.fix = {
      title: `Write ${text}`,
      edits: [
        { line: from.line, column: from.column, endLine: to.line, endColumn: to.column, text },
      ],
    };
    this.diagnostics.push(diagnostic);
  }

  /**
   * Reports every integer outside TOML's range (a signed 64-bit integer,
   * −2^63 to 2^63 − 1), which smol-toml reads as a bigint but JP's TOML
   * reader refuses, quoted as written. Returns whether there was one.
   */
  refuseIntegersOutOfRange(document: TomlTable): boolean {
    const found: { path: TomlPath; value: bigint }[] = [];
    // Without recursion, and each value's path built only when it is found: a
    // dotted key may nest 30,000 tables deep, and a copied path per level is quadratic.
    type Step = { value: unknown; segment: string | number | null; parent: Step | null };
    const pathOf = (step: Step): TomlPath => {
      const path: (string | number)[] = [];
      for (let at: Step | null = step; at !== null && at.segment !== null; at = at.parent) {
        path.push(at.segment);
      }
      return path.reverse();
    };
    const stack: Step[] = [{ value: document, segment: null, parent: null }];
    while (stack.length > 0) {
      const step = stack.pop() as Step;
      const { value } = step;
      if (typeof value === 'bigint') {
        if (value < TOML_INTEGER_MIN || value > TOML_INTEGER_MAX) {
          found.push({ path: pathOf(step), value });
        }
      } else if (Array.isArray(value)) {
        value.forEach((item, index) => {
          stack.push({ value: item, segment: index, parent: step });
        });
      } else if (isTomlTable(value)) {
        for (const [key, item] of Object.entries(value)) {
          stack.push({ value: item, segment: key, parent: step });
        }
      }
    }
    const spans = found.map(({ path, value }) => {
      const exact = this.locator.find(path)?.value;
      const span = exact ?? this.locator.valueSpan(path);
      // The value's own text when it is found (`9_223_372_036_854_775_808`, `0x…`), else its digits.
      const written = exact ? this.context.text.slice(exact.start, exact.end) : String(value);
      // A string is advice only for the large ones: a size or count is never negative.
      const advice =
        value > 0n ? `; a size or a count this large is written as a string ("${value}")` : '';
      return { span, written, advice };
    });
    spans.sort((a, b) => a.span.start - b.span.start);
    for (const { span, written, advice } of spans) {
      this.diagnostics.push(
        diagnosticAt(
          this.index,
          span.start,
          span.end,
          'error',
          `the integer ${written} is beyond TOML's integers (${TOML_INTEGER_MIN} to ${TOML_INTEGER_MAX}), so JP refuses this file${advice}`,
          'config/toml-syntax',
        ),
      );
    }
    return spans.length > 0;
  }

  /** A problem with the key at `path` (an unknown or misspelt key). */
  keyProblem(path: TomlPath, message: string, code: string, severity: Severity = 'warning'): void {
    const span = this.locator.keySpan(path);
    this.diagnostics.push(diagnosticAt(this.index, span.start, span.end, severity, message, code));
  }

  /** Warns about keys of `table` that look like typos of `usedKeys`. */
  warnTypos(
    table: TomlTable,
    path: TomlPath,
    knownKeys: readonly string[],
    usedKeys: readonly string[],
    where: string,
  ): void {
    for (const key of Object.keys(table)) {
      if (knownKeys.includes(key)) continue;
      const suggestion = suggestClosest(key, usedKeys);
      if (suggestion === undefined) continue;
      this.keyProblem(
        [...path, key],
        `unknown key "${key}" in ${where}; did you mean "${suggestion}"? (it is ignored as written)`,
        'config/unknown-key',
      );
    }
  }
}

/**
 * A table at `path` of `parent`, or undefined when absent. A value that is
 * not a table is reported (`what` names it in the message).
 */
function readTable(
  reader: ConfigReader,
  parent: TomlTable,
  key: string,
  path: TomlPath,
  what: string,
): TomlTable | undefined {
  const value = getOwn(parent, key);
  if (value === undefined) return undefined;
  if (isTomlTable(value)) return value;
  reader.valueProblem(
    path,
    `${what} must be a table, got ${describeType(value)} ${showValue(tomlToJson(value))}`,
    'config/wrong-type',
  );
  return undefined;
}

function rulePathLabel(index: number): string {
  return `rule ${index + 1} of conversation.compaction.rules`;
}

/** Reads one rule table, reporting each bad field at its value. */
function readRule(
  reader: ConfigReader,
  raw: unknown,
  path: TomlPath,
  index: number,
  base: JpBase,
): PartialCompactionRule | undefined {
  if (!isTomlTable(raw)) {
    reader.valueProblem(
      path,
      `${rulePathLabel(index)} must be a table, got ${describeType(raw)}`,
      'config/wrong-type',
    );
    return undefined;
  }
  const fields: JsonObject = {};
  for (const [key, value] of Object.entries(raw)) {
    const isBound = key === 'keep_first' || key === 'keep_last';
    // TOML floats are JS numbers here while integers are bigints: a float is a wrong type.
    if (isBound && typeof value === 'number') {
      reader.valueProblem(
        [...path, key],
        `invalid ${key}: got a float (${value}); write an integer turn count such as 3, or a string such as "-3", "@2" or "5h"`,
        'config/invalid-bound',
      );
      continue;
    }
    // A TOML date would otherwise reach the parsers as its ISO string.
    if (value instanceof Date && RULE_KEYS.includes(key)) {
      reader.valueProblem(
        [...path, key],
        `invalid ${key}: got a date, expected ${isBound ? 'an integer or a string' : 'a string'}`,
        'config/wrong-type',
      );
      continue;
    }
    if (key === 'conversation' && isTomlTable(value)) {
      reader.diagnostics.push(
        ...getKeysInsideRule(reader.context, path, rulePathLabel(index), value),
      );
      continue;
    }
    setOwn(fields, key, tomlToJson(value));
    keepIntegerText(fields, key, value);
  }
  const { rule, errors } = readCompactionRule(fields, base);
  for (const error of errors) {
    const fieldPath = [...path, ...error.field.split('.')];
    const head = error.field.split('.')[0];
    const code =
      head === 'keep_first' || head === 'keep_last'
        ? 'config/invalid-bound'
        : head === 'tool_calls'
          ? 'config/invalid-tool-calls'
          : head === 'reasoning'
            ? 'config/invalid-reasoning'
            : 'config/wrong-type';
    if (error.replacement !== undefined) {
      const { value } = error.replacement;
      const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
      reader.valueProblemWithFix(fieldPath, error.message, code, text);
    } else if (/^(tool_calls|reasoning)\.(?!over$|policy$)/.test(error.field)) {
      // An unknown key of a policy table (15.4): point at the key itself.
      reader.keyProblem(fieldPath, error.message, code, 'error');
    } else {
      reader.valueProblem(fieldPath, error.message, code);
    }
  }
  reader.warnTypos(raw, path, RULE_KEYS, RULE_KEYS, rulePathLabel(index));
  return rule;
}

const RULES_PATH = ['conversation', 'compaction', 'rules'] as const;
const MERGE_TABLE_KEYS: readonly string[] = ['value', 'strategy', 'dedup'];

/** Reads `conversation.compaction.rules` in either written form (spec 5). */
function readRulesLayer(reader: ConfigReader, raw: unknown, base: JpBase): RulesLayer {
  const layer: RulesLayer = { rules: [], strategy: 'append', dedup: false };
  let items: unknown = raw;
  let itemsPath: TomlPath = RULES_PATH;
  if (isTomlTable(raw) && Object.keys(raw).some((key) => RULE_KEYS.includes(key))) {
    const misplaced = getSingleBracketRules(reader.context, RULES_PATH);
    if (misplaced) {
      reader.diagnostics.push(misplaced);
      return layer;
    }
  }
  if (isTomlTable(raw)) {
    itemsPath = [...RULES_PATH, 'value'];
    items = getOwn(raw, 'value') ?? [];
    const strategy = getOwn(raw, 'strategy');
    if (strategy !== undefined) {
      if (strategy === 'append' || strategy === 'prepend' || strategy === 'replace') {
        layer.strategy = strategy;
      } else {
        const suggestion =
          typeof strategy === 'string'
            ? suggestClosest(strategy, ['append', 'prepend', 'replace'])
            : undefined;
        reader.valueProblem(
          [...RULES_PATH, 'strategy'],
          `invalid rules strategy ${showValue(tomlToJson(strategy))}: expected one of append, prepend, replace${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
          'config/invalid-strategy',
        );
      }
    }
    const dedup = getOwn(raw, 'dedup');
    if (dedup !== undefined) {
      if (typeof dedup === 'boolean') layer.dedup = dedup;
      else {
        reader.valueProblem(
          [...RULES_PATH, 'dedup'],
          `invalid rules dedup: expected true or false, got ${describeType(dedup)}`,
          'config/wrong-type',
        );
      }
    }
    reader.warnTypos(
      raw,
      RULES_PATH,
      MERGE_TABLE_KEYS,
      MERGE_TABLE_KEYS,
      'the conversation.compaction.rules merge table',
    );
  }
  if (!Array.isArray(items)) {
    reader.valueProblem(
      itemsPath,
      `conversation.compaction.rules must be an array of rule tables ([[conversation.compaction.rules]]) or a merge table { value = [...], strategy = "append" }, got ${describeType(items)}`,
      'config/wrong-type',
    );
    return layer;
  }
  items.forEach((item, index) => {
    const rule = readRule(reader, item, [...itemsPath, index], index, base);
    if (rule) layer.rules.push(rule);
  });
  return layer;
}

/** Reads `conversation.tools`: each entry a table, each `compaction` hint valid. */
function readTools(reader: ConfigReader, raw: TomlTable): Record<string, JsonObject> {
  const tools: Record<string, JsonObject> = {};
  const toolsPath = ['conversation', 'tools'];
  for (const [name, entry] of Object.entries(raw)) {
    const path = [...toolsPath, name];
    const label = name === '*' ? "the '*' tool defaults" : `tool "${name}"`;
    if (!isTomlTable(entry)) {
      reader.valueProblem(
        path,
        `${label} in conversation.tools must be a table, got ${describeType(entry)} ${showValue(tomlToJson(entry))}`,
        'config/wrong-type',
      );
      continue;
    }
    let fields = tomlToJson(entry) as JsonObject;
    const { [TOOL_HINT_KEY]: _hint, ...otherFields } = fields;
    // The raw value, so that a TOML date or integer is named as such in the message.
    const hint = getOwn(entry, TOOL_HINT_KEY);
    if (hint !== undefined) {
      const parsed = parseToolHintName(hint);
      if (!parsed.ok) {
        reader.valueProblem([...path, TOOL_HINT_KEY], parsed.message, 'config/invalid-hint');
        // The hint is left out so that the tool inherits, as if it were unset.
        fields = otherFields;
      }
    }
    reader.warnTypos(entry, path, TOOL_KEYS, [TOOL_HINT_KEY], label);
    for (const field of listSplitToolTables(fields)) {
      const meant = `${name}.${field}`;
      reader.keyProblem(
        [...path, field],
        `This header defines ${label} with a table "${field}", which no tool has: unquoted dots split a TOML key. ` +
          `A tool named "${meant}" is written [conversation.tools.${formatTomlKey(meant)}].`,
        'config/dotted-tool-name',
      );
    }
    setOwn(tools, name, fields);
  }
  return tools;
}

/**
 * smol-toml's message without its "Invalid TOML document:" prefix and code
 * excerpt. A basic string left open at the end of its line is reported by
 * smol-toml as a control character in the string; say what happened instead.
 */
function cleanTomlMessage(message: string, codeAtError: number): string {
  const withoutPrefix = message.replace(/^Invalid TOML document:\s*/, '');
  const firstBlock = withoutPrefix.split(/\n\s*\n/)[0] ?? withoutPrefix;
  if (/control character/i.test(firstBlock) && (codeAtError === 10 || codeAtError === 13)) {
    return 'TOML syntax error: the string is not closed on its line. Add the closing quote.';
  }
  return `TOML syntax error: ${firstBlock.trim()}`;
}

/**
 * For smol-toml's "trying to redefine" error: which table or key is written
 * twice, and the line of its first definition, so the user need not hunt
 * for it. The text before the error's line is valid TOML, so the locator can
 * read both definitions; undefined when it cannot tell.
 */
function describeRedefinition(text: string, index: LineIndex, offset: number): string | undefined {
  const { line } = index.position(offset);
  const lineStart = index.offset(line, 1);
  const lineEnd = text.indexOf('\n', offset);
  const through = lineEnd < 0 ? text : text.slice(0, lineEnd);
  // smol-toml may point at the space after a header's "[".
  let at = offset;
  while (text[at] === ' ' || text[at] === '\t') at++;
  const path = new TomlLocator(through).pathAt(at);
  if (!path) return undefined;
  const first = new TomlLocator(text.slice(0, lineStart)).find(path);
  const name = path
    .filter((segment): segment is string => typeof segment === 'string')
    .map(formatTomlKey)
    .join('.');
  const isHeader = /^\s*\[/.test(text.slice(lineStart, offset + 1));
  const what = isHeader ? `the table [${name}] is defined twice` : `${name} is set twice`;
  const where = first
    ? `; its first definition is on line ${index.position(first.key.start).line}`
    : ' (it is already defined above, by a dotted key or an inline table)';
  const fix = isHeader ? 'Merge the two tables into one.' : 'Keep one of them.';
  return `TOML syntax error: ${what}${where}. ${fix}`;
}

/**
 * Reads the user's TOML config layer (spec 14.1). Never throws: a syntax
 * error, a wrong type or a wrong value on a key the playground uses is an
 * error diagnostic at that value; a likely typo of a used key is a warning.
 * Rules are read by the rules of `base` (15.4: policy tables, `"-N"`
 * positions, `summary.text`).
 */
export function parseConfigToml(text: string, base: JpBase = DEFAULT_BASE): ParsedConfig {
  const config: UserConfig = { rules: null, tools: {} };
  const tooLong = checkConfigTextLength(text);
  if (tooLong) return { config, diagnostics: [tooLong] };
  let document: TomlTable;
  try {
    document = parse(text, { integersAsBigInt: true }) as TomlTable;
  } catch (error) {
    const index = new LineIndex(text);
    if (error instanceof TomlError) {
      const start = index.offset(error.line, error.column);
      return {
        config,
        diagnostics: [
          diagnosticAt(
            index,
            start,
            start + 1,
            'error',
            (/redefine an already defined/.test(error.message)
              ? describeRedefinition(text, index, start)
              : undefined) ?? cleanTomlMessage(error.message, text.charCodeAt(start)),
            'config/toml-syntax',
          ),
        ],
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return {
      config,
      diagnostics: [
        diagnosticAt(
          index,
          0,
          1,
          'error',
          `cannot read the TOML: ${message}`,
          'config/toml-syntax',
        ),
      ],
    };
  }

  const reader = new ConfigReader(text);
  // JP's TOML reader refuses the whole file for an integer it cannot hold, before any key is read.
  if (reader.refuseIntegersOutOfRange(document)) {
    return { config, diagnostics: capDiagnostics(reader.diagnostics) };
  }
  const conversation = readTable(
    reader,
    document,
    'conversation',
    ['conversation'],
    'conversation',
  );
  if (conversation) {
    reader.warnTypos(
      conversation,
      ['conversation'],
      ['tools', 'compaction', 'title', 'attachments'],
      ['tools', 'compaction'],
      '[conversation]',
    );
    const compaction = readTable(
      reader,
      conversation,
      'compaction',
      ['conversation', 'compaction'],
      'conversation.compaction',
    );
    if (compaction) {
      reader.warnTypos(
        compaction,
        ['conversation', 'compaction'],
        ['rules'],
        ['rules'],
        '[conversation.compaction]',
      );
      const rules = getOwn(compaction, 'rules');
      if (rules !== undefined) config.rules = readRulesLayer(reader, rules, base);
    }
    const tools = readTable(
      reader,
      conversation,
      'tools',
      ['conversation', 'tools'],
      'conversation.tools',
    );
    if (tools) config.tools = readTools(reader, tools);
  }
  const diagnostics = capDiagnostics(
    reader.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column),
  );
  return { config, diagnostics };
}
