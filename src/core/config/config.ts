/**
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
import { suggestClosest } from '../json/suggest.ts';
import { describeType, getOwn, isJsonObject, setOwn, showValue } from '../json/values.ts';
import type {
  CompactionRule,
  Diagnostic,
  JsonObject,
  JsonValue,
  Severity,
  StreamElement,
  ToolCallPolicy,
} from '../types.ts';
import {
  mergeRuleLayers,
  type PartialCompactionRule,
  RULE_KEYS,
  type RulesLayer,
  readCompactionRule,
  resolveCompactionRules,
} from './rule-config.ts';
import {
  mergeToolLayers,
  parseToolHintName,
  resolveToolHintSources,
  resolveToolOverrides,
  TOOL_HINT_KEY,
  type ToolHintSource,
} from './tool-hints.ts';

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

// --- Locating values in TOML text ------------------------------------------

/** A key path into the TOML document: table keys and array indices. */
type TomlPath = readonly (string | number)[];

interface Span {
  start: number;
  end: number;
}

/** Where a path is written: its key, and its value (a whole `[header]` for tables). */
interface TomlLocation {
  key: Span;
  value: Span;
}

/** Thrown only inside the scanner, when the text is not as expected; caught in `scanToml`. */
class ScanStop extends Error {}

const BARE_KEY_CHAR = /[A-Za-z0-9_-]/;

/**
 * Finds where every key path of a TOML document is written. It runs after
 * smol-toml accepted the text, so it only has to follow valid TOML; if it
 * ever meets something it does not understand it stops, keeping what it found.
 */
export class TomlLocator {
  private readonly locations = new Map<string, TomlLocation>();
  private readonly arrayTableCounts = new Map<string, number>();
  private pos = 0;

  constructor(private readonly text: string) {
    try {
      this.scanDocument();
    } catch (error) {
      if (!(error instanceof ScanStop)) throw error;
    }
  }

  /** The location of `path`, when the scanner found it. */
  find(path: TomlPath): TomlLocation | undefined {
    return this.locations.get(pathKey(path));
  }

  /**
   * The span to mark for a problem with the value at `path`: the value
   * itself, else the nearest enclosing key or table header, else the start.
   */
  valueSpan(path: TomlPath): Span {
    const exact = this.find(path);
    if (exact) return exact.value;
    return this.nearestKeySpan(path.slice(0, -1));
  }

  /** The span of the key at `path`, else of the nearest enclosing key or header. */
  keySpan(path: TomlPath): Span {
    return this.nearestKeySpan(path);
  }

  private nearestKeySpan(path: TomlPath): Span {
    for (let length = path.length; length > 0; length--) {
      const found = this.find(path.slice(0, length));
      if (found) return found.key;
    }
    return { start: 0, end: 0 };
  }

  private record(path: TomlPath, location: TomlLocation, replace: boolean): void {
    const key = pathKey(path);
    if (replace || !this.locations.has(key)) this.locations.set(key, location);
  }

  private peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  private expect(char: string): void {
    if (this.peek() !== char) throw new ScanStop();
    this.pos++;
  }

  private skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  /** Skips whitespace, newlines and comments. */
  private skipBlank(): void {
    for (;;) {
      const char = this.peek();
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') this.pos++;
      else if (char === '#') {
        while (this.pos < this.text.length && this.peek() !== '\n') this.pos++;
      } else return;
    }
  }

