import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { parseEventsText } from '../stream/codec.ts';
import type { StreamElement } from '../types.ts';
import {
  buildToolNameMap,
  project,
  providerView,
  removeCompactions,
  SUMMARY_REQUEST_CONTENT,
} from './projection.ts';

const T0 = '2025-07-01 00:00:00.0';
const T1 = '2025-07-01 01:00:00.0';
const LATER = '2025-07-01 02:00:00.0';

/** Two turns, each with reasoning and one tool call, then `extra` elements. */
function stream(...extra: StreamElement[]): StreamElement[] {
  return [
    { timestamp: T0, type: 'turn_start' },
    { timestamp: T0, type: 'chat_request', content: 'q0' },
    { timestamp: T0, type: 'chat_response', reasoning: 'r0' },
    { timestamp: T0, type: 'tool_call_request', id: 'a', name: 'search', arguments: { q: 'x' } },
    { timestamp: T0, type: 'tool_call_response', id: 'a', content: 'found', is_error: false },
    { timestamp: T1, type: 'turn_start' },
    { timestamp: T1, type: 'chat_request', content: 'q1' },
    { timestamp: T1, type: 'tool_call_request', id: 'b', name: 'fs', arguments: { p: 'y' } },
    { timestamp: T1, type: 'tool_call_response', id: 'b', content: 'done', is_error: true },
    ...extra,
  ];
}

function corpusStream(prefix: string): StreamElement[] {
  const entry = listCorpus().find((c) => c.id.startsWith(prefix));
  return parseEventsText(readFileSync(entry?.eventsPath ?? '', 'utf8'), 'auto').elements ?? [];
}

