/**
 * What the config editor offers while typing: completions and hover docs for
 * the keys and values the playground reads (spec sections 5, 11 and 14.1).
 * Plain data and string matching, no Monaco types, so it is unit-tested as
 * is; `toml-language.ts` turns it into Monaco providers. The hints and their
 * words come from the core's table, so the panes and the editor agree.
 */

import { formatTomlKey } from '../../core/config/toml-locator.ts';
import { HINT_WORDS, TOOL_HINTS } from '../../core/config/tool-hints.ts';

/** Where in a TOML document the cursor sits, as far as assistance cares. */
export type TomlTableKind = 'root' | 'tool' | 'rules' | 'summary' | 'other';

/** The kind of a completion, mapped to a Monaco icon. */
export type TomlCompletionKind = 'table' | 'key' | 'value' | 'tool';

/** One completion, ready to map onto a Monaco completion item. */
export interface TomlCompletion {
  label: string;
  kind: TomlCompletionKind;
  /** Text to insert; a Monaco snippet when `isSnippet`. */
  insertText: string;
  isSnippet: boolean;
  /** One line shown beside the label. */
  detail: string;
  /** Markdown shown in the details pane. */
  documentation?: string;
  /** 1-based columns of the current line the completion replaces, `[start, end)`. */
  replace: { startColumn: number; endColumn: number };
  /** Keeps our order instead of Monaco's alphabetical one. */
  sortText: string;
  /** What Monaco matches the typed text (the replaced range) against; the label when absent. */
  filterText?: string;
}

/** A per-tool hint value (spec 11), with the one line the completion shows. */
export interface HintValue {
  value: string;
  summary: string;
}

/** The canonical hint values, in the order a person weighs them. */
export const HINT_VALUES: readonly HintValue[] = TOOL_HINTS.map((hint) => ({
  value: hint,
  summary: `${HINT_WORDS[hint].charAt(0).toUpperCase()}${HINT_WORDS[hint].slice(1)}.`,
}));

/** The rule-level `tool_calls` values (spec 5): the hints without `keep`. */
export const TOOL_CALLS_VALUES: readonly HintValue[] = HINT_VALUES.filter(
  (hint) => hint.value !== 'keep',
);

const BOUND_VALUES: readonly HintValue[] = [
  { value: '1', summary: 'A count of turns (the default is 1).' },
  { value: '"@2"', summary: 'A 1-based turn position.' },
  { value: '"-3"', summary: 'Counted from the end.' },
  {
    value: '"1h 30m"',
    summary: 'A duration (units are case-sensitive: M is a month, m a minute).',
  },
  { value: '"last-compaction"', summary: 'Right after the last compaction.' },
];

const BOUND_DOC = [
  'A turn bound (spec 5, 15.4). One of:',
  '- a count: `1`, `"3"` (the default is `1`);',
  '- `"-N"`: under JP main (base=2026-09, the default) the Nth turn from the end, `"-1"` the last (`"-0"` is an error); under JP 4c1c39f1 (base=2026-08) a count from the end;',
  '- `"@N"`: a 1-based turn position, JP 4c1c39f1 only (JP main refuses it: write the count N-1 as keep_first);',
  '- `"last-compaction"`: right after the last compaction;',
  '- a duration: `"5h"`, `"2days"`, `"1h 30m"` (units are case-sensitive: `M` is a month, `m` a minute).',
].join('\n');

