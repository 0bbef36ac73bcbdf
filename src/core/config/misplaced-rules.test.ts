import { describe, expect, it } from 'vitest';
import type { Diagnostic, GuidanceEdit } from '../types.ts';
import { parseConfigToml } from './config.ts';

/** The 0-based offset of a 1-based line and column, counted by hand over `\n`. */
function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += (lines[i] as string).length + 1;
  return offset + column - 1;
}

/** The text a diagnostic marks. */
function marked(text: string, d: Diagnostic): string {
  return text.slice(
    offsetOf(text, d.line, d.column),
    offsetOf(text, d.endLine ?? d.line, d.endColumn ?? d.column + 1),
  );
}

/** Applies edits as an editor does: from the last to the first. */
function applyEdits(text: string, edits: readonly GuidanceEdit[]): string {
  const placed = edits.map((edit) => ({
    start: offsetOf(text, edit.line, edit.column),
    end: offsetOf(text, edit.endLine, edit.endColumn),
    text: edit.text,
  }));
  placed.sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of placed) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function onlyError(text: string): Diagnostic {
  const { diagnostics } = parseConfigToml(text);
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0] as Diagnostic;
}

describe('[conversation.compaction.rules] with single brackets', () => {
  const text = '# mine\n[conversation.compaction.rules]\nkeep_last = 1\ntool_calls = "strip"\n';

  it('is an error on the header, saying to double the brackets', () => {
    const error = onlyError(text);
    expect(error).toMatchObject({ severity: 'error', code: 'config/rules-not-array', line: 2 });
    expect(marked(text, error)).toBe('[conversation.compaction.rules]');
    expect(error.message).toContain('did you mean [[conversation.compaction.rules]]?');
  });

  it('has a quick fix that gives the rule the user meant', () => {
    const fixed = applyEdits(text, onlyError(text).fix?.edits ?? []);
    expect(fixed).toBe(
      '# mine\n[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n',
    );
    const { config, diagnostics } = parseConfigToml(fixed);
    expect(diagnostics).toEqual([]);
    expect(config.rules?.rules).toHaveLength(1);
    expect(config.rules?.rules[0]).toMatchObject({ keep_last: { turns: 1 }, tool_calls: 'strip' });
  });

  it('leaves the merge-table form alone', () => {
    const merge =
      '[conversation.compaction.rules]\nstrategy = "replace"\nvalue = [{ keep_last = 2 }]\n';
    expect(parseConfigToml(merge).diagnostics).toEqual([]);
  });
});

describe('a conversation.… dotted key inside a rule', () => {
  it('is an error on the key, with a fix that moves it to its own table', () => {
    const text =
      '[[conversation.compaction.rules]]\nkeep_last = 1\nconversation.tools.x.compaction = "omit"\n';
    const error = onlyError(text);
    expect(error).toMatchObject({ severity: 'error', code: 'config/key-inside-rule', line: 3 });
    expect(marked(text, error)).toBe('conversation.tools.x.compaction');
    expect(error.message).toContain('[conversation.tools.x]');
    const fixed = applyEdits(text, error.fix?.edits ?? []);
    expect(fixed).toBe(
      '[[conversation.compaction.rules]]\nkeep_last = 1\n[conversation.tools.x]\ncompaction = "omit"\n',
    );
    const { config, diagnostics } = parseConfigToml(fixed);
    expect(diagnostics).toEqual([]);
    expect(config.tools.x).toEqual({ compaction: 'omit' });
  });

  it('reports each key, in the second rule too, and the fix keeps the rest of the text', () => {
    const text =
      '[[conversation.compaction.rules]]\nkeep_last = 1\n[[conversation.compaction.rules]]\n' +
      'keep_first = 1\n  conversation.tools.a.compaction = "keep" # a\nkeep_last = 2\n';
    const error = onlyError(text);
    expect(error.message).toContain('rule 2 of conversation.compaction.rules');
    const fixed = applyEdits(text, error.fix?.edits ?? []);
    expect(fixed).toBe(
      '[[conversation.compaction.rules]]\nkeep_last = 1\n[[conversation.compaction.rules]]\n' +
        'keep_first = 1\nkeep_last = 2\n\n[conversation.tools.a]\ncompaction = "keep"\n',
    );
    const { config, diagnostics } = parseConfigToml(fixed);
    expect(diagnostics).toEqual([]);
    expect(config.tools.a).toEqual({ compaction: 'keep' });
    expect(config.rules?.rules).toHaveLength(2);
  });

  it('offers no edit when the table is already written (a second header is a TOML error)', () => {
    const text =
      '[conversation.tools.x]\nenable = true\n[[conversation.compaction.rules]]\nkeep_last = 1\n' +
      'conversation.tools.x.compaction = "omit"\n';
    const error = onlyError(text);
    expect(error.code).toBe('config/key-inside-rule');
    expect(error.fix).toBeUndefined();
  });
});
