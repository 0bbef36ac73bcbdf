/**
 * A v1 link predates the reading `base` (spec 15.0): its author saw JP
 * 4c1c39f1, where `keep_last = "-1"` is a count (leave the last turn). v2
 * opens it under base 2026-08, so its figures are its author's; a v2 link
 * without base opens under JP main, where "-1" is the last turn itself.
 */
import { describe, expect, it } from 'vitest';
import { linkHolding, shareDefaults } from '../../test/share-links.ts';
import { createPlaygroundSession } from '../playground/playground.ts';
import { decodeShareHash } from './share-codec.ts';

const AT = '2026-07-01 10:00:0';
function turn(n: number): string[] {
  const at = `${AT}${n}.0`;
  const event = (fields: Record<string, unknown>) => JSON.stringify({ timestamp: at, ...fields });
  return [
    event({ type: 'turn_start' }),
    event({ type: 'chat_request', content: 'q' }),
    event({ type: 'tool_call_request', id: `c${n}`, name: 'read', arguments: {} }),
    event({ type: 'tool_call_response', id: `c${n}`, content: 'X'.repeat(100), is_error: false }),
    event({ type: 'chat_response', message: 'a' }),
  ];
}
const STREAM = `[\n${[0, 1, 2].flatMap(turn).join(',\n')}\n]`;
const CONFIG = `[[conversation.compaction.rules]]
keep_first = 0
keep_last = "-1"
tool_calls = "strip-responses"
`;

const DEFAULTS = shareDefaults('');

/** The link a playground of `version` made for this config and stream, counted in chars. */
function linkOf(version: number): string {
  const payload = JSON.stringify({ c: CONFIG, s: STREAM, t: 'chars', v: 'bare' });
  return linkHolding(payload, version);
}

async function responseCharsAfter(version: number): Promise<number> {
  const decoded = decodeShareHash(linkOf(version), DEFAULTS);
  if (!decoded.ok) throw new Error(decoded.message);
  const { state } = decoded;
  const figures = await createPlaygroundSession().run({
    configText: state.configText,
    streamText: 'text' in state.stream ? state.stream.text : '',
    encoding: state.encoding,
    tokenizer: state.tokenizer,
    now: state.now,
    view: state.view,
    ...(state.readings === undefined ? {} : { readings: state.readings }),
  });
  expect(figures.status).toBe('ok');
  return figures.report.groups.toolResponses.after.chars;
}

describe('a v1 link keeps its author\'s "-N"', () => {
  it('opens under JP 4c1c39f1: "-1" leaves the last turn, so two of three replies are stripped', async () => {
    // By hand: three 100-char replies; turns 0 and 1 compacted to "[compacted] read: success"
    // (25 chars), turn 2 untouched: 25 + 25 + 100.
    expect(await responseCharsAfter(1)).toBe(150);
  });

  it('a v2 link without base opens under JP main: "-1" is the last turn, all three are stripped', async () => {
    expect(await responseCharsAfter(2)).toBe(75);
  });
});
