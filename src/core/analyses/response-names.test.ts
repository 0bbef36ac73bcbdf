/**
 * The savings table names each tool response exactly as the projection
 * paired it (spec 15.3): by position within a turn under `2026-09`, through
 * the stream-wide id map under `2026-08`. A stream where the two disagree.
 */
import { describe, expect, it } from 'vitest';
import { createReport } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { createPlaygroundSession, type PlaygroundInput } from '../playground/playground.ts';
import { runWithExtras } from './extras.ts';

const AT = '2026-09-01 10:00:00.0';
const event = (fields: Record<string, unknown>) => JSON.stringify({ timestamp: AT, ...fields });

/**
 * Turn 0 calls `read_file` as `call_0` (40-char answer) and `early_tool` as
 * `x` (3-char answer). Turn 1 calls `grep` as `call_0` again (10-char
 * answer) and holds a second response with id `x` (20 chars), whose request
 * is in turn 0. The id map names both `call_0` answers `grep` (the later
 * request wins) and the stray `x` answer `early_tool`; positional pairing
 * names them `read_file`, `grep` and nothing (15.3's own example).
 */
const STREAM = `[
${[
  event({ type: 'turn_start' }),
  event({ type: 'chat_request', content: 'q' }),
  event({ type: 'tool_call_request', id: 'call_0', name: 'read_file', arguments: {} }),
  event({ type: 'tool_call_response', id: 'call_0', content: 'R'.repeat(40), is_error: false }),
  event({ type: 'tool_call_request', id: 'x', name: 'early_tool', arguments: {} }),
  event({ type: 'tool_call_response', id: 'x', content: 'eee', is_error: false }),
  event({ type: 'chat_response', message: 'a' }),
  event({ type: 'turn_start' }),
  event({ type: 'chat_request', content: 'q' }),
  event({ type: 'tool_call_request', id: 'call_0', name: 'grep', arguments: {} }),
  event({ type: 'tool_call_response', id: 'call_0', content: 'G'.repeat(10), is_error: false }),
  event({ type: 'tool_call_response', id: 'x', content: 'E'.repeat(20), is_error: false }),
  event({ type: 'chat_response', message: 'a' }),
].join(',\n')}
]`;

/** Every turn, responses stripped. */
const CONFIG = `[[conversation.compaction.rules]]
keep_first = 0
keep_last = 0
tool_calls = "strip-responses"
`;

function inputUnder(base: '2026-08' | '2026-09'): PlaygroundInput {
  return {
    configText: CONFIG,
    streamText: STREAM,
    encoding: 'auto',
    tokenizer: 'chars',
    now: null,
    view: 'bare',
    readings: { base },
  };
}

/** Each row as [name, response chars before, after]. */
async function responseRows(base: '2026-08' | '2026-09') {
  const figures = await createPlaygroundSession().run(inputUnder(base));
  expect(figures.status).toBe('ok');
  return figures.report.tools.map((row) => [
    row.name,
    row.response.before.chars,
    row.response.after.chars,
  ]);
}

describe('the savings table names responses as the projection paired them', () => {
  it('under 2026-09: by position within the turn; the stray response is the orphan row', async () => {
    // By hand from 15.3: placeholders "[compacted] NAME: success".
    // read_file: 40 -> "[compacted] read_file: success" (30); grep: 10 -> 25;
    // early_tool: 3 -> "[compacted] early_tool: success" (31);
    // the unpaired x: 20 -> "[compacted] unknown: success" (28), in the orphan row.
    expect(await responseRows('2026-09')).toEqual([
      ['early_tool', 3, 31],
      ['grep', 10, 25],
      ['read_file', 40, 30],
      [null, 20, 28],
    ]);
  });

  it('under 2026-08: through the id map, as JP 4c1c39f1 names them', async () => {
    // Both call_0 answers are grep's (50 -> 25 + 25), both x answers early_tool's (23 -> 31 + 31).
    expect(await responseRows('2026-08')).toEqual([
      ['early_tool', 23, 62],
      ['grep', 50, 50],
      ['read_file', 0, 0],
    ]);
  });

  it('the transcripts name each response like its row and its placeholder', async () => {
    const result = await runWithExtras(createPlaygroundSession(), inputUnder('2026-09'));
    const responses = result.after.filter((entry) => entry.type === 'tool_call_response');
    expect(responses.map((entry) => [entry.toolName ?? null, entry.text])).toEqual([
      ['read_file', '[compacted] read_file: success'],
      ['early_tool', '[compacted] early_tool: success'],
      ['grep', '[compacted] grep: success'],
      [null, '[compacted] unknown: success'],
    ]);
  });

  it('a response the names do not hold is counted in the orphan row', async () => {
    const counter = await loadTokenCounter('chars');
    const lone = { timestamp: AT, type: 'tool_call_response', id: 'a', content: 'abc' };
    const report = createReport([lone], [lone], new Map(), counter);
    expect(report.tools.map((row) => [row.name, row.calls, row.response.before.chars])).toEqual([
      [null, 1, 3],
    ]);
  });
});
