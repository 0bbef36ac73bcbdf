/**
 * TOML for Monaco, which has none built in: a Monarch grammar plus the
 * completion and hover providers of `toml-assist.ts`.
 */
import type { languages } from 'monaco-editor/editor';
import type { MonacoApi } from './monaco-types.ts';
import { getTomlCompletions, getTomlHover, type TomlCompletionKind } from './toml-assist.ts';

/** The language id the config editor uses. */
export const TOML_LANGUAGE_ID = 'toml';

/** A small Monarch grammar: comments, table headers, keys, strings, numbers, dates, booleans. */
const TOML_GRAMMAR: languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.toml',
  brackets: [
    { open: '[', close: ']', token: 'delimiter.bracket' },
    { open: '{', close: '}', token: 'delimiter.curly' },
  ],
  tokenizer: {
    root: [
      { include: '@whitespace' },
      [/^\s*\[\[[^\]]*\]\]/, 'type.identifier'],
      [/^\s*\[[^\]]*\]/, 'type.identifier'],
      [/[A-Za-z0-9_-]+(?=\s*(\.\s*[A-Za-z0-9_"'-]+\s*)*=)/, 'key'],
      [/"(?=[^"]*"\s*(\.|=))/, { token: 'key', next: '@keyString' }],
      { include: '@values' },
    ],
    values: [
      [/"""/, { token: 'string', next: '@multiString' }],
      [/'''/, { token: 'string', next: '@multiLiteral' }],
      [/"/, { token: 'string', next: '@string' }],
      [/'[^']*'/, 'string'],
      [/\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?)?/, 'number'],
      [/[+-]?(inf|nan)\b/, 'number'],
      [/[+-]?0x[0-9a-fA-F_]+/, 'number.hex'],
      [/[+-]?\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?/, 'number'],
      [/\b(true|false)\b/, 'keyword'],
      [/[=,.]/, 'delimiter'],
      [/[{}[\]]/, '@brackets'],
    ],
    whitespace: [
      [/[ \t\r\n]+/, ''],
      [/#.*$/, 'comment'],
    ],
    string: [
      [/[^\\"]+/, 'string'],
      [/\\./, 'string.escape'],
      [/"/, { token: 'string', next: '@pop' }],
    ],
    keyString: [
      [/[^\\"]+/, 'key'],
      [/\\./, 'key'],
      [/"/, { token: 'key', next: '@pop' }],
    ],
    multiString: [
      [/[^\\"]+/, 'string'],
      [/\\./, 'string.escape'],
      [/"""/, { token: 'string', next: '@pop' }],
      [/"/, 'string'],
    ],
    multiLiteral: [
      [/[^']+/, 'string'],
      [/'''/, { token: 'string', next: '@pop' }],
      [/'/, 'string'],
    ],
  },
};

const CONFIGURATION: languages.LanguageConfiguration = {
  comments: { lineComment: '#' },
  brackets: [
    ['[', ']'],
    ['{', '}'],
  ],
  autoClosingPairs: [
    { open: '[', close: ']' },
    { open: '{', close: '}' },
    { open: '"', close: '"', notIn: ['string', 'comment'] },
    { open: "'", close: "'", notIn: ['string', 'comment'] },
  ],
  surroundingPairs: [
    { open: '[', close: ']' },
    { open: '{', close: '}' },
    { open: '"', close: '"' },
    { open: "'", close: "'" },
  ],
};

/** What the providers read from the app. */
export interface TomlLanguageOptions {
  /** Tool names to offer after `[conversation.tools.`, read at each request. */
  getToolNames: () => readonly string[];
}

let registered = false;

/**
 * Registers TOML once per page (Monaco's registries are global; editors
 * mount more than once under React's StrictMode).
 */
export function registerTomlLanguage(monaco: MonacoApi, options: TomlLanguageOptions): void {
  if (registered) return;
  registered = true;
  const { languages: lang } = monaco;
  lang.register({ id: TOML_LANGUAGE_ID, extensions: ['.toml'], aliases: ['TOML'] });
  lang.setMonarchTokensProvider(TOML_LANGUAGE_ID, TOML_GRAMMAR);
  lang.setLanguageConfiguration(TOML_LANGUAGE_ID, CONFIGURATION);

  const kinds: Record<TomlCompletionKind, languages.CompletionItemKind> = {
    table: lang.CompletionItemKind.Module,
    key: lang.CompletionItemKind.Property,
    value: lang.CompletionItemKind.EnumMember,
    tool: lang.CompletionItemKind.Function,
  };

  lang.registerCompletionItemProvider(TOML_LANGUAGE_ID, {
    triggerCharacters: ['[', '.', '"', '=', ' '],
    provideCompletionItems(model, position) {
      const lines = model.getLinesContent();
      const items = getTomlCompletions(
        lines,
        position.lineNumber,
        position.column,
        options.getToolNames(),
      );
      return {
        suggestions: items.map((item) => ({
          label: item.label,
          kind: kinds[item.kind],
          insertText: item.insertText,
          insertTextRules: item.isSnippet
            ? lang.CompletionItemInsertTextRule.InsertAsSnippet
            : undefined,
          detail: item.detail,
          documentation: item.documentation ? { value: item.documentation } : undefined,
          sortText: item.sortText,
          filterText: item.filterText ?? item.label,
          range: {
            startLineNumber: position.lineNumber,
            endLineNumber: position.lineNumber,
            startColumn: item.replace.startColumn,
            endColumn: item.replace.endColumn,
          },
        })),
      };
    },
  });

  lang.registerHoverProvider(TOML_LANGUAGE_ID, {
    provideHover(model, position) {
      const hover = getTomlHover(model.getLinesContent(), position.lineNumber, position.column);
      if (!hover) return null;
      return {
        contents: [{ value: hover.contents }],
        range: {
          startLineNumber: position.lineNumber,
          endLineNumber: position.lineNumber,
          startColumn: hover.startColumn,
          endColumn: hover.endColumn,
        },
      };
    },
  });
}
