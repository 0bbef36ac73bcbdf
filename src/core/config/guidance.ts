/**
 * Guidance in the config editor: info and warning diagnostics that say what
 * the config does on this stream (which tools inherit, what `'*'` reaches,
 * which rule compacts nothing, when hints are inert), placed on the TOML text
 * they are about, with a quick fix as data where one exists.
 *
 * It reads a computed `PlaygroundFigures` for the facts and the config text
 * for positions; it is pure and never throws.
 */

import { getSummaryPlaceholder } from '../compaction/creation.ts';
import { formatCount } from '../counting/format.ts';
import { diagnosticAt, hasErrors, LineIndex } from '../diagnostics.ts';
import type { ImportFormat } from '../import/types.ts';
import { capDiagnostics } from '../json/limits.ts';
import { suggestClosest } from '../json/suggest.ts';
import { getOwn } from '../json/values.ts';
import type { PlaygroundFigures } from '../playground/types.ts';
import { assignTurns } from '../stream/turns.ts';
import type {
  GuidanceDiagnostic,
  GuidanceEdit,
  GuidanceFix,
  RuleBound,
  Severity,
  StreamElement,
  TurnRange,
} from '../types.ts';
import { listSplitToolTables, type ParsedConfig, parseConfigToml } from './config.ts';
import { describeEmptyRange, type EmptyRangeReason, formatTurnRange } from './range.ts';
import {
  mergeRuleLayers,
  type PartialCompactionRule,
  TOOL_CALLS_MODE_SPELLINGS,
} from './rule-config.ts';
import { formatTomlKey, TomlLocator } from './toml-locator.ts';
import { parseToolHintName, TOOL_DEFAULTS_KEY, TOOL_HINT_KEY } from './tool-hints.ts';

/** How many tool names a message lists before saying "and N more". */
const LISTED_NAMES = 8;

const RULES_PATH = ['conversation', 'compaction', 'rules'] as const;
const TOOLS_PATH = ['conversation', 'tools'] as const;
const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** The canonical spelling behind every accepted hint or `tool_calls` spelling. */
const CANONICAL_SPELLING: ReadonlyMap<string, string> = new Map([
  ['keep', 'keep'],
  ...TOOL_CALLS_MODE_SPELLINGS,
]);

interface Span {
  start: number;
  end: number;
}

/** "a, b and 3 more" */
function listNames(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_NAMES);
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${formatCount(rest)} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const countTools = (count: number) => `${count} tool${count === 1 ? '' : 's'}`;

/** How a tool name is written as a TOML key. */
const tomlKey = formatTomlKey;

/** The text of a simple one-line TOML string literal, or undefined for anything else. */
function readSimpleString(literal: string): string | undefined {
  const match = /^"([^"\\]*)"$|^'([^']*)'$/.exec(literal);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Places diagnostics and edits on one config text. */
class GuidanceWriter {
  readonly diagnostics: GuidanceDiagnostic[] = [];
  readonly index: LineIndex;
  readonly locator: TomlLocator;

  constructor(readonly text: string) {
    this.index = new LineIndex(text);
    this.locator = new TomlLocator(text);
  }

  add(span: Span, severity: Severity, code: string, message: string, fix?: GuidanceFix): void {
    const diagnostic: GuidanceDiagnostic = diagnosticAt(
      this.index,
      span.start,
      span.end,
      severity,
      message,
      code,
    );
    if (fix) diagnostic.fix = fix;
    this.diagnostics.push(diagnostic);
  }

