import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import type { StreamElement } from '../types.ts';
import { parseEventsText } from './codec.ts';
import { INTERRUPTED_TOOL_CALL_CONTENT, sanitize, sanitizeWithSources } from './sanitize.ts';

const at = (second: number) => `2025-07-01 00:00:${String(second).padStart(2, '0')}.0`;
const turnStart = (s: number): StreamElement => ({ timestamp: at(s), type: 'turn_start' });
const request = (s: number, content = 'q'): StreamElement => ({
  timestamp: at(s),
  type: 'chat_request',
  content,
});
const message = (s: number): StreamElement => ({
  timestamp: at(s),
  type: 'chat_response',
  message: 'm',
});
const call = (s: number, id: string): StreamElement => ({
  timestamp: at(s),
  type: 'tool_call_request',
  id,
  name: 'tool',
  arguments: {},
});
const result = (s: number, id: string): StreamElement => ({
  timestamp: at(s),
  type: 'tool_call_response',
  id,
  content: 'ok',
  is_error: false,
});

describe('sanitize', () => {
  it('is pure and shares the elements it keeps', () => {
    const input = [request(0), call(1, 'a'), message(2), turnStart(3)];
    const snapshot = structuredClone(input);
    const output = sanitize(input);
    expect(input).toEqual(snapshot);
    expect(output[1]).toBe(input[0]);
    expect(output[2]).toBe(input[1]);
    expect(output[4]).toBe(input[2]);
  });

  it('creates elements with canonical timestamps in JP key order', () => {
    const output = sanitize([
      { timestamp: '2025-07-01T02:00:00+02:00', type: 'chat_request', content: 'q' },
      {
        timestamp: '2025-07-01 00:00:05.500',
        type: 'tool_call_request',
        id: 'a',
        name: 't',
        arguments: {},
      },
    ]);
    expect(output[0]).toEqual({ timestamp: '2025-07-01 00:00:00.0', type: 'turn_start' });
    expect(Object.keys(output[0] as object)).toEqual(['timestamp', 'type']);
    expect(output[3]).toEqual({
      timestamp: '2025-07-01 00:00:05.5',
      type: 'tool_call_response',
      id: 'a',
      content: INTERRUPTED_TOOL_CALL_CONTENT,
      is_error: true,
    });
    expect(Object.keys(output[3] as object)).toEqual([
      'timestamp',
      'type',
      'id',
      'content',
      'is_error',
    ]);
  });

  it('answers each of two unanswered requests with the same id', () => {
    const output = sanitize([turnStart(0), request(0), call(1, 'a'), call(2, 'a')]);
    expect(output.map((e) => e.type)).toEqual([
      'turn_start',
      'chat_request',
      'tool_call_request',
      'tool_call_response',
      'tool_call_request',
      'tool_call_response',
    ]);
  });

  it('collapses leading turn_starts, trims a trailing one behind metadata, and leaves metadata alone', () => {
    const unknown: StreamElement = { type: 'mystery' };
    const delta: StreamElement = { type: 'config_delta', delta: {} };
    const output = sanitize([turnStart(1), turnStart(2), unknown, request(3), turnStart(4), delta]);
    expect(output).toEqual([turnStart(2), unknown, request(3), delta]);
  });

  it('inserts the leading turn_start before the first request with its time, even behind metadata', () => {
    const delta: StreamElement = { type: 'config_delta', timestamp: at(0), delta: {} };
    const late: StreamElement = { ...message(5), timestamp: '2025-7-1 0:0:7.50' };
    // Step 1 drops the leading response; 7.3 inserts directly before the chat_request.
    expect(sanitize([delta, late, request(8)])).toEqual([
      delta,
      { timestamp: at(8), type: 'turn_start' },
      request(8),
    ]);
    // Without a chat_request it goes to position 0, with the epoch when metadata is there.
    expect(sanitize([delta, late])[0]).toEqual({
      timestamp: '1970-01-01 00:00:00.0',
      type: 'turn_start',
    });
    expect(sanitize([late, delta])[0]).toEqual({
      timestamp: '2025-07-01 00:00:07.5',
      type: 'turn_start',
    });
  });

  it('says where each element comes from: its input index, or -1 for one it created', () => {
    const input = [
      message(0), // 0: dropped by step 1
      turnStart(1), // 1: dropped by 7.2 (not the last leading turn_start)
      turnStart(2), // 2
      request(3), // 3
      call(4, 'a'), // 4, then a created response
      result(5, 'b'), // 5: dropped by step 2 (no request b)
      { type: 'config_delta', delta: {} }, // 6
      turnStart(7), // 7: dropped by step 6
    ];
    const { elements, sources } = sanitizeWithSources(input);
    expect(sources).toEqual([2, 3, 4, -1, 6]);
    expect(elements).toEqual([
      turnStart(2),
      request(3),
      call(4, 'a'),
      {
        timestamp: at(4),
        type: 'tool_call_response',
        id: 'a',
        content: INTERRUPTED_TOOL_CALL_CONTENT,
        is_error: true,
      },
      { type: 'config_delta', delta: {} },
    ]);
    sources.forEach((source, i) => {
      if (source >= 0) expect(elements[i]).toBe(input[source]);
    });
    // A created leading turn_start is -1 too, and the rest shift past it.
    expect(sanitizeWithSources([request(0), call(1, 'a'), result(2, 'a')]).sources).toEqual([
      -1, 0, 1, 2,
    ]);
  });

  it('keeps a response that comes before its request', () => {
    const input = [turnStart(0), request(0), result(1, 'a'), call(2, 'a')];
    expect(sanitize(input)).toEqual(input);
  });

  it('is idempotent with a chat_request, and not without one', () => {
    const withRequest = [
      message(0),
      turnStart(1),
      turnStart(2),
      request(3),
      call(4, 'a'),
      turnStart(5),
    ];
    const once = sanitize(withRequest);
    expect(sanitize(once)).toEqual(once);

    const withoutRequest = [turnStart(0), message(1)];
    const first = sanitize(withoutRequest);
    expect(first.map((e) => e.type)).toEqual(['turn_start', 'turn_start', 'chat_response']);
    expect(sanitize(first)).toHaveLength(first.length + 1);
  });

  it('is idempotent on every corpus conversation and keeps healthy ones as they are', () => {
    for (const { id, eventsPath } of listCorpus()) {
      const elements = parseEventsText(readFileSync(eventsPath, 'utf8'), 'auto').elements ?? [];
      const sanitized = sanitize(elements);
      expect(sanitize(sanitized), id).toEqual(sanitized);
      // Only conversation events change; every other element keeps its relative order.
      const others = (list: StreamElement[]) => list.filter((e) => e.type === 'config_delta');
      expect(others(sanitized), id).toEqual(others(elements));
      // The newer files open with a turn_start and have no pending inquiry: nothing to repair.
      if (id.startsWith('17738399468') || id.startsWith('17728322628')) {
        expect(
          sanitized.every((element, i) => element === elements[i]),
          id,
        ).toBe(true);
        expect(sanitized, id).toHaveLength(elements.length);
      }
    }
  });
});