describe('project', () => {
  it('returns every corpus stream unchanged, sharing its elements (step 0)', () => {
    for (const { id, eventsPath } of listCorpus()) {
      const elements = parseEventsText(readFileSync(eventsPath, 'utf8'), 'auto').elements ?? [];
      const projection = project(elements);
      expect(projection.elements, id).toHaveLength(elements.length);
      expect(
        projection.elements.every((element, i) => element === elements[i]),
        id,
      ).toBe(true);
      expect(
        projection.sources.every((s) => s.fate === 'kept'),
        id,
      ).toBe(true);
      expect(
        projection.turnOrigins.every((o, i) => 'kept' in o && o.kept === i),
        id,
      ).toBe(true);
    }
  });

  it('records which compaction won each slot and why each element changed', () => {
    const input = stream(
      {
        type: 'compaction',
        timestamp: T1,
        from_turn: 0,
        to_turn: 1,
        reasoning: 'strip',
        tool_calls: { policy: 'omit' },
      },
      {
        type: 'compaction',
        timestamp: LATER,
        from_turn: 1,
        to_turn: 5,
        tool_calls: { policy: 'strip', request: true, response: true },
        tool_overrides: { fs: { policy: 'strip', request: false, response: true } },
      },
    );
    const projection = project(input);
    expect(projection.compactionIndices).toEqual([9, 10]);
    expect(projection.turns).toEqual([
      {
        turn: 0,
        summary: null,
        reasoning: { ordinal: 0, index: 9 },
        toolCalls: { ordinal: 0, index: 9, policy: { policy: 'omit' }, overrides: {} },
      },
      {
        turn: 1,
        summary: null,
        reasoning: { ordinal: 0, index: 9 },
        toolCalls: {
          ordinal: 1,
          index: 10,
          policy: { policy: 'strip', request: true, response: true },
          overrides: { fs: { policy: 'strip', request: false, response: true } },
        },
      },
    ]);
    expect(projection.sources[2]).toEqual({
      turn: 0,
      fate: 'dropped',
      reason: 'reasoning',
      projectedIndex: null,
    });
    expect(projection.sources[3]).toMatchObject({
      fate: 'dropped',
      reason: 'tool_calls',
      tool: {
        toolName: 'search',
        policy: { policy: 'omit' },
        source: 'tool_calls',
        compaction: { ordinal: 0, index: 9 },
      },
    });
    // The override keeps the request and strips the response, which keeps its error status.
    expect(projection.sources[7]).toMatchObject({
      fate: 'kept',
      tool: { toolName: 'fs', source: 'tool_overrides' },
    });
    expect(projection.sources[8]).toMatchObject({
      fate: 'modified',
      reason: 'tool_calls',
      projectedIndex: 5,
    });
    expect(projection.elements[5]).toEqual({
      timestamp: T1,
      type: 'tool_call_response',
      id: 'b',
      content: '[compacted] fs: error',
      is_error: true,
    });
    expect(projection.sources[9]).toEqual({
      turn: 1,
      fate: 'dropped',
      reason: 'compaction',
      projectedIndex: null,
    });
    expect(projection.projected.map((p) => p.sourceIndex)).toEqual([0, 1, 5, 6, 7, 8]);
    expect(projection.projected.map((p) => p.projectedTurn)).toEqual([0, 0, 1, 1, 1, 1]);
    // Kept elements are the input objects; the modified one is a copy with the same key order.
    expect(projection.elements[4]).toBe(input[7]);
    expect(Object.keys(projection.elements[5] as object)).toEqual(Object.keys(input[8] as object));
  });

  it('injects a summary as its own turn and traces it to its run', () => {
    const input = stream({
      type: 'compaction',
      timestamp: LATER,
      from_turn: 1,
      to_turn: 1,
      summary: { summary: 'S' },
    });
    const projection = project(input);
    expect(projection.elements.slice(5)).toEqual([
      { timestamp: T1, type: 'turn_start' },
      { timestamp: T1, type: 'chat_request', content: SUMMARY_REQUEST_CONTENT },
      { timestamp: T1, type: 'chat_response', message: 'S' },
    ]);
    expect(Object.keys(projection.elements[7] as object)).toEqual(['timestamp', 'type', 'message']);
    expect(projection.projected.slice(5)).toEqual([
      { sourceIndex: null, rawTurn: 1, projectedTurn: 1 },
      { sourceIndex: null, rawTurn: 1, projectedTurn: 1 },
      { sourceIndex: null, rawTurn: 1, projectedTurn: 1 },
    ]);
    expect(projection.turnOrigins).toEqual([{ kept: 0 }, { summary: { from: 1, to: 1 } }]);
    expect(projection.turns[1]?.summary).toEqual({
      ordinal: 0,
      index: 9,
      text: 'S',
      run: { from: 1, to: 1 },
    });
    expect(projection.sources.slice(5, 9).every((s) => s.reason === 'summary')).toBe(true);
  });

  it('writes injected timestamps in canonical form', () => {
    const input: StreamElement[] = [
      { timestamp: '2025-07-01T00:00:00.500Z', type: 'turn_start' },
      { timestamp: '2025-07-01T00:00:00.500Z', type: 'chat_request', content: 'q' },
      { type: 'compaction', timestamp: LATER, from_turn: 0, to_turn: 0, summary: { summary: 'S' } },
    ];
    expect(project(input).elements[0]).toEqual({
      timestamp: '2025-07-01 00:00:00.5',
      type: 'turn_start',
    });
  });

  it('keeps metadata in place inside a summarized implicit turn 0, injecting at its first event', () => {
    const input: StreamElement[] = [
      { type: 'mystery', note: 'unknown before any event' },
      { timestamp: '2025-7-1 0:0:3.50', type: 'chat_request', content: 'implicit turn 0' },
      { type: 'config_delta', timestamp: T0, delta: {} },
      { timestamp: T0, type: 'chat_response', message: 'a' },
      { timestamp: T1, type: 'turn_start' },
      { timestamp: T1, type: 'chat_request', content: 'q1' },
      { type: 'compaction', timestamp: LATER, from_turn: 0, to_turn: 0, summary: { summary: 'S' } },
    ];
    const projection = project(input);
    expect(projection.elements).toEqual([
      input[0],
      { timestamp: '2025-07-01 00:00:03.5', type: 'turn_start' },
      {
        timestamp: '2025-07-01 00:00:03.5',
        type: 'chat_request',
        content: SUMMARY_REQUEST_CONTENT,
      },
      { timestamp: '2025-07-01 00:00:03.5', type: 'chat_response', message: 'S' },
      input[2],
      input[4],
      input[5],
    ]);
    expect(projection.turnOrigins).toEqual([{ summary: { from: 0, to: 0 } }, { kept: 1 }]);
  });

  it('clamps a range at the last turn counting the compactions themselves, and ignores inverted ones', () => {
    // The trailing turn_start opens turn 2, which holds the compactions: to_turn 9 reaches it.
    const input = stream(
      { timestamp: LATER, type: 'turn_start' },
      { type: 'compaction', timestamp: LATER, from_turn: 2, to_turn: 9, summary: { summary: 'S' } },
      {
        type: 'compaction',
        timestamp: LATER,
        from_turn: 1,
        to_turn: 0,
        tool_calls: { policy: 'omit' },
      },
    );
    const projection = project(input);
    expect(projection.turns.map((t) => t.summary?.run ?? null)).toEqual([
      null,
      null,
      { from: 2, to: 2 },
    ]);
    expect(projection.turns.every((t) => t.toolCalls === null)).toBe(true);
    expect(projection.turnOrigins).toEqual([
      { kept: 0 },
      { kept: 1 },
      { summary: { from: 2, to: 2 } },
    ]);
  });

  it('applies only the new compaction when re-projecting a projected stream', () => {
    const first = project(
      stream({
        type: 'compaction',
        timestamp: LATER,
        from_turn: 0,
        to_turn: 0,
        reasoning: 'strip',
      }),
    );
    expect(project(first.elements).elements).toEqual(first.elements);
  });

  it('projects the largest corpus file, sharing the elements it keeps', () => {
    const elements = corpusStream('17738399468');
    const input: StreamElement[] = [
      ...elements,
      {
        type: 'compaction',
        timestamp: '2030-01-01 00:00:00.0',
        from_turn: 1,
        to_turn: 9,
        reasoning: 'strip',
        tool_calls: { policy: 'strip', request: true, response: true },
      },
      {
        type: 'compaction',
        timestamp: '2030-01-01 00:00:00.0',
        from_turn: 3,
        to_turn: 4,
        summary: { summary: 'S' },
      },
    ];
    const projection = project(input);
    expect(projection.turnOrigins).toContainEqual({ summary: { from: 3, to: 4 } });
    // Elements outside the compacted range are shared with the input.
    const lastKept = projection.sources[elements.length - 1];
    expect(lastKept?.fate).toBe('kept');
  });
});