  edit(span: Span, text: string): GuidanceEdit {
    const from = this.index.position(span.start);
    const to = this.index.position(span.end);
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column, text };
  }

  /** Line 1, for what the text does not say (no rule at all). */
  firstLine(): Span {
    const end = this.text.indexOf('\n');
    return { start: 0, end: end === -1 ? this.text.length : end };
  }

  valueOf(path: readonly (string | number)[]): Span | undefined {
    return this.locator.find(path)?.value;
  }

  keyOf(path: readonly (string | number)[]): Span | undefined {
    return this.locator.find(path)?.key;
  }

  /** The last segment of a possibly dotted key span: `tools.fs_read` → `fs_read`. */
  lastKeySegment(key: Span): Span {
    const text = this.text;
    const last = text[key.end - 1];
    if (last === "'") {
      return { start: text.lastIndexOf("'", key.end - 2), end: key.end };
    }
    if (last === '"') {
      for (let i = key.end - 2; i >= key.start; i--) {
        if (text[i] !== '"') continue;
        let backslashes = 0;
        while (text[i - 1 - backslashes] === '\\') backslashes++;
        if (backslashes % 2 === 0) return { start: i, end: key.end };
      }
      return key;
    }
    let start = key.end;
    while (start > key.start && BARE_KEY.test(text[start - 1] ?? '')) start--;
    return { start, end: key.end };
  }
}

/** A rule of the TOML as the guidance sees it: where it is written and what it says. */
interface WrittenRule {
  /** 1-based position among the written rules, as the user counts them. */
  number: number;
  path: (string | number)[];
  /** The rule's `[[…]]` header, or its inline table. */
  span: Span;
  rule: PartialCompactionRule;
}

/** The rules in force mapped to where they are written, or undefined when they do not match. */
function locateRules(
  writer: GuidanceWriter,
  parsed: ParsedConfig,
  result: PlaygroundFigures,
): WrittenRule[] | undefined {
  const layer = parsed.config.rules;
  if (layer === null) return result.rules.length === 1 && result.usesBuiltinRule ? [] : undefined;
  const itemsPath = writer.locator.find([...RULES_PATH, 'value'])
    ? [...RULES_PATH, 'value']
    : [...RULES_PATH];
  // mergeRuleLayers keeps the rule objects, so identity finds each one's written index.
  const merged = mergeRuleLayers([layer]);
  if (merged.length === 0) return result.usesBuiltinRule ? [] : undefined;
  if (result.usesBuiltinRule || merged.length !== result.rules.length) return undefined;
  const written: WrittenRule[] = [];
  for (const rule of merged) {
    const index = layer.rules.indexOf(rule);
    const path = [...itemsPath, index];
    const span = writer.valueOf(path);
    if (span === undefined) return undefined;
    written.push({ number: index + 1, path, span, rule });
  }
  return written;
}

/** The edit that writes `entry` (`key = value`) into a rule, in its header or its inline table. */
function insertIntoRule(writer: GuidanceWriter, rule: WrittenRule, entry: string): GuidanceEdit {
  const { text } = writer;
  const { start, end } = rule.span;
  if (text[start] === '{') {
    let last = end - 2;
    while (last > start && /\s/.test(text[last] ?? '')) last--;
    return text[last] === '{'
      ? writer.edit({ start, end }, `{ ${entry} }`)
      : writer.edit(
          { start: last + 1, end: last + 1 },
          text[last] === ',' ? ` ${entry}` : `, ${entry}`,
        );
  }
  const lineEnd = text.indexOf('\n', end);
  return lineEnd === -1
    ? writer.edit({ start: text.length, end: text.length }, `\n${entry}`)
    : writer.edit({ start: lineEnd + 1, end: lineEnd + 1 }, `${entry}\n`);
}

/** The edit that sets one key of a rule: its value replaced where written, else added. */
function setRuleKey(
  writer: GuidanceWriter,
  rule: WrittenRule,
  key: string,
  value: string,
): GuidanceEdit {
  const written = writer.valueOf([...rule.path, key]);
  return written ? writer.edit(written, value) : insertIntoRule(writer, rule, `${key} = ${value}`);
}

/** The fix that adds `tool_calls = "strip"` to a rule, in its header or its inline table. */
function addToolCallsFix(writer: GuidanceWriter, rule: WrittenRule): GuidanceFix {
  return {
    title: `Add tool_calls = "strip" to rule ${rule.number}`,
    edits: [insertIntoRule(writer, rule, 'tool_calls = "strip"')],
  };
}