  private scanDocument(): void {
    if (this.peek() === '\ufeff') this.pos++;
    let table: (string | number)[] = [];
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.text.length) return;
      if (this.peek() === '[') table = this.scanHeader();
      else this.scanKeyValue(table);
    }
  }

  /** A `[table]` or `[[array.of.tables]]` header; returns the path it opens. */
  private scanHeader(): (string | number)[] {
    const start = this.pos;
    const isArray = this.peek(1) === '[';
    this.pos += isArray ? 2 : 1;
    this.skipSpaces();
    const key = this.scanKey();
    this.skipSpaces();
    this.expect(']');
    if (isArray) this.expect(']');
    const header = { start, end: this.pos };

    const path: (string | number)[] = [];
    key.segments.forEach((segment, i) => {
      path.push(segment);
      const isLast = i === key.segments.length - 1;
      const keySpan = isLast
        ? key.span
        : { start: key.span.start, end: key.segmentEnds[i] ?? key.span.end };
      if (isLast && isArray) {
        const arrayKey = pathKey(path);
        const index = this.arrayTableCounts.get(arrayKey) ?? 0;
        this.arrayTableCounts.set(arrayKey, index + 1);
        this.record(path, { key: keySpan, value: header }, false);
        path.push(index);
        this.record(path, { key: keySpan, value: header }, true);
        return;
      }
      // Inside an array of tables, a header names its latest element.
      const count = this.arrayTableCounts.get(pathKey(path));
      if (count !== undefined && !isLast) path.push(count - 1);
      this.record(path, { key: keySpan, value: header }, isLast);
    });
    return path;
  }

  private scanKeyValue(table: TomlPath): void {
    const key = this.scanKey();
    this.skipSpaces();
    this.expect('=');
    this.skipSpaces();
    this.scanEntryValue([...table], key);
  }

  /** Records `key = value` under `prefix`, scanning the value. */
  private scanEntryValue(prefix: (string | number)[], key: ScannedKey): void {
    const path = [...prefix];
    key.segments.forEach((segment, i) => {
      path.push(segment);
      if (i < key.segments.length - 1) {
        // `a.b = 1` also writes table `a`: mark just the `a` part of the key for it.
        const prefix = { start: key.span.start, end: key.segmentEnds[i] ?? key.span.end };
        this.record(path, { key: prefix, value: prefix }, false);
      }
    });
    const start = this.pos;
    this.scanValue(path);
    this.record(path, { key: key.span, value: { start, end: this.pos } }, true);
  }

  private scanValue(path: (string | number)[]): void {
    const char = this.peek();
    if (char === '"' || char === "'") this.scanString();
    else if (char === '{') this.scanInlineTable(path);
    else if (char === '[') this.scanArray(path);
    else {
      // Numbers, booleans and dates: up to a delimiter, without trailing spaces.
      const start = this.pos;
      while (this.pos < this.text.length && !/[,\]}#\n\r]/.test(this.peek())) this.pos++;
      while (this.pos > start && /[ \t]/.test(this.text[this.pos - 1] ?? '')) this.pos--;
      if (this.pos === start) throw new ScanStop();
    }
  }

  private scanInlineTable(path: (string | number)[]): void {
    this.expect('{');
    for (;;) {
      this.skipBlank();
      if (this.peek() === '}') {
        this.pos++;
        return;
      }
      const key = this.scanKey();
      this.skipSpaces();
      this.expect('=');
      this.skipSpaces();
      this.scanEntryValue(path, key);
      this.skipBlank();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== '}') throw new ScanStop();
    }
  }

  private scanArray(path: (string | number)[]): void {
    this.expect('[');
    for (let index = 0; ; index++) {
      this.skipBlank();
      if (this.peek() === ']') {
        this.pos++;
        return;
      }
      const start = this.pos;
      const itemPath = [...path, index];
      this.scanValue(itemPath);
      const span = { start, end: this.pos };
      this.record(itemPath, { key: span, value: span }, true);
      this.skipBlank();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== ']') throw new ScanStop();
    }
  }

  /** Skips a string of any of the four kinds; returns its decoded text for keys. */
  private scanString(): string {
    const quote = this.peek();
    const multiline = this.peek(1) === quote && this.peek(2) === quote;
    if (multiline) {
      this.pos += 3;
      const close = quote.repeat(3);
      for (;;) {
        if (this.pos >= this.text.length) throw new ScanStop();
        if (quote === '"' && this.peek() === '\\') {
          this.pos += 2;
        } else if (this.text.startsWith(close, this.pos)) {
          this.pos += 3;
          // Up to two more quotes belong to the content: `""""" ` ends with `"""`.
          for (let extra = 0; extra < 2 && this.peek() === quote; extra++) this.pos++;
          return '';
        } else this.pos++;
      }
    }
    this.pos++;
    let decoded = '';
    for (;;) {
      const char = this.peek();
      if (char === '' || char === '\n') throw new ScanStop();
      this.pos++;
      if (char === quote) return decoded;
      if (quote === '"' && char === '\\') decoded += this.scanEscape();
      else decoded += char;
    }
  }

  private scanEscape(): string {
    const char = this.peek();
    this.pos++;
    const simple: Record<string, string> = {
      b: '\b',
      t: '\t',
      n: '\n',
      f: '\f',
      r: '\r',
      e: '\u001b',
      '"': '"',
      '\\': '\\',
    };
    const mapped = getOwn(simple, char);
    if (mapped !== undefined) return mapped;
    const width = char === 'u' ? 4 : char === 'U' ? 8 : char === 'x' ? 2 : 0;
    if (width === 0) throw new ScanStop();
    const hex = this.text.slice(this.pos, this.pos + width);
    this.pos += width;
    const codePoint = Number.parseInt(hex, 16);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || codePoint > 0x10ffff) throw new ScanStop();
    return String.fromCodePoint(codePoint);
  }

  /** A possibly dotted key: bare, `"basic"` or `'literal'` segments. */
  private scanKey(): ScannedKey {
    const start = this.pos;
    const segments: string[] = [];
    const segmentEnds: number[] = [];
    for (;;) {
      this.skipSpaces();
      const char = this.peek();
      if (char === '"' || char === "'") {
        segments.push(this.scanString());
      } else {
        const segmentStart = this.pos;
        while (BARE_KEY_CHAR.test(this.peek())) this.pos++;
        if (this.pos === segmentStart) throw new ScanStop();
        segments.push(this.text.slice(segmentStart, this.pos));
      }
      const end = this.pos;
      segmentEnds.push(end);
      this.skipSpaces();
      if (this.peek() !== '.') return { segments, segmentEnds, span: { start, end } };
      this.pos++;
    }
  }
}

