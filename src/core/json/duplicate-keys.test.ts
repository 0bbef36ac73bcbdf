import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../stream/codec.ts';
import { findDuplicateKeys } from './duplicate-keys.ts';

const AT = '2025-07-01 00:00:00.0';

describe('findDuplicateKeys', () => {
  it('finds a key written twice in one object, with both positions and the depth', () => {
    const text = '[{"a":1,"b":{"c":1,"c":2},"a":3}]';
    expect(findDuplicateKeys(text)).toEqual([
      { key: 'c', start: 19, end: 22, firstStart: 13, depth: 3 },
      { key: 'a', start: 26, end: 29, firstStart: 2, depth: 2 },
    ]);
  });

  it('compares keys as JSON reads them, and ignores strings that are values', () => {
    expect(findDuplicateKeys('[{"content":"x","con\\u0074ent":"y"}]')).toHaveLength(1);
    expect(findDuplicateKeys('[{"a":"a","b":["a","a"],"c":{"a":1},"d":{"a":1}}]')).toEqual([]);
  });

  it('finds the repeat in an object with many keys too', () => {
    const keys = Array.from({ length: 40 }, (_, k) => `"k${k}":${k}`);
    const text = `{${[...keys, '"k3":0'].join(',')}}`;
    expect(findDuplicateKeys(text).map((d) => [d.key, d.depth])).toEqual([['k3', 1]]);
  });
});

describe('duplicate keys in events.json', () => {
  it('refuses an event with a field written twice, at the second key, naming the first', () => {
    const text = `[\n  {"timestamp": "${AT}", "type": "chat_request", "content": "SECRET", "content": "hello"}\n]\n`;
    const parsed = parseEventsText(text, 'auto');
    expect(parsed.elements).toBeUndefined();
    // `  {"timestamp": "` (17) + 21 + `", "type": "chat_request", "content": "SECRET", ` (48): column 87; the first `"content"` is at 38 + 28.
    expect(parsed.diagnostics).toMatchObject([
      { severity: 'error', line: 2, column: 87, code: 'events/duplicate-key' },
    ]);
    expect(parsed.diagnostics[0]?.message).toContain('first at line 2, column 66');
  });

  it('accepts a key written twice inside arguments, as JP does, with a warning', () => {
    const text = `[\n  {"timestamp": "${AT}", "type": "tool_call_request", "id": "x", "name": "t", "arguments": {"p": 1, "p": 2}}\n]\n`;
    const parsed = parseEventsText(text, 'plain');
    expect(parsed.elements).toHaveLength(1);
    expect(parsed.diagnostics).toMatchObject([
      { severity: 'warning', line: 2, code: 'events/duplicate-nested-key' },
    ]);
  });
});
