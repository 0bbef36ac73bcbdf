import { describe, expect, it } from 'vitest';
import { makeResult } from '../test/fake-engine.ts';
import type { AppState } from './app-state.ts';
import { selectInput, selectProblems, selectStatusMessage, selectToolNames } from './selectors.ts';
import { initialState } from './store.ts';

function state(patch: Partial<AppState>): AppState {
  return { ...initialState, ...patch };
}

describe('selectors', () => {
  it('formats the headline saving with separators and one decimal', () => {
    const s = state({ status: 'done', result: makeResult({ before: 35_780, after: 23_435 }) });
    expect(selectStatusMessage(s)).toBe(
      'Saved 12,345 tokens (34.5%) of the 35,780 tokens the next request would carry.',
    );
  });

  it('says a negative saving as what compaction costs, not "Saved -4" (issue 24)', () => {
    const s = state({ status: 'done', result: makeResult({ before: 100, after: 104 }) });
    expect(selectStatusMessage(s)).toBe(
      'Compaction costs 4 more tokens (4.0% more) on top of the 100 tokens the next request would carry.',
    );
  });

  it('returns the same objects while their inputs are unchanged', () => {
    const s = state({});
    expect(selectInput(s)).toBe(selectInput({ ...s, selectedTool: 'x' }));
    expect(selectProblems(s)).toBe(selectProblems({ ...s, theme: 'dark' }));
    expect(selectToolNames(s)).toBe(selectToolNames({ ...s }));
  });

  it('lists config problems before stream problems, tagged with their editor', () => {
    const s = state({
      configDiagnostics: [{ line: 1, column: 2, severity: 'error', message: 'a' }],
      streamDiagnostics: [{ line: 3, column: 4, severity: 'warning', message: 'b' }],
    });
    expect(selectProblems(s).map((p) => `${p.source} ${p.line}:${p.column}`)).toEqual([
      'config 1:2',
      'stream 3:4',
    ]);
  });
});