/** How the sentence on short agent sessions starts: the page puts its link to the runtime's replay after it. */
export const SHORT_AGENT_SESSION_WORDS = 'JP compacts whole turns;';

/** The agent sessions JP's whole-turn rule cannot help: this many turns or fewer. */
const SHORT_AGENT_SESSION_TURNS = 2;

/**
 * Why an imported agent session of one or two turns saves nothing, in the
 * words of issue 22: its tool calls all sit inside turns a rule keeps whole,
 * while the agent's own runtime clears inside the turn. Null when that is
 * not the case here (a JP stream, a longer session, no tool calls).
 */
function describeShortAgentSession(
  result: PlaygroundFigures,
  format: ImportFormat | null,
): string | null {
  if (!format || format === 'jp' || result.turnCount > SHORT_AGENT_SESSION_TURNS) return null;
  const toolCalls = result.tools.reduce((sum, tool) => sum + tool.calls, 0);
  if (toolCalls === 0 || result.turnCount === 0) return null;
  const turns = `${formatCount(result.turnCount)} ${result.turnCount === 1 ? 'turn' : 'turns'}`;
  const calls = `${formatCount(toolCalls)} tool ${toolCalls === 1 ? 'call' : 'calls'}`;
  return `${SHORT_AGENT_SESSION_WORDS} this session has ${turns} holding ${calls}, so JP's rule saves nothing until the turn ends. Your runtime clears within the turn.`;
}

/**
 * The quick fix that exists for a short agent session: `keep_last = 0`, so
 * the turn in progress is compacted too (and `keep_first = 0` when the turns
 * kept at the start are all of them). Without a written rule, it writes one
 * like the built-in rule with those bounds.
 */
function keepLastZeroFix(
  writer: GuidanceWriter,
  result: PlaygroundFigures,
  rule: WrittenRule | undefined,
  keepFirst: RuleBound | null,
): GuidanceFix {
  const firstTooMany =
    keepFirst === null
      ? result.turnCount <= 1
      : 'turns' in keepFirst && keepFirst.turns >= result.turnCount;
  const title = firstTooMany
    ? 'Set keep_first = 0 and keep_last = 0 (the turn in progress is compacted too)'
    : 'Set keep_last = 0 (the turn in progress is compacted too)';
  if (!rule) {
    const end = { start: writer.text.length, end: writer.text.length };
    const gap = writer.text === '' || writer.text.endsWith('\n') ? '' : '\n';
    const written = `${gap}\n[[conversation.compaction.rules]]\nkeep_first = ${firstTooMany ? 0 : 1}\nkeep_last = 0\nreasoning = "strip"\ntool_calls = "strip"\n`;
    return { title, edits: [writer.edit(end, written)] };
  }
  const firstWritten = writer.valueOf([...rule.path, 'keep_first']) !== undefined;
  const lastWritten = writer.valueOf([...rule.path, 'keep_last']) !== undefined;
  // Two insertions at one place would be applied in either order: write them as one.
  if (firstTooMany && !firstWritten && !lastWritten) {
    const separator = writer.text[rule.span.start] === '{' ? ', ' : '\n';
    return {
      title,
      edits: [insertIntoRule(writer, rule, `keep_first = 0${separator}keep_last = 0`)],
    };
  }
  const edits = [setRuleKey(writer, rule, 'keep_last', '0')];
  if (firstTooMany) edits.unshift(setRuleKey(writer, rule, 'keep_first', '0'));
  return { title, edits };
}

/** The key of a rule that an empty range is best shown on. */
function boundBehind(reason: EmptyRangeReason | null): 'keep_first' | 'keep_last' | null {
  switch (reason?.kind) {
    case 'start-after-last-turn':
    case 'nothing-after-last-compaction':
    case 'first-turn-time-unknown':
      return 'keep_first';
    case 'end-before-first-turn':
    case 'window-covers-all':
      return 'keep_last';
    default:
      return null;
  }
}