describe('helpers', () => {
  it('providerView keeps only what a provider sees', () => {
    const input = stream(
      { type: 'config_delta', timestamp: T1, delta: {} },
      {
        timestamp: T1,
        type: 'inquiry_request',
        id: 'i',
        source: { source: 'user' },
        question: { text: '?', answer_type: { type: 'text' } },
      },
      { type: 'mystery' },
    );
    expect(providerView(input).map((e) => e.type)).toEqual([
      'chat_request',
      'chat_response',
      'tool_call_request',
      'tool_call_response',
      'chat_request',
      'tool_call_request',
      'tool_call_response',
    ]);
  });

  it('removeCompactions drops exactly the compactions', () => {
    const input = stream({
      type: 'compaction',
      timestamp: LATER,
      from_turn: 0,
      to_turn: 0,
      reasoning: 'strip',
    });
    expect(removeCompactions(input)).toEqual(stream());
  });

  it('buildToolNameMap lets a later request with the same id win', () => {
    const input = stream({
      timestamp: T1,
      type: 'tool_call_request',
      id: 'a',
      name: 'other',
      arguments: {},
    });
    expect(buildToolNameMap(input)).toEqual(
      new Map([
        ['a', 'other'],
        ['b', 'fs'],
      ]),
    );
  });
});
