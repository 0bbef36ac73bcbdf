import { describe, expect, it } from 'vitest';
import { createPlaygroundSession } from '../playground/playground.ts';
import { runWithExtras } from './extras.ts';

const T0 = '2025-07-01 00:00:00.0';
const STREAM = [
  { timestamp: T0, type: 'turn_start' },
  { timestamp: T0, type: 'chat_request', content: 'q0' },
  { timestamp: T0, type: 'turn_start' },
  { timestamp: T0, type: 'chat_request', content: 'q1' },
  { timestamp: T0, type: 'tool_call_request', id: 's1', name: 'search', arguments: { q: 'x' } },
  { timestamp: T0, type: 'tool_call_response', id: 's1', content: 'hits', is_error: false },
  { timestamp: T0, type: 'tool_call_request', id: 'f1', name: 'fs', arguments: { p: 'y' } },
  { timestamp: T0, type: 'tool_call_response', id: 'f1', content: 'body', is_error: false },
  { timestamp: T0, type: 'turn_start' },
  { timestamp: T0, type: 'chat_request', content: 'q2' },
  // An older strip of turn 1, then a newer reasoning-only compaction with an omit hint for search.
  {
    type: 'compaction',
    timestamp: '2025-07-01 01:00:00.0',
    from_turn: 1,
    to_turn: 1,
    tool_calls: { policy: 'strip', request: true, response: true },
  },
  {
    type: 'compaction',
    timestamp: '2025-07-01 02:00:00.0',
    from_turn: 1,
    to_turn: 1,
    reasoning: 'strip',
    tool_overrides: { search: { policy: 'omit' } },
  },
];

// A rule whose range is empty on three turns (keep_first 3), so only the stream's compactions act.
const CONFIG = '[[conversation.compaction.rules]]\nkeep_first = 3\ntool_calls = "strip"\n';

/** The playground's input for CONFIG over STREAM, counted in chars. */
const INPUT = {
  configText: CONFIG,
  streamText: JSON.stringify(STREAM),
  encoding: 'plain' as const,
  tokenizer: 'chars' as const,
  now: null,
  view: 'sanitized' as const,
};

describe('what each alternative reading changes', () => {
  it('counts the events whose projected form differs, per reading', async () => {
    const session = createPlaygroundSession();
    const result = await runWithExtras(session, INPUT, { compareReadings: true });
    const effects = Object.fromEntries(result.readingEffects.map((e) => [e.name, e]));
    // apply: the newer compaction wins the turn; search's two events are omitted
    // and fs's two are no longer stripped. per-tool: only search's two change.
    expect(effects.noToolCalls).toMatchObject({ value: 'apply', eventsAffected: 4 });
    expect(effects.stacking).toMatchObject({ value: 'per-tool', eventsAffected: 2 });
    for (const name of ['star', 'summaryOverKeep', 'jp']) {
      expect(effects[name], name).toMatchObject({ eventsAffected: 0, tokensDelta: 0 });
    }
    expect(result.jpDryRun).toEqual(['Nothing to compact.']);
  });

  it('measures nothing unless asked, and runs under the readings it is given', async () => {
    const session = createPlaygroundSession();
    const ruling = await runWithExtras(session, INPUT);
    expect(ruling.readingEffects).toEqual([]);
    const search = (r: typeof ruling) => r.after.filter((e) => e.toolName === 'search').length;
    expect(search(ruling)).toBe(2);
    expect(
      search(await runWithExtras(session, { ...INPUT, readings: { stacking: 'per-tool' } })),
    ).toBe(0);
    expect(ruling.whatIf?.tools.map((row) => row.name)).toEqual(['fs', 'search']);
  });

  it('returns the after view under a switched reading for the diff of two readings', async () => {
    const session = createPlaygroundSession();
    const plain = await runWithExtras(session, INPUT);
    expect(plain.readingDiff).toBeNull();
    const result = await runWithExtras(session, INPUT, {
      diffReading: { name: 'stacking', value: 'per-tool' },
    });
    // The current view keeps search's two events; per tool, the omit hint removes them.
    expect(result.after.filter((e) => e.toolName === 'search')).toHaveLength(2);
    expect(result.readingDiff?.name).toBe('stacking');
    expect(result.readingDiff?.after.filter((e) => e.toolName === 'search')).toHaveLength(0);
    // Entries pair with the current view's by key.
    const keys = new Set(result.after.map((e) => e.key));
    expect(result.readingDiff?.after.every((e) => keys.has(e.key))).toBe(true);
  });
});