function aliasDiagnostic(writer: GuidanceWriter, span: Span, what: string): void {
  const spelling = readSimpleString(writer.text.slice(span.start, span.end));
  if (spelling === undefined) return;
  const canonical = CANONICAL_SPELLING.get(spelling);
  if (canonical === undefined || canonical === spelling) return;
  writer.add(
    span,
    'info',
    'guidance/alias',
    `"${spelling}" is an alias of "${canonical}" for ${what}; JP writes it back as "${canonical}".`,
    {
      title: `Write "${canonical}"`,
      edits: [writer.edit(span, `"${canonical}"`)],
    },
  );
}

/**
 * Guidance for the config editor on `configText`, given the result computed
 * from it: info and warning diagnostics on the key or value they are about,
 * each with a stable `guidance/…` code and, where one exists, a quick fix.
 * Empty when the result is not `ok` or the config does not parse. Never throws.
 * The pipeline passes the config it already parsed (`parsed`), so a run reads
 * the TOML once, and the stream's `elements`, so a zero saving that no other
 * guidance explains can say what the compacted turns hold.
 */
export function getConfigGuidance(
  configText: string,
  result: PlaygroundFigures,
  parsed: ParsedConfig = parseConfigToml(configText),
  elements?: readonly StreamElement[],
  importedFrom: ImportFormat | null = result.imported?.summary.format ?? null,
): GuidanceDiagnostic[] {
  try {
    return collectGuidance(configText, result, parsed, elements, importedFrom);
  } catch {
    // Guidance is a help, never a failure: with something unexpected, it says nothing.
    return [];
  }
}

/** What every part of the guidance reads: the text, the result, and where the rules are written. */
interface GuidanceContext {
  writer: GuidanceWriter;
  result: PlaygroundFigures;
  parsed: ParsedConfig;
  /** The rules in force where they are written; undefined when the text and result disagree. */
  rules: WrittenRule[] | undefined;
  /** Where the built-in rule is talked about: `rules = []` when written, else line 1. */
  builtinSpan: Span;
  /** The stream the result was computed from, when the caller has it. */
  elements: readonly StreamElement[] | undefined;
  /** The transcript format the stream was imported from (an agent's), or null for JP's own. */
  importedFrom: ImportFormat | null;
}

function collectGuidance(
  configText: string,
  result: PlaygroundFigures,
  parsed: ParsedConfig,
  elements: readonly StreamElement[] | undefined,
  importedFrom: ImportFormat | null,
): GuidanceDiagnostic[] {
  if (result.status !== 'ok') return [];
  if (hasErrors(parsed.diagnostics)) return [];
  const writer = new GuidanceWriter(configText);
  const context: GuidanceContext = {
    writer,
    result,
    parsed,
    rules: locateRules(writer, parsed, result),
    builtinSpan: writer.valueOf(RULES_PATH) ?? writer.firstLine(),
    elements,
    importedFrom,
  };
  guideBuiltinRule(context);
  guideRules(context);
  guideHints(context);
  guideSplitToolNames(context);
  guideInheritingTools(context);
  guideNothingRemoved(context);
  // As every text's diagnostics (docs/limits.md): 100 listed, then one that counts the rest.
  return capDiagnostics(
    writer.diagnostics.sort(
      (a, b) =>
        a.line - b.line || a.column - b.column || (a.code ?? '').localeCompare(b.code ?? ''),
    ),
  );
}

/**
 * A zero saving that no warning explains: some rule compacts turns, yet the
 * figures do not move. Says what the compacted turns hold (or that stored
 * compactions already removed it), so "Saved 0" never stands without a reason.
 */
