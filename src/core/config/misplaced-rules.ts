/**
 * Two ways of writing rules that TOML accepts but JP reads differently from
 * what the user meant (issue 15, item 6): `[conversation.compaction.rules]`
 * with single brackets (one table where JP expects an array of tables), and
 * a dotted key such as `conversation.tools.x.compaction` written after a
 * `[[conversation.compaction.rules]]` header (it lands inside the rule).
 * Both are errors with a quick fix, since the config silently does nothing.
 */
import { diagnosticAt, type LineIndex } from '../diagnostics.ts';
import type { Diagnostic, GuidanceEdit, GuidanceFix } from '../types.ts';
import { formatTomlKey, type TomlLocator, type TomlPath } from './toml-locator.ts';

/** What the checks read: the text, its line index and its key locations. */
export interface MisplacedContext {
  text: string;
  index: LineIndex;
  locator: TomlLocator;
}

const RULES_HEADER = '[[conversation.compaction.rules]]';

function editAt(index: LineIndex, start: number, end: number, text: string): GuidanceEdit {
  const from = index.position(start);
  const to = index.position(end);
  return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column, text };
}

function withFix(diagnostic: Diagnostic, fix: GuidanceFix | undefined): Diagnostic {
  if (fix) diagnostic.fix = fix;
  return diagnostic;
}

/**
 * The error for rule fields under a single-bracket `[conversation.compaction.rules]`
 * header; the quick fix doubles its brackets. Undefined when the table was
 * not written as a header (a dotted key or inline table is reported as a wrong type).
 */
export function getSingleBracketRules(
  context: MisplacedContext,
  rulesPath: TomlPath,
): Diagnostic | undefined {
  const { text, index, locator } = context;
  const location = locator.find(rulesPath);
  if (!location) return undefined;
  const { start } = location.value;
  if (text[start] !== '[' || text[start + 1] === '[') return undefined;
  const close = text.indexOf(']', start);
  if (close < 0) return undefined;
  const end = close + 1;
  const message = `[conversation.compaction.rules] with single brackets is one table, but JP expects an array of rule tables, so JP would ignore this rule and run its built-in one; did you mean ${RULES_HEADER}?`;
  return withFix(diagnosticAt(index, start, end, 'error', message, 'config/rules-not-array'), {
    title: `Change to ${RULES_HEADER}`,
    edits: [editAt(index, start, end, RULES_HEADER)],
  });
}

/** The leaves (non-table values) under `table`, as paths relative to it; no recursion. */
function leafPaths(table: Record<string, unknown>): string[][] {
  const leaves: string[][] = [];
  const stack: { value: Record<string, unknown>; path: string[] }[] = [{ value: table, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as (typeof stack)[number];
    for (const [key, item] of Object.entries(value)) {
      const itemPath = [...path, key];
      if (
        typeof item === 'object' &&
        item !== null &&
        !Array.isArray(item) &&
        !(item instanceof Date)
      ) {
        stack.push({ value: item as Record<string, unknown>, path: itemPath });
      } else leaves.push(itemPath);
    }
  }
  return leaves;
}

/**
 * The errors for `conversation.…` keys written inside a rule (after a
 * `[[conversation.compaction.rules]]` header), one per key. The quick fix
 * moves the line under its own table header at the end of the text, when
 * that table is not already written elsewhere (a second header would be a
 * TOML error) and the key is alone on its line.
 */
export function getKeysInsideRule(
  context: MisplacedContext,
  rulePath: TomlPath,
  ruleLabel: string,
  conversation: Record<string, unknown>,
): Diagnostic[] {
  const { text, index, locator } = context;
  const diagnostics: Diagnostic[] = [];
  for (const leaf of leafPaths(conversation)) {
    const location = locator.find([...rulePath, 'conversation', ...leaf]);
    if (!location) continue;
    const full = ['conversation', ...leaf];
    const name = full.map(formatTomlKey).join('.');
    const table = full.slice(0, -1);
    const header = `[${table.map(formatTomlKey).join('.')}]`;
    const lineStart = text.lastIndexOf('\n', location.key.start - 1) + 1;
    const lineBreak = text.indexOf('\n', location.value.end);
    const lineEnd = lineBreak < 0 ? text.length : lineBreak + 1;
    const keyStart = text.indexOf('conversation', lineStart);
    const message = `${name} is inside ${ruleLabel} (every key after a ${RULES_HEADER} header belongs to that rule), so JP ignores it; move it under a ${header} header, or above the first ${RULES_HEADER}`;
    const diagnostic = diagnosticAt(
      index,
      keyStart >= 0 && keyStart < location.key.end ? keyStart : location.key.start,
      location.key.end,
      'error',
      message,
      'config/key-inside-rule',
    );
    const alone =
      text.slice(lineStart, keyStart).trim() === '' &&
      text.slice(location.value.end, lineEnd).replace(/#.*/, '').trim() === '';
    let fix: GuidanceFix | undefined;
    if (alone && locator.find(table) === undefined) {
      const line = `${formatTomlKey(full[full.length - 1] as string)} = ${text.slice(location.value.start, location.value.end)}`;
      const separator = text.endsWith('\n') || text.length === 0 ? '' : '\n';
      const block = `\n${header}\n${line}\n`;
      // Monaco refuses touching edits: a last line is replaced by the block in one edit.
      const edits =
        lineEnd === text.length
          ? [editAt(index, lineStart, lineEnd, block.slice(1))]
          : [
              editAt(index, lineStart, lineEnd, ''),
              editAt(index, text.length, text.length, `${separator}${block}`),
            ];
      fix = { title: `Move to ${header}`, edits };
    }
    diagnostics.push(withFix(diagnostic, fix));
  }
  return diagnostics;
}
