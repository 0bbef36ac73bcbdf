/**
 * What the model drew on later, counted by hand on a small conversation: a
 * result the model later quotes, one whose path it later names in a call,
 * and one it never refers to again.
 */
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { readCorpusStream } from '../../test/corpus.ts';
import { cheapestRemovesDrawnOn } from '../replay/presentation.ts';
import type { ToolWhatIf } from '../replay/types.ts';
import type { StreamElement } from '../types.ts';
import { getClues, getQuotableLines, measureDrawnOnLater } from './drawn-on.ts';

const at = '2026-03-01 10:00:00.0';
const call = (id: string, name: string, args: Record<string, string>): StreamElement => ({
  timestamp: at,
  type: 'tool_call_request',
  id,
  name,
  arguments: args,
});
const result = (id: string, content: string): StreamElement => ({
  timestamp: at,
  type: 'tool_call_response',
  id,
  content,
  is_error: false,
});
const says = (message: string): StreamElement => ({
  timestamp: at,
  type: 'chat_response',
  message,
});

const STREAM: StreamElement[] = [
  { timestamp: at, type: 'turn_start' },
  { timestamp: at, type: 'chat_request', content: 'Why does the parser fail?' },
  // 1. Quoted later: the model repeats the line the result showed.
  call('c1', 'read', { path: 'parser' }),
  result('c1', 'line 1\n  if (depth > limit) throw new Error("too deep");\nline 3'),
  // 2. Named later by path: grep finds a file, the model then reads it.
  call('c2', 'grep', { pattern: 'limit' }),
  result('c2', 'lib/nesting/guard.ts:12: const limit = 64'),
  // 3. Never referred to again.
  call('c3', 'grep', { pattern: 'depth' }),
  result('c3', 'docs/old/notes.md:3: depth was 32 once'),
  says('It throws here: if (depth > limit) throw new Error("too deep");'),
  call('c4', 'read', { path: 'lib/nesting/guard.ts' }),
  result('c4', 'export const limit = 64;'),
  says('The limit is 64.'),
];

describe('drawn on later', () => {
  it('counts, per tool, the results the model quoted or named afterwards', () => {
    const measured = measureDrawnOnLater(STREAM);
    // read: c1 (quoted) and c4 (nothing of it used after): 1 of 2.
    expect(measured.get('read')).toEqual({ results: 2, drawn: 1, ids: ['c1'] });
    // grep: c2 (its path read next) and c3 (never again): 1 of 2.
    expect(measured.get('grep')).toEqual({ results: 2, drawn: 1, ids: ['c2'] });
  });

  it('does not count a clue the model wrote before the result brought it', () => {
    const stream: StreamElement[] = [
      call('c1', 'read', { path: 'src/app.ts' }),
      result('c1', 'src/app.ts: 10 lines'),
      says('src/app.ts is short.'),
    ];
    expect(measureDrawnOnLater(stream).get('read')).toEqual({ results: 1, drawn: 0, ids: [] });
  });

  it('finds paths and identifiers as clues, and long lines as quotable, not short words', () => {
    const text = 'see lib/a.ts and parse_config or parseConfig; ok\nshort';
    expect([...getClues(text)].sort()).toEqual(['lib/a.ts', 'parseConfig', 'parse_config'].sort());
    expect(getQuotableLines(text)).toEqual(['see lib/a.ts and parse_config or parseConfig; ok']);
  });
});

describe('drawn on later, on every corpus conversation', () => {
  it('counts every result of a called tool once, and draws on no more than there are', () => {
    for (const entry of listCorpus()) {
      const elements = readCorpusStream(entry.eventsPath);
      const measured = measureDrawnOnLater(elements);
      // Counted independently: the responses whose id a call of the stream carries.
      const called = new Set(
        elements.flatMap((e) =>
          e.type === 'tool_call_request' && typeof e.id === 'string' ? [e.id] : [],
        ),
      );
      const responses = elements.filter(
        (e) => e.type === 'tool_call_response' && typeof e.id === 'string' && called.has(e.id),
      ).length;
      const tools = [...measured.values()];
      expect(
        tools.reduce((sum, tool) => sum + tool.results, 0),
        entry.id,
      ).toBe(responses);
      for (const tool of tools) {
        expect(tool.drawn).toBeLessThanOrEqual(tool.results);
        expect(tool.ids.length).toBe(tool.drawn);
      }
    }
  });
});

describe('the warning on a cheapest choice', () => {
  const tool = (cheapest: ToolWhatIf['cheapest'], hint: ToolWhatIf['hint'], drawn: number) =>
    ({
      name: 'grep',
      hint,
      cheapest,
      what_if_cost: {} as ToolWhatIf['what_if_cost'],
      drawn_on_later: { results: 4, drawn, ids: [] },
    }) satisfies ToolWhatIf;

  it('is given when the cheapest changes the hint to one that removes results drawn on later', () => {
    expect(cheapestRemovesDrawnOn(tool('omit', 'keep', 2))).toBe(true);
    expect(cheapestRemovesDrawnOn(tool('strip-responses', 'keep', 1))).toBe(true);
    expect(cheapestRemovesDrawnOn(tool('inherit', 'keep', 1))).toBe(true);
  });

  it('is not given for a choice that keeps results, for the hint in force, or when nothing was drawn on', () => {
    expect(cheapestRemovesDrawnOn(tool('strip-requests', 'keep', 2))).toBe(false);
    expect(cheapestRemovesDrawnOn(tool('keep', 'omit', 2))).toBe(false);
    expect(cheapestRemovesDrawnOn(tool('omit', 'omit', 2))).toBe(false);
    expect(cheapestRemovesDrawnOn(tool('omit', 'keep', 0))).toBe(false);
  });
});