function guideNothingRemoved({
  writer,
  result,
  rules,
  builtinSpan,
  elements,
}: GuidanceContext): void {
  if (!elements || result.report.totals.saved.tokens !== 0) return;
  if (writer.diagnostics.some((d) => d.severity === 'warning')) return;
  const compacting = result.plans.filter((plan) => plan.range !== null);
  const first = compacting[0];
  if (!first) return;
  const ranges = compacting.map((plan) => plan.range as TurnRange);
  const span = result.usesBuiltinRule
    ? builtinSpan
    : (rules?.[first.ruleIndex]?.span ?? builtinSpan);
  const where = ranges.map(formatTurnRange).join(' and ');

  const turns = assignTurns(elements);
  const inRange = (turn: number) => ranges.some((r) => turn >= r.from_turn && turn <= r.to_turn);
  let toolCalls = 0;
  let reasoning = 0;
  elements.forEach((element, index) => {
    if (!inRange(turns[index] as number)) return;
    if (element.type === 'tool_call_request') toolCalls++;
    if (element.type === 'chat_response' && typeof element.reasoning === 'string') reasoning++;
  });

  let message: string | undefined;
  if (toolCalls === 0 && reasoning === 0) {
    message = `Nothing is saved: the compacted turns hold nothing these rules remove: no tool calls or reasoning in ${where}.`;
  } else if (
    compacting.every((plan) => plan.rule.reasoning === null && plan.rule.tool_calls === null)
  ) {
    message = `Nothing is saved: the rules that compact ${where} set neither reasoning = "strip" nor tool_calls, so they remove nothing.`;
  } else if (
    result.timeline.some(
      (entry) =>
        !entry.isNew &&
        ranges.some(
          (r) => entry.event.from_turn <= r.to_turn && entry.event.to_turn >= r.from_turn,
        ),
    )
  ) {
    message = `Nothing is saved: the stream's stored compactions already remove what these rules would in ${where}.`;
  }
  if (message) writer.add(span, 'info', 'guidance/nothing-removed', message);
}

function guideBuiltinRule({ writer, result, builtinSpan }: GuidanceContext): void {
  if (!result.usesBuiltinRule) return;
  const written = writer.valueOf(RULES_PATH) !== undefined;
  writer.add(
    builtinSpan,
    'info',
    'guidance/builtin-rule',
    `${written ? 'This rule list is empty' : 'No compaction rule is configured'}, so the built-in default rule applies: keep_first 1, keep_last 1, reasoning strip, tool_calls strip.`,
  );
}

/** Empty ranges, summary placeholders and `tool_calls` aliases. */
function guideRules({ writer, result, rules, builtinSpan, importedFrom }: GuidanceContext): void {
  const shortSession = describeShortAgentSession(result, importedFrom);
  // Said once: the first rule that compacts nothing carries the sentence; each keeps its quick fix.
  let sentence = shortSession;
  for (const plan of result.plans) {
    const rule = rules?.[plan.ruleIndex];
    if (plan.range === null) {
      const reason = plan.emptyReason ? describeEmptyRange(plan.emptyReason) : plan.explanation;
      const why = sentence ? `${reason} ${sentence}` : reason;
      sentence = null;
      if (result.usesBuiltinRule) {
        const fix =
          shortSession && writer.valueOf(RULES_PATH) === undefined
            ? keepLastZeroFix(writer, result, undefined, null)
            : undefined;
        writer.add(
          builtinSpan,
          'warning',
          'guidance/empty-range',
          `The built-in rule compacts nothing on this stream. ${why}`,
          fix,
        );
      } else if (rule) {
        const bound = boundBehind(plan.emptyReason);
        const span = (bound && writer.valueOf([...rule.path, bound])) ?? rule.span;
        const fix = shortSession
          ? keepLastZeroFix(writer, result, rule, plan.rule.keep_first)
          : undefined;
        writer.add(
          span,
          'warning',
          'guidance/empty-range',
          `Rule ${rule.number} compacts nothing on this stream. ${why}`,
          fix,
        );
      }
    }
    if (plan.rule.summary !== null && rule) {
      const span = writer.keyOf([...rule.path, 'summary']) ?? rule.span;
      const placeholder = plan.range
        ? getSummaryPlaceholder(plan.range)
        : '[summary of turns A..B]';
      writer.add(
        span,
        'info',
        'guidance/summary-placeholder',
        `The playground calls no model: this rule's summary is the placeholder "${placeholder}", which a real run would generate.`,
      );
    }
  }
  for (const rule of rules ?? []) {
    const span = writer.valueOf([...rule.path, 'tool_calls']);
    if (span && rule.rule.tool_calls !== null) aliasDiagnostic(writer, span, 'tool_calls');
  }
}