/** Hover and completion docs for the keys, by table. Markdown. */
export const KEY_DOCS = {
  compaction: [
    '**compaction**: this tool’s compaction hint (D17).',
    '',
    'Overrides the rule’s `tool_calls` for this tool in **new** compactions: it is frozen into each compaction event as `tool_overrides` when the event is created, so editing it later changes nothing already compacted (Reset, then Compact again).',
    '',
    "Values: `keep`, `strip`, `strip-requests`, `strip-responses`, `omit` (aliases `s`, `sreq`, `sres`, `o`). Unset: the tool follows the rule. Under `[conversation.tools.'*']` it is the default for every tool the stream or config names.",
    '',
    'A hint has no effect in a compaction whose rule sets no `tool_calls`, and a summary beats every hint.',
  ].join('\n'),
  tool_calls: [
    '**tool_calls**: what this rule does to tool calls in the turns it compacts (spec 5).',
    '',
    '`strip` (both), `strip-requests`, `strip-responses`, `omit`; aliases `s`, `sreq`, `sres`, `o`.',
    '',
    'Under JP main (base=2026-09) also a table with a size threshold: `tool_calls = { policy = "strip-responses", over = "1MB" }` reaches only items over 1 MB (binary units; `omit` judges the request and response together). `policy` is required; any other key is an error. Under JP 4c1c39f1 a table is rejected.',
    '',
    'Unset means no opinion: the compaction leaves tool calls alone, and per-tool hints have no effect in it.',
  ].join('\n'),
  keep_first: `**keep_first**: turns left uncompacted at the start.\n\n${BOUND_DOC}`,
  keep_last: `**keep_last**: turns left uncompacted at the end.\n\n${BOUND_DOC}`,
  reasoning: [
    '**reasoning**: `"strip"` removes reasoning (thinking) responses in the compacted turns.',
    '',
    'The only accepted value is `"strip"`, or under JP main (base=2026-09) `{ policy = "strip", over = "16KB" }` to strip only reasoning over 16 KB; unset means no opinion.',
  ].join('\n'),
  summary: [
    '**summary**: present (even empty) means the rule summarizes its turns.',
    '',
    'A summarized turn is replaced by the summary, whatever `reasoning`, `tool_calls` or hints say. The playground calls no model: it writes a placeholder (`[summary of turns A..B]`) that a real run would generate.',
    '',
    'Optional fields: `instructions`, `context`, `model`; under JP main (base=2026-09) `text`, a verbatim summary stored as written (`"source": "authored"`), refused where it would have to grow over another summary.',
  ].join('\n'),
} as const;

const TOOL_SUMMARY_DOC = '**summary**: the tool’s one-line description. The playground ignores it.';

const HEADER_TOOL = 'conversation.tools.';

/** Finds the kind of the table that encloses `lineNumber` (1-based). */
export function getTableKind(lines: readonly string[], lineNumber: number): TomlTableKind {
  for (let i = lineNumber - 1; i >= 0; i--) {
    const match = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/.exec(lines[i] ?? '');
    if (!match) continue;
    const path = (match[1] ?? '').replace(/\s*\.\s*/g, '.');
    if (path.startsWith(HEADER_TOOL)) return 'tool';
    if (path === 'conversation.compaction.rules') return 'rules';
    if (path === 'conversation.compaction.rules.summary') return 'summary';
    return 'other';
  }
  return 'root';
}

/** A TOML key for a tool name: the core's one quoter (bare when it can be, else a basic string). */
export const tomlKey = formatTomlKey;

/** A snippet tab stop with a choice: `${n|a,b|}`. */
function snippetChoice(index: number, values: readonly HintValue[]): string {
  return `\${${index}|${values.map((hint) => hint.value).join(',')}|}`;
}

/** A snippet tab stop with a default: `${n:text}`. */
function tabStop(index: number, text = ''): string {
  return `\${${index}:${text}}`;
}

function order(index: number): string {
  return String(index).padStart(3, '0');
}

/**
 * The completions at a position.
 * @param lines the document's lines
 * @param lineNumber 1-based line of the cursor
 * @param column 1-based column of the cursor
 * @param toolNames tools the stream and config name, offered after `[conversation.tools.`
 */
