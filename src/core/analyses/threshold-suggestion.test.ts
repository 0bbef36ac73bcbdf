import { describe, expect, it } from 'vitest';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import type { StreamElement } from '../types.ts';
import { findSizeSplit, suggestThresholds } from './threshold-suggestion.ts';

const T = '2026-09-01 00:00:00.0';

/** One turn: fs_read_file answers 6 × 100 bytes and 2 × 8,000 bytes; grep 6 × 50 bytes. */
function stream(): StreamElement[] {
  const elements: StreamElement[] = [
    { type: 'turn_start', timestamp: T },
    { type: 'chat_request', timestamp: T, content: 'read' },
  ] as StreamElement[];
  const sizes = [100, 8000, 100, 100, 100, 8000, 100, 100];
  sizes.forEach((size, i) => {
    elements.push(
      { type: 'tool_call_request', timestamp: T, id: `f${i}`, name: 'fs_read_file', arguments: {} },
      {
        type: 'tool_call_response',
        timestamp: T,
        id: `f${i}`,
        content: 'x'.repeat(size),
        is_error: false,
      },
    );
  });
  for (let i = 0; i < 6; i++) {
    elements.push(
      { type: 'tool_call_request', timestamp: T, id: `g${i}`, name: 'grep', arguments: {} },
      {
        type: 'tool_call_response',
        timestamp: T,
        id: `g${i}`,
        content: 'y'.repeat(50),
        is_error: false,
      },
    );
  }
  return elements;
}

const CONFIG =
  '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\nreasoning = "strip"\n';

describe('findSizeSplit', () => {
  it('finds a few large among many small, with a round threshold between them', () => {
    // Sorted: 100 ×6 | 8,000 ×2; at most a quarter (2 of 8) may be large; 8,000 / 100 ≥ 4.
    expect(findSizeSplit([100, 8000, 100, 100, 100, 8000, 100, 100])).toEqual({
      over: 1024,
      large: 2,
    });
    // 1KB would catch the 1,500-byte ones: the threshold is the next power of two above them.
    expect(findSizeSplit([1500, 1500, 1500, 1500, 1500, 1500, 1500, 40_000])).toEqual({
      over: 2048,
      large: 1,
    });
  });

  it('finds none with too few calls, sizes alike, or too many large ones', () => {
    expect(findSizeSplit([100, 100, 100, 8000])).toBeUndefined();
    expect(findSizeSplit([100, 120, 150, 180, 200, 260])).toBeUndefined();
    // Half of them large: not "a few".
    expect(findSizeSplit([100, 100, 100, 8000, 8000, 8000])).toBeUndefined();
  });
});

describe('suggestThresholds', () => {
  it('suggests over = "1KB" for fs_read_file with the saving measured, and nothing for grep', async () => {
    const counter = await loadTokenCounter('chars');
    const config = parseConfigToml(CONFIG);
    const [suggestion, ...others] = suggestThresholds([stream()], config, {
      now: null,
      view: 'sanitized',
      counter,
    });
    expect(others).toEqual([]);
    expect(suggestion).toMatchObject({
      tool: 'fs_read_file',
      over: '1KB',
      toolCalls: 'tool_calls = { policy = "strip-responses", over = "1KB" }',
      large: 2,
      small: 6,
    });
    // By hand (chars/4): each 8,000-byte response is 2,000 tokens and becomes the
    // 33-character line "[compacted] fs_read_file: success", 9 tokens; the 100-byte ones stay.
    expect(suggestion?.expectedSaved.tokens).toBe(2 * (2000 - 9));
  });

  it('suggests nothing under base 2026-08, where over does not exist', async () => {
    const counter = await loadTokenCounter('chars');
    const config = parseConfigToml(CONFIG, '2026-08');
    expect(
      suggestThresholds([stream()], config, {
        now: null,
        view: 'sanitized',
        counter,
        readings: { ...DEFAULT_READINGS, base: '2026-08' },
      }),
    ).toEqual([]);
  });
});