/** Per written hint: its spelling, whether it acts, what `'*'` reaches, unknown tools. */
function guideHints({ writer, result, parsed, rules }: GuidanceContext): void {
  const streamTools = result.tools.filter((tool) => tool.calls > 0).map((tool) => tool.name);
  const called = new Set(streamTools);
  /** Hints for tools the stream never calls, with their keys: one item each, or one for all. */
  const neverCalled: { name: string; key: Span }[] = [];
  const firstRule = rules?.[0];
  // Spec 13, ruling 1: without a tool_calls winner, a compaction's overrides are never read.
  const hintsInert =
    !result.usesBuiltinRule &&
    result.rules.length > 0 &&
    result.rules.every((rule) => rule.tool_calls === null);
  const inertFix = () => (firstRule ? addToolCallsFix(writer, firstRule) : undefined);
  const writtenHints = new Set<string>();

  for (const [name, fields] of Object.entries(parsed.config.tools)) {
    const hint = parseToolHintName(getOwn(fields, TOOL_HINT_KEY));
    if (!hint.ok) continue;
    writtenHints.add(name);
    const toolPath = [...TOOLS_PATH, name];
    const valueSpan = writer.valueOf([...toolPath, TOOL_HINT_KEY]);
    if (valueSpan === undefined) continue;

    aliasDiagnostic(writer, valueSpan, 'a tool hint');
    if (hintsInert) {
      writer.add(
        valueSpan,
        'warning',
        'guidance/hint-inert',
        'This hint has no effect: no rule sets tool_calls, and a hint only refines the tool_calls of the rule that compacts a turn.',
        inertFix(),
      );
    }
    if (name === TOOL_DEFAULTS_KEY) {
      const reached = result.tools.filter((tool) => tool.source === '*').map((tool) => tool.name);
      writer.add(
        valueSpan,
        'info',
        'guidance/star-reaches',
        reached.length === 0
          ? `'*' reaches no tool here: every tool has a hint of its own.`
          : `'*' gives ${hint.value} to ${countTools(reached.length)} without a hint of their own: ${listNames(reached)}.`,
      );
    } else if (!called.has(name)) {
      const key = writer.keyOf(toolPath);
      if (key !== undefined) neverCalled.push({ name, key });
    }
  }
  if (neverCalled.length <= LISTED_NAMES) {
    for (const { name, key } of neverCalled) unknownToolDiagnostic(writer, name, key, streamTools);
  } else {
    // Thousands of such hints are one finding, not thousands (and a suggestion for each would be quadratic).
    const first = neverCalled[0] as { name: string; key: Span };
    writer.add(
      writer.lastKeySegment(first.key),
      'warning',
      'guidance/unknown-tool',
      `${formatCount(neverCalled.length)} hints are for tools the stream never calls, so they change nothing here: ${listNames(neverCalled.map((hint) => hint.name))}.`,
    );
  }

  // Hints from the stream's config_delta events are just as inert, but not in the text.
  if (hintsInert && firstRule) {
    const fromStream = result.tools
      .filter((tool) => tool.hint !== null)
      .filter((tool) => !writtenHints.has(tool.source === '*' ? TOOL_DEFAULTS_KEY : tool.name))
      .map((tool) => tool.name);
    if (fromStream.length > 0) {
      writer.add(
        firstRule.span,
        'warning',
        'guidance/hint-inert',
        `The stream's config_delta hints for ${listNames(fromStream)} have no effect: no rule sets tool_calls.`,
        inertFix(),
      );
    }
  }
}

