import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { countWithLongRuns, LONG_RUN, loadTokenCounter } from '../counting/tokens.ts';
import { createPlaygroundSession } from '../playground/playground.ts';
import { parseEventsText } from '../stream/codec.ts';
import type { Diagnostic } from '../types.ts';
import {
  capDiagnostics,
  checkElementCount,
  checkStreamTextLength,
  findTooDeepNesting,
  MAX_CONFIG_TEXT_LENGTH,
  MAX_LISTED_DIAGNOSTICS,
  MAX_NESTING_DEPTH,
  NO_STREAM_LIMITS,
  PLAYGROUND_STREAM_LIMITS,
} from './limits.ts';

const AT = '2025-07-01 00:00:00.0';

/** A stream whose tool arguments reach `depth` levels in all (the top-level array is one). */
function streamNested(depth: number): string {
  // The array, the element and `arguments` are three levels.
  const inner = depth - 3;
  const value = `${'['.repeat(inner)}${']'.repeat(inner)}`;
  return JSON.stringify([
    { timestamp: AT, type: 'turn_start' },
    { timestamp: AT, type: 'chat_request', content: 'fake' },
    { timestamp: AT, type: 'tool_call_request', id: 'f1', name: 'fake', arguments: { v: 0 } },
    { timestamp: AT, type: 'tool_call_response', id: 'f1', content: 'ok', is_error: false },
  ]).replace('{"v":0}', `{"v":${value}}`);
}

describe('nesting depth (JP reads at most 127 levels)', () => {
  it('finds the first bracket past the limit, skipping strings', () => {
    expect(findTooDeepNesting('[[[]]]', 3)).toBeUndefined();
    expect(findTooDeepNesting('[[[[]]]]', 3)).toBe(3);
    expect(findTooDeepNesting('["[[[[", {"a": "\\"[[[["}]', 2)).toBeUndefined();
    expect(findTooDeepNesting('[{}, [[]]]', 2)).toBe(6);
  });

  it('accepts 127 levels and runs them through the whole pipeline', async () => {
    const text = streamNested(MAX_NESTING_DEPTH);
    const parsed = parseEventsText(text, 'plain');
    expect(parsed.diagnostics).toEqual([]);
    const result = await createPlaygroundSession().run({
      configText: '',
      streamText: text,
      encoding: 'plain',
      tokenizer: 'chars',
      now: null,
      view: 'sanitized',
    });
    expect(result.status).toBe('ok');
  });

  it('refuses 128 levels at the bracket that opens the 128th', () => {
    const text = streamNested(MAX_NESTING_DEPTH + 1);
    const parsed = parseEventsText(text, 'auto');
    expect(parsed.elements).toBeUndefined();
    expect(parsed.diagnostics).toHaveLength(1);
    const [error] = parsed.diagnostics as [Diagnostic];
    expect(error).toMatchObject({ severity: 'error', code: 'events/too-deep', line: 1 });
    expect(text[error.column - 1]).toBe('[');
    expect(findTooDeepNesting(text.slice(0, error.column - 1))).toBeUndefined();
    expect(error.message).toContain('127 levels');
  });

  it('refuses 100,000 levels without overflowing the stack, in the session too', async () => {
    const text = streamNested(100_000);
    expect(parseEventsText(text, 'auto').diagnostics[0]?.code).toBe('events/too-deep');
    const result = await createPlaygroundSession().run({
      configText: '',
      streamText: text,
      encoding: 'auto',
      tokenizer: 'chars',
      now: null,
      view: 'sanitized',
    });
    expect(result.status).toBe('invalid');
  });
});