interface ScannedKey {
  segments: string[];
  /** Where each segment ends, for the tables a dotted key opens. */
  segmentEnds: number[];
  span: Span;
}

function pathKey(path: TomlPath): string {
  return JSON.stringify(path);
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

/** smol-toml values as JSON: integers (read as bigint) become numbers, dates strings. */
function tomlToJson(value: unknown): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof TomlDate) return value.toISOString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(tomlToJson);
  if (typeof value === 'object' && value !== null) {
    const object: JsonObject = {};
    for (const [key, item] of Object.entries(value)) setOwn(object, key, tomlToJson(item));
    return object;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  return null;
}

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

  constructor(text: string) {
    this.index = new LineIndex(text);
    this.locator = new TomlLocator(text);
  }

  /** A problem with the value at `path`. */
  valueProblem(path: TomlPath, message: string, code: string, severity: Severity = 'error'): void {
    const span = this.locator.valueSpan(path);
    this.diagnostics.push(diagnosticAt(this.index, span.start, span.end, severity, message, code));
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
    setOwn(fields, key, tomlToJson(value));
  }
  const { rule, errors } = readCompactionRule(fields);
  for (const error of errors) {
    const fieldPath = [...path, ...error.field.split('.')];
    const code =
      error.field === 'keep_first' || error.field === 'keep_last'
        ? 'config/invalid-bound'
        : error.field === 'tool_calls'
          ? 'config/invalid-tool-calls'
          : error.field === 'reasoning'
            ? 'config/invalid-reasoning'
            : 'config/wrong-type';
    reader.valueProblem(fieldPath, error.message, code);
  }
  reader.warnTypos(raw, path, RULE_KEYS, RULE_KEYS, rulePathLabel(index));
  return rule;
}

const RULES_PATH = ['conversation', 'compaction', 'rules'] as const;
const MERGE_TABLE_KEYS: readonly string[] = ['value', 'strategy', 'dedup'];

/** Reads `conversation.compaction.rules` in either written form (spec 5). */
function readRulesLayer(reader: ConfigReader, raw: unknown): RulesLayer {
  const layer: RulesLayer = { rules: [], strategy: 'append', dedup: false };
  let items: unknown = raw;
  let itemsPath: TomlPath = RULES_PATH;
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
    const rule = readRule(reader, item, [...itemsPath, index], index);
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
 * Reads the user's TOML config layer (spec 14.1). Never throws: a syntax
 * error, a wrong type or a wrong value on a key the playground uses is an
 * error diagnostic at that value; a likely typo of a used key is a warning.
 */
export function parseConfigToml(text: string): ParsedConfig {
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
            cleanTomlMessage(error.message, text.charCodeAt(start)),
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
      if (rules !== undefined) config.rules = readRulesLayer(reader, rules);
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

// --- The config in force (spec 14.1) ----------------------------------------

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
    const layer: Record<string, JsonObject> = {};
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
  const cleaned: Record<string, JsonObject> = {};
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

  return {
    rules,
    usesBuiltinRule,
    tools,
    toolOverrides: resolveToolOverrides(tools),
    hintSources: resolveToolHintSources(tools),
  };
}