/** `[conversation.tools.a.b]` when the stream calls `a.b`: the quick fix quotes the name. */
function guideSplitToolNames({ writer, result, parsed }: GuidanceContext): void {
  const called = new Set(result.tools.filter((tool) => tool.calls > 0).map((tool) => tool.name));
  for (const [name, fields] of Object.entries(parsed.config.tools)) {
    for (const field of listSplitToolTables(fields)) {
      const meant = `${name}.${field}`;
      if (!called.has(meant)) continue;
      const first = writer.keyOf([...TOOLS_PATH, name]);
      const whole = writer.keyOf([...TOOLS_PATH, name, field]);
      if (first === undefined || whole === undefined) continue;
      const span = { start: writer.lastKeySegment(first).start, end: whole.end };
      writer.add(
        span,
        'warning',
        'guidance/split-tool-name',
        `The stream calls "${meant}", but this header gives its settings to a tool "${name}": write [conversation.tools.${tomlKey(meant)}].`,
        { title: `Quote the name: ${tomlKey(meant)}`, edits: [writer.edit(span, tomlKey(meant))] },
      );
    }
  }
}

function unknownToolDiagnostic(
  writer: GuidanceWriter,
  name: string,
  key: Span,
  streamTools: readonly string[],
): void {
  const nameSpan = writer.lastKeySegment(key);
  const suggestion = suggestClosest(name, streamTools);
  const fix: GuidanceFix | undefined = suggestion
    ? { title: `Rename to ${suggestion}`, edits: [writer.edit(nameSpan, tomlKey(suggestion))] }
    : undefined;
  writer.add(
    nameSpan,
    'warning',
    'guidance/unknown-tool',
    `The stream never calls "${name}", so this hint changes nothing here${suggestion ? `; did you mean "${suggestion}"?` : '.'}`,
    fix,
  );
}

/** The stream's tools that have no hint of their own and no `'*'`: they follow the rule. */
function guideInheritingTools({ writer, result, rules, builtinSpan }: GuidanceContext): void {
  const inheriting = result.tools
    .filter((tool) => tool.calls > 0 && tool.source === 'rule')
    .map((tool) => tool.name);
  if (inheriting.length === 0) return;
  const one = inheriting.length === 1;
  const subject = `${countTools(inheriting.length)} in this stream ${one ? 'has' : 'have'} no hint`;
  const follow = one ? 'follows' : 'follow';
  const names = listNames(inheriting);
  const modes = [...new Set(result.rules.map((rule) => rule.tool_calls).filter((m) => m !== null))];
  const firstRule = rules?.[0];

  if (result.usesBuiltinRule) {
    writer.add(
      builtinSpan,
      'info',
      'guidance/inherits-default',
      `${subject} and ${follow} the built-in rule's tool_calls (strip): ${names}.`,
    );
  } else if (modes.length === 0) {
    if (!firstRule) return;
    writer.add(
      firstRule.span,
      'info',
      'guidance/inherits-default',
      `${subject}, and no rule sets tool_calls, so ${one ? 'its' : 'their'} calls are sent as they are: ${names}.`,
    );
  } else {
    const setter = rules?.find((rule) => rule.rule.tool_calls !== null);
    const span = (setter && writer.valueOf([...setter.path, 'tool_calls'])) ?? firstRule?.span;
    if (!span) return;
    const which = result.rules.length === 1 ? "the rule's" : "each rule's";
    writer.add(
      span,
      'info',
      'guidance/inherits-default',
      `${subject} and ${follow} ${which} tool_calls (${modes.join(', ')}): ${names}.`,
    );
  }
}
