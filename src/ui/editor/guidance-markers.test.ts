import type { editor } from 'monaco-editor/editor';
import { describe, expect, it } from 'vitest';
import type { GuidanceDiagnostic } from '../../core/types.ts';
import { getGuidanceActions } from './guidance-markers.ts';

const alias: GuidanceDiagnostic = {
  line: 4,
  column: 14,
  endLine: 4,
  endColumn: 17,
  severity: 'info',
  message: '"s" is an alias of "strip" for tool_calls; JP writes it back as "strip".',
  code: 'guidance/alias',
  fix: {
    title: 'Write "strip"',
    edits: [{ line: 4, column: 14, endLine: 4, endColumn: 17, text: '"strip"' }],
  },
};

function markerOf(diagnostic: GuidanceDiagnostic): editor.IMarkerData {
  return {
    severity: 2,
    message: diagnostic.message,
    startLineNumber: diagnostic.line,
    startColumn: diagnostic.column,
    endLineNumber: diagnostic.endLine ?? diagnostic.line,
    endColumn: diagnostic.endColumn ?? diagnostic.column,
    code: diagnostic.code ?? '',
  };
}

describe('getGuidanceActions', () => {
  const guidance = { configText: 'the text', diagnostics: [alias] };

  it("offers a marker's quick fix as Monaco text edits", () => {
    expect(getGuidanceActions(guidance, 'the text', [markerOf(alias)])).toEqual([
      {
        title: 'Write "strip"',
        marker: markerOf(alias),
        edits: [
          {
            range: { startLineNumber: 4, startColumn: 14, endLineNumber: 4, endColumn: 17 },
            text: '"strip"',
          },
        ],
      },
    ]);
  });

  it('offers nothing for guidance about another text, or for other markers', () => {
    expect(getGuidanceActions(guidance, 'an edited text', [markerOf(alias)])).toEqual([]);
    const error = { ...markerOf(alias), code: 'config/invalid-hint' };
    expect(getGuidanceActions(guidance, 'the text', [error])).toEqual([]);
    const { fix: _, ...withoutFix } = alias;
    expect(
      getGuidanceActions({ configText: 'the text', diagnostics: [withoutFix] }, 'the text', [
        markerOf(alias),
      ]),
    ).toEqual([]);
  });

  it("offers a config error's quick fix too, not only guidance's", () => {
    const single: GuidanceDiagnostic = {
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 32,
      severity: 'error',
      message: 'did you mean [[conversation.compaction.rules]]?',
      code: 'config/rules-not-array',
      fix: {
        title: 'Change to [[conversation.compaction.rules]]',
        edits: [
          {
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 32,
            text: '[[conversation.compaction.rules]]',
          },
        ],
      },
    };
    const actions = getGuidanceActions(
      { configText: 'the text', diagnostics: [single] },
      'the text',
      [markerOf(single)],
    );
    expect(actions.map((action) => action.title)).toEqual([
      'Change to [[conversation.compaction.rules]]',
    ]);
  });
});
