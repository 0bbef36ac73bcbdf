/**
 * The explain pane's sentences for JP main (15.3): when a threshold spared
 * an item, when it reached one, and how positional pairing named a
 * response. Figures are hand counts: "x" × 812 is 812 bytes, "x" × 4096 is
 * 4.0 KB, and 1KB is 1,024 bytes (15.2).
 */
import { describe, expect, it } from 'vitest';
import { runWithExtras } from '../analyses/extras.ts';
import { createPlaygroundSession } from '../playground/playground.ts';
import type { PlaygroundInput } from '../playground/types.ts';

const T = '2026-09-01 00:00:00.0';
const STREAM = JSON.stringify([
  { type: 'turn_start', timestamp: T },
  { type: 'chat_request', timestamp: T, content: 'read both' },
  { type: 'tool_call_request', timestamp: T, id: 'a', name: 'fs_read_file', arguments: {} },
  { type: 'tool_call_response', timestamp: T, id: 'a', content: 'x'.repeat(4096), is_error: false },
  { type: 'tool_call_request', timestamp: T, id: 'b', name: 'fs_read_file', arguments: {} },
  { type: 'tool_call_response', timestamp: T, id: 'b', content: 'x'.repeat(812), is_error: false },
  { type: 'tool_call_response', timestamp: T, id: 'z', content: 'late', is_error: false },
  {
    type: 'compaction',
    timestamp: '2026-09-01 01:00:00.0',
    from_turn: 0,
    to_turn: 0,
    tool_calls: { policy: 'strip', request: false, response: true, over: '1KB' },
  },
]);

function input(readings: PlaygroundInput['readings'] = {}): PlaygroundInput {
  return {
    // A rule with an empty range: only the stored compaction acts.
    configText:
      '[[conversation.compaction.rules]]\nkeep_first = 100\nkeep_last = 0\nreasoning = "strip"\n',
    streamText: STREAM,
    encoding: 'plain',
    tokenizer: 'chars',
    now: null,
    view: 'bare',
    readings,
  };
}

async function sentences(readings?: PlaygroundInput['readings']) {
  const result = await runWithExtras(createPlaygroundSession(), input(readings));
  expect(result.status).toBe('ok');
  return result.before
    .filter((entry) => entry.explanation !== undefined)
    .map((entry) => entry.explanation?.sentence ?? '');
}

describe('explain under JP main (15.3)', () => {
  it('says when a threshold spared a response and when it reached one', async () => {
    const said = await sentences();
    expect(said.some((s) => s.includes('kept: 812 B is not over 1 KB'))).toBe(true);
    expect(said.some((s) => s.includes('(4.0 KB is over 1 KB)'))).toBe(true);
  });

  it('says which request positional pairing named a response with, and when none', async () => {
    const said = await sentences();
    expect(
      said.some((s) =>
        s.includes(
          'pairs, by position in its turn, with the request at element [2] (fs_read_file)',
        ),
      ),
    ).toBe(true);
    expect(said.some((s) => s.includes('pairs with none and its name is unknown'))).toBe(true);
  });

  it('under base=2026-08 has no threshold: both responses are stripped, named by the id map', async () => {
    const said = await sentences({ base: '2026-08' });
    expect(said.some((s) => s.includes('is not over'))).toBe(false);
    expect(said.some((s) => s.includes('pairs, by position'))).toBe(false);
    // Every response, the unpaired one included, gets the status line.
    expect(said.filter((s) => s.includes('becomes the status line'))).toHaveLength(3);
  });
});