describe('stream size', () => {
  const limits = { maxTextLength: 100, maxElements: 2 };

  it('says the size, the limit and what to do, at line 1, column 1', () => {
    const diagnostic = checkStreamTextLength('x'.repeat(2_000_000), PLAYGROUND_STREAM_LIMITS);
    expect(diagnostic).toBeUndefined();
    const tooLong = checkStreamTextLength('x'.repeat(101), limits);
    expect(tooLong).toMatchObject({ line: 1, column: 1, severity: 'error' });
    expect(tooLong?.message).toContain('101 characters');
    expect(tooLong?.message).toContain('at most 100');
    expect(tooLong?.message).toContain('command line');
    expect(checkElementCount(3, limits)?.message).toMatch(/has 3 elements.*at most 2/);
    expect(checkElementCount(2, limits)).toBeUndefined();
  });

  it('refuses text over the limit before parsing it', () => {
    const parsed = parseEventsText(`[${'{'.repeat(200)}`, 'auto', limits);
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(['events/too-large']);
  });

  it('refuses more elements than the limit', () => {
    const text = JSON.stringify(new Array(3).fill({ timestamp: AT, type: 'turn_start' }));
    expect(parseEventsText(text, 'auto', { ...limits, maxTextLength: 1000 }).diagnostics).toEqual([
      expect.objectContaining({ code: 'events/too-many-elements', line: 1, column: 1 }),
    ]);
    expect(parseEventsText(text, 'auto', NO_STREAM_LIMITS).elements).toHaveLength(3);
    // The codec's default is no size limit: the CLI reads what fits in memory.
    expect(parseEventsText(text, 'auto').elements).toHaveLength(3);
  });

  it('applies the browser limits in a playground session, or the ones it is given', async () => {
    const text = JSON.stringify(
      new Array(PLAYGROUND_STREAM_LIMITS.maxElements + 1).fill({ timestamp: AT, type: 'x' }),
    );
    const input = {
      configText: '',
      streamText: text,
      encoding: 'auto' as const,
      tokenizer: 'chars' as const,
      now: null,
      view: 'sanitized' as const,
    };
    const refused = await createPlaygroundSession().run(input);
    expect(refused.status).toBe('invalid');
    expect(refused.streamDiagnostics[0]?.code).toBe('events/too-many-elements');
    const accepted = await createPlaygroundSession({ limits: NO_STREAM_LIMITS }).run(input);
    expect(accepted.status).toBe('ok');
    // 100,001 unknown elements: the info notes are capped too, and one warning says no
    // element is a conversation event.
    expect(accepted.streamDiagnostics).toHaveLength(MAX_LISTED_DIAGNOSTICS + 2);
    expect(
      accepted.streamDiagnostics.filter((d) => d.code === 'events/no-conversation'),
    ).toHaveLength(1);
  });
});

describe('config size', () => {
  it('refuses a config over 1 MiB at line 1, column 1', () => {
    const text = `# ${'x'.repeat(MAX_CONFIG_TEXT_LENGTH)}`;
    expect(parseConfigToml(text).diagnostics).toEqual([
      expect.objectContaining({ line: 1, column: 1, severity: 'error', code: 'config/too-large' }),
    ]);
    expect(parseConfigToml(`# ${'x'.repeat(1000)}`).diagnostics).toEqual([]);
  });
});

describe('listed diagnostics', () => {
  const at = (line: number, severity: Diagnostic['severity']): Diagnostic => ({
    line,
    column: 1,
    severity,
    message: `problem ${line}`,
  });

  it('lists the first ones and sums up the rest with their worst severity', () => {
    const few = [at(1, 'error')];
    expect(capDiagnostics(few)).toBe(few);
    const many = [
      ...Array.from({ length: MAX_LISTED_DIAGNOSTICS }, (_, i) => at(i + 1, 'info')),
      at(500, 'warning'),
      at(501, 'error'),
    ];
    const capped = capDiagnostics(many);
    expect(capped).toHaveLength(MAX_LISTED_DIAGNOSTICS + 1);
    expect(capped.at(-1)).toMatchObject({ line: 500, severity: 'error' });
    expect(capped.at(-1)?.message).toBe(
      '2 more problems from here on are not listed (1 errors); fix the ones above first.',
    );
  });

  it('keeps the stream unusable when only an unlisted element has an error', () => {
    const elements = new Array(150).fill({ timestamp: AT, type: 'future' });
    elements.push({ timestamp: AT });
    const parsed = parseEventsText(JSON.stringify(elements), 'auto');
    expect(parsed.elements).toBeUndefined();
    expect(parsed.diagnostics.at(-1)?.severity).toBe('error');
  });
});

describe('counting long runs (the BPE is quadratic in one piece)', () => {
  const exact = (text: string) => text.length; // a stand-in that shows how text was split
  it('counts text without long runs in one call', () => {
    const calls: string[] = [];
    const text = 'word '.repeat(5000);
    countWithLongRuns(text, (t) => {
      calls.push(t);
      return exact(t);
    });
    expect(calls).toEqual([text]);
  });

  it('splits only the long run, never inside a surrogate pair', () => {
    const calls: string[] = [];
    const run = '😀'.repeat(LONG_RUN);
    const total = countWithLongRuns(`head ${run} tail`, (t) => {
      calls.push(t);
      return exact(t);
    });
    expect(total).toBe(`head ${run} tail`.length);
    expect(calls[0]).toBe('head ');
    expect(calls.at(-1)).toBe(' tail');
    for (const call of calls) expect(call).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  // Its speed (the long-run guard) is a bench figure, not an assertion.
  it('counts a 10 MB run of one letter exactly', async () => {
    const counter = await loadTokenCounter('o200k');
    // o200k has a token for 8 `x`s: exactly one token per 8 characters.
    expect(counter.tokens('x'.repeat(10 * 1024 * 1024))).toBe((10 * 1024 * 1024) / 8);
  });
});