export function getTomlCompletions(
  lines: readonly string[],
  lineNumber: number,
  column: number,
  toolNames: readonly string[],
): TomlCompletion[] {
  const line = lines[lineNumber - 1] ?? '';
  const before = line.slice(0, column - 1);
  const after = line.slice(column - 1);

  // [conversation.tools.<name>]: offer the stream's tools and the defaults section.
  const toolHeader = /^\s*\[\s*conversation\s*\.\s*tools\s*\.\s*(['"]?[^\]'"]*)$/.exec(before);
  if (toolHeader) {
    const typed = toolHeader[1] ?? '';
    const startColumn = column - typed.length;
    const closing = after.startsWith(']') ? '' : ']';
    const names = [...new Set(toolNames)].sort();
    return [
      ...names.map(
        (name, i): TomlCompletion => ({
          label: name,
          kind: 'tool',
          insertText: `${tomlKey(name)}${closing}`,
          isSnippet: false,
          detail: 'a tool the stream or config names',
          replace: { startColumn, endColumn: column },
          sortText: order(i),
        }),
      ),
      {
        label: "'*'",
        kind: 'tool',
        insertText: `'*'${closing}`,
        isSnippet: false,
        detail: 'defaults for every tool',
        documentation: 'A hint here applies to every tool the stream or config names (spec 14.1).',
        replace: { startColumn, endColumn: column },
        sortText: order(names.length),
      },
    ];
  }

  // A table header being typed: `[` or `[[` at the start of the line.
  const header = /^(\s*)(\[\[?[\w.'"* -]*)$/.exec(before);
  if (header) {
    const startColumn = (header[1] ?? '').length + 1;
    const endColumn = column + (/^\]*/.exec(after)?.[0].length ?? 0);
    return tableCompletions({ startColumn, endColumn }, toolNames);
  }

  // A value after `key =`.
  const value = /^\s*([A-Za-z_][\w-]*)\s*=\s*("?)([\w@ .-]*)$/.exec(before);
  if (value) {
    const key = value[1] ?? '';
    const quoted = value[2] === '"';
    const typed = value[3] ?? '';
    const closingQuote = quoted && after.startsWith('"') ? 1 : 0;
    const table = getTableKind(lines, lineNumber);
    const replace = {
      startColumn: column - typed.length - (quoted ? 1 : 0),
      endColumn: column + closingQuote,
    };
    const values = valueCompletions(key, table, replace);
    // A finished value (a closed string that is one of the values, or a bare
    // number) needs no suggestion: one shown there would take the Enter the
    // user pressed for a new line.
    const finished =
      (closingQuote === 1 && values.some((item) => item.label === typed)) ||
      (!quoted && /^\d+$/.test(typed));
    return finished ? [] : values;
  }

  // A key at the start of a line.
  const key = /^\s*([A-Za-z_][\w-]*)?$/.exec(before);
  if (key) {
    const typed = key[1] ?? '';
    const replace = { startColumn: column - typed.length, endColumn: column };
    const table = getTableKind(lines, lineNumber);
    return [
      ...keyCompletions(table, replace),
      ...(typed === '' || 'conversation'.startsWith(typed)
        ? tableCompletions(replace, toolNames).map((c) => ({ ...c, sortText: `z${c.sortText}` }))
        : []),
    ];
  }
  return [];
}

function tableCompletions(
  replace: TomlCompletion['replace'],
  toolNames: readonly string[],
): TomlCompletion[] {
  const firstTool = toolNames[0] ? tomlKey(toolNames[0]) : 'tool_name';
  const items: Omit<TomlCompletion, 'replace' | 'sortText'>[] = [
    {
      label: '[conversation.tools.<name>]',
      kind: 'table',
      insertText: `[conversation.tools.${tabStop(1, firstTool)}]\ncompaction = "${snippetChoice(2, HINT_VALUES)}"`,
      isSnippet: true,
      detail: 'a per-tool compaction hint',
      documentation: KEY_DOCS.compaction,
    },
    {
      label: "[conversation.tools.'*']",
      kind: 'table',
      insertText: `[conversation.tools.'*']\ncompaction = "${snippetChoice(1, HINT_VALUES)}"`,
      isSnippet: true,
      detail: 'a default hint for every tool',
      documentation: KEY_DOCS.compaction,
    },
    {
      label: '[[conversation.compaction.rules]]',
      kind: 'table',
      insertText: [
        '[[conversation.compaction.rules]]',
        `keep_first = ${tabStop(1, '1')}`,
        `keep_last = ${tabStop(2, '1')}`,
        'reasoning = "strip"',
        `tool_calls = "${snippetChoice(3, TOOL_CALLS_VALUES)}"`,
      ].join('\n'),
      isSnippet: true,
      detail: 'a compaction rule',
      documentation: 'Each rule creates at most one compaction event (spec 5).',
    },
    {
      label: '[conversation.compaction.rules.summary]',
      kind: 'table',
      insertText: '[conversation.compaction.rules.summary]\n',
      isSnippet: false,
      detail: 'the last rule summarizes',
      documentation: KEY_DOCS.summary,
    },
  ];
  return items.map((item, i) => ({ ...item, replace, sortText: order(i) }));
}

function keyCompletions(
  table: TomlTableKind,
  replace: TomlCompletion['replace'],
): TomlCompletion[] {
  const keys: Omit<TomlCompletion, 'replace' | 'sortText'>[] = [];
  if (table === 'tool') {
    keys.push({
      label: 'compaction',
      kind: 'key',
      insertText: `compaction = "${snippetChoice(1, HINT_VALUES)}"`,
      isSnippet: true,
      detail: 'per-tool compaction hint',
      documentation: KEY_DOCS.compaction,
    });
  } else if (table === 'rules') {
    keys.push(
      {
        label: 'keep_first',
        kind: 'key',
        insertText: `keep_first = ${tabStop(1, '1')}`,
        isSnippet: true,
        detail: 'turns kept at the start',
        documentation: KEY_DOCS.keep_first,
      },
      {
        label: 'keep_last',
        kind: 'key',
        insertText: `keep_last = ${tabStop(1, '1')}`,
        isSnippet: true,
        detail: 'turns kept at the end',
        documentation: KEY_DOCS.keep_last,
      },
      {
        label: 'reasoning',
        kind: 'key',
        insertText: 'reasoning = "strip"',
        isSnippet: false,
        detail: 'strip reasoning',
        documentation: KEY_DOCS.reasoning,
      },
      {
        label: 'tool_calls',
        kind: 'key',
        insertText: `tool_calls = "${snippetChoice(1, TOOL_CALLS_VALUES)}"`,
        isSnippet: true,
        detail: 'what the rule does to tool calls',
        documentation: KEY_DOCS.tool_calls,
      },
      {
        label: 'tool_calls (over a size)',
        kind: 'key',
        insertText: `tool_calls = { policy = "${snippetChoice(1, TOOL_CALLS_VALUES)}", over = "${tabStop(2, '1MB')}" }`,
        isSnippet: true,
        detail: 'JP main: only tool calls over a size',
        documentation: KEY_DOCS.tool_calls,
      },
      {
        label: 'summary',
        kind: 'key',
        insertText: 'summary = {}',
        isSnippet: false,
        detail: 'summarize the compacted turns',
        documentation: KEY_DOCS.summary,
      },
    );
  } else if (table === 'summary') {
    for (const [label, detail] of [
      ['instructions', 'replaces the summarizer’s system prompt'],
      ['context', 'extra guidance for the summarizer'],
      ['text', 'JP main: a verbatim summary, stored as written'],
    ] as const) {
      keys.push({
        label,
        kind: 'key',
        insertText: `${label} = "${tabStop(1)}"`,
        isSnippet: true,
        detail,
      });
    }
  }
  return keys.map((item, i) => ({ ...item, replace, sortText: order(i) }));
}

function valueCompletions(
  key: string,
  table: TomlTableKind,
  replace: TomlCompletion['replace'],
): TomlCompletion[] {
  let values: readonly HintValue[];
  let quote = true;
  if (key === 'compaction' && table === 'tool') values = HINT_VALUES;
  else if (key === 'tool_calls' && table === 'rules') values = TOOL_CALLS_VALUES;
  else if (key === 'reasoning' && table === 'rules') {
    values = [{ value: 'strip', summary: 'Remove reasoning responses.' }];
  } else if ((key === 'keep_first' || key === 'keep_last') && table === 'rules') {
    values = BOUND_VALUES;
    quote = false; // already written as TOML (numbers bare, strings quoted)
  } else return [];
  return values.map((hint, i) => ({
    label: hint.value,
    kind: 'value',
    insertText: quote ? `"${hint.value}"` : hint.value,
    isSnippet: false,
    detail: hint.summary,
    // The replaced range starts at the opening quote, so match with it.
    filterText: quote ? `"${hint.value}"` : hint.value,
    replace,
    sortText: order(i),
  }));
}

/** A hover: markdown and the 1-based columns of the word it describes. */
export interface TomlHover {
  contents: string;
  startColumn: number;
  endColumn: number;
}

/** The hover at a position, or null. */
export function getTomlHover(
  lines: readonly string[],
  lineNumber: number,
  column: number,
): TomlHover | null {
  const line = lines[lineNumber - 1] ?? '';
  const wordPattern = /[A-Za-z_][\w-]*/g;
  for (const match of line.matchAll(wordPattern)) {
    const start = match.index + 1;
    const end = start + match[0].length;
    if (column < start || column > end) continue;
    const word = match[0];
    if (line.trimStart().startsWith('#')) return null;
    const table = getTableKind(lines, lineNumber);
    const isKey = new RegExp(`^\\s*${word}\\s*=`).test(line);
    const contents = isKey
      ? keyHover(word, table)
      : valueHover(word, /^\s*(compaction|tool_calls)\s*=/.exec(line)?.[1]);
    return contents ? { contents, startColumn: start, endColumn: end } : null;
  }
  return null;
}

function keyHover(word: string, table: TomlTableKind): string | null {
  switch (word) {
    case 'compaction':
      return table === 'tool' ? KEY_DOCS.compaction : null;
    case 'tool_calls':
    case 'keep_first':
    case 'keep_last':
    case 'reasoning':
      return table === 'rules' ? KEY_DOCS[word] : null;
    case 'summary':
      if (table === 'tool') return TOOL_SUMMARY_DOC;
      return table === 'rules' ? KEY_DOCS.summary : null;
    default:
      return null;
  }
}

function valueHover(word: string, key: string | undefined): string | null {
  if (!key) return null;
  const hint = HINT_VALUES.find((candidate) => candidate.value === word);
  if (!hint || (key === 'tool_calls' && hint.value === 'keep')) return null;
  return `**${hint.value}**: ${escapeMarkdownHtml(hint.summary)}`;
}

/** Monaco's markdown drops what looks like an HTML tag, so `<tool>` would vanish. */
function escapeMarkdownHtml(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
