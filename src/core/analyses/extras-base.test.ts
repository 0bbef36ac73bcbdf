/**
 * The page's extras follow the reading base (issue 23): the recommender's
 * and the what-if grid's figures for a stream whose stored compaction has
 * `over` differ between JP main (2026-09) and JP 4c1c39f1 (2026-08).
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_RULE, OVER_STREAMS } from '../../test/fixtures/over-streams.ts';
import type { JpBase } from '../config/jp-base.ts';
import { createPlaygroundSession } from '../playground/playground.ts';
import type { PlaygroundInput } from '../playground/types.ts';
import { DEFAULT_REPLAY_CHOICE } from '../replay/schedules.ts';
import { computeExtra, createPlaygroundExtras } from './extras.ts';

const input = (base: JpBase): PlaygroundInput => ({
  configText: EMPTY_RULE,
  streamText: OVER_STREAMS[0] as string,
  encoding: 'auto',
  tokenizer: 'chars',
  now: null,
  view: 'sanitized',
  readings: { base },
});

// By hand (chars/4): the responses are 4,096 and 812 bytes, 1,024 + 203 = 1,227
// tokens; a stripped one leaves a 9-token status line. Under 2026-09 only the
// large one is over 1KB (saves 1,024 − 9); under 2026-08 `over` is ignored and
// both are stripped (saves 1,227 − 18). The CLI's `report --reading base=…` agrees.
const SAVED: Record<JpBase, number> = { '2026-09': 1_015, '2026-08': 1_209 };

describe('extras under the chosen base', () => {
  for (const base of ['2026-09', '2026-08'] as const) {
    it(`recommend and what-if measure fs_read_file under base=${base}`, async () => {
      const session = createPlaygroundSession();
      const extras = createPlaygroundExtras();
      const recommend = await computeExtra(session, extras, input(base), 'recommend', null);
      if (recommend.status !== 'ok') throw new Error('the input should be valid');
      const rec = recommend.value.recommendations.find((r) => r.tool === 'fs_read_file');
      expect(rec?.currentSaved.tokens).toBe(SAVED[base]);

      const whatIf = await computeExtra(session, extras, input(base), 'whatIf', null);
      if (whatIf.status !== 'ok') throw new Error('the input should be valid');
      expect(whatIf.value.ruleSaves.tokens).toBe(SAVED[base]);
    });

    it(`the cost replay prices a later request under base=${base}`, async () => {
      // A second turn after the stored compaction: its request is the first to see it.
      const events = JSON.parse(OVER_STREAMS[0] as string) as object[];
      events.push(
        { type: 'turn_start', timestamp: '2026-09-01 02:00:00.0' },
        { type: 'chat_request', timestamp: '2026-09-01 02:00:00.0', content: 'next' },
        { type: 'chat_response', timestamp: '2026-09-01 02:00:01.0', message: 'done' },
      );
      const session = createPlaygroundSession();
      const replay = await computeExtra(
        session,
        createPlaygroundExtras(),
        { ...input(base), streamText: JSON.stringify(events) },
        'replay',
        DEFAULT_REPLAY_CHOICE,
      );
      if (replay.status !== 'ok' || replay.value.status !== 'ok') {
        throw new Error('the input should be valid');
      }
      // The same saving as the table's, in prompt tokens; `replay --reading base=…` prints it too.
      expect(replay.value.replay.totals.saved.prompt_tokens).toBe(SAVED[base]);
    });
  }
});
