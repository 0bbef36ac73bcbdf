import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { mapStringLeaves } from '../json/walk.ts';
import type { JsonValue, StreamElement } from '../types.ts';
import { encodeBase64 } from './base64.ts';
import { parseEventsText } from './codec.ts';
import { decodeStorage, detectEncoding, encodeStorage } from './storage.ts';
import { stringifyPretty, writeEventsText } from './write.ts';

const corpus = listCorpus();
const SEGFAULT_ID = '17671120783-investigating-segfault-in-iter-mut-change-tracking';

/** A small healthy plain stream with one element per line, for position tests. */
function lines(...elements: string[]): string {
  return `[\n${elements.map((e) => `  ${e}`).join(',\n')}\n]\n`;
}

const TS = '"timestamp": "2025-07-01 00:00:00.0"';

describe('corpus round trip', () => {
  it('finds the corpus', () => {
    expect(corpus.length).toBe(20);
  });

  for (const { id, eventsPath } of corpus) {
    it(`${id}: detected as storage and written back as read`, () => {
      const text = readFileSync(eventsPath, 'utf8');
      const parsed = parseEventsText(text, 'auto');
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(parsed.encoding).toBe('storage');
      const elements = parsed.elements as StreamElement[];
      expect(parsed.elementOffsets).toHaveLength(elements.length);
      const written = writeEventsText(elements, 'storage');
      if (id !== SEGFAULT_ID) {
        expect(written === text).toBe(true);
        return;
      }
      // Spec 1.4: three responses of this file are in the URL-safe alphabet, so JP
      // leaves them undecoded on read and encodes them on write like plain text.
      const before = text.split('\n');
      const after = written.split('\n');
      expect(after).toHaveLength(before.length);
      const changed = before.filter((line, i) => line !== after[i]);
      expect(changed).toHaveLength(3);
      for (const line of changed) expect(line).toMatch(/^\s*"content": "[A-Za-z0-9+/=_-]+",$/);
      // Reading the written file gives the same elements: the values survive.
      expect(parseEventsText(written, 'storage').elements).toEqual(elements);
      expect(parsed.diagnostics.map((d) => d.code)).toEqual(['events/undecoded-values']);
    });
  }

  it('decodes the corpus: tool responses are readable text', () => {
    const smallest = corpus.find((c) => c.id.startsWith('17758406187')) ?? corpus[0];
    const parsed = parseEventsText(readFileSync(smallest?.eventsPath ?? '', 'utf8'), 'auto');
    const response = parsed.elements?.find((e) => e.type === 'tool_call_response');
    expect(typeof response?.content).toBe('string');
    expect(Buffer.from(encodeBase64(response?.content as string), 'base64').toString()).toBe(
      response?.content,
    );
  });

  it('reads and writes the largest file back byte for byte', () => {
    const largest = corpus[corpus.length - 1];
    const text = readFileSync(largest?.eventsPath ?? '', 'utf8');
    const parsed = parseEventsText(text, 'auto');
    const written = writeEventsText(parsed.elements ?? [], parsed.encoding);
    expect(written === text).toBe(true);
  });
});

describe('encoding detection (spec 14.3)', () => {
  it('detects the segfault conversation as storage despite its URL-safe values', () => {
    const entry = corpus.find((c) => c.id === SEGFAULT_ID);
    const elements = JSON.parse(readFileSync(entry?.eventsPath ?? '', 'utf8')) as StreamElement[];
    expect(detectEncoding(elements)).toBe('storage');
  });

  it('detects typed text as plain, and plain when nothing is counted', () => {
    const plain: StreamElement[] = [
      {
        timestamp: 't',
        type: 'tool_call_request',
        id: 'a',
        name: 'fs',
        arguments: { path: 'src/main.rs' },
      },
      {
        timestamp: 't',
        type: 'tool_call_response',
        id: 'a',
        content: 'file created',
        is_error: false,
      },
    ];
    expect(detectEncoding(plain)).toBe('plain');
    expect(detectEncoding([])).toBe('plain');
    expect(detectEncoding([{ timestamp: 't', type: 'chat_request', content: 'Zm9v' }])).toBe(
      'plain',
    );
  });

  it('needs more than half of the non-empty leaves to decode', () => {
    const response = (content: string): StreamElement => ({
      timestamp: 't',
      type: 'tool_call_response',
      id: 'a',
      content,
      is_error: false,
    });
    expect(detectEncoding([response('Zm9v'), response('plain text')])).toBe('plain');
    expect(detectEncoding([response('Zm9v'), response('Zm9v'), response('plain')])).toBe('storage');
    // Empty strings are not counted, although they are valid base64.
    expect(detectEncoding([response(''), response(''), response('plain')])).toBe('plain');
  });

  it('counts metadata of every conversation event but nothing outside conversation events', () => {
    expect(
      detectEncoding([
        { timestamp: 't', type: 'chat_response', reasoning: 'r', metadata: { sig: 'c2ln' } },
        { type: 'config_delta', timestamp: 't', delta: { a: 'not base64 at all' } },
        { type: 'mystery', content: 'not base64 either' },
      ]),
    ).toBe('storage');
  });

  it('follows the setting when it is not auto', () => {
    const text = lines(
      `{${TS}, "type": "tool_call_response", "id": "a", "content": "Zm9v", "is_error": false}`,
    );
    expect(parseEventsText(text, 'plain').elements?.[0]?.content).toBe('Zm9v');
    expect(parseEventsText(text, 'storage').elements?.[0]?.content).toBe('foo');
    expect(parseEventsText(text, 'auto').encoding).toBe('storage');
  });
});

describe('storage decoding and encoding (spec 1.4)', () => {
  const stored: StreamElement[] = [
    { type: 'config_delta', timestamp: 't', delta: { x: 'Zm9v' } },
    { timestamp: 't', type: 'chat_request', content: 'Zm9v', metadata: { k: 'Zm9v' } },
    {
      timestamp: 't',
      type: 'tool_call_request',
      id: 'Zm9v',
      name: 'Zm9v',
      arguments: { a: 'Zm9v', n: 1, nested: [{ b: 'eA' }, null, true], Zm9v: 'YmFy' },
    },
    { timestamp: 't', type: 'tool_call_response', id: 'a', content: 'eA', is_error: false },
    { type: 'compaction', timestamp: 't', from_turn: 0, to_turn: 0, summary: { summary: 'Zm9v' } },
    { type: 'mystery', content: 'Zm9v', metadata: { k: 'Zm9v' } },
  ];

  it('decodes only content, argument leaves and metadata leaves of conversation events', () => {
    const decoded = decodeStorage(stored);
    expect(decoded).toEqual([
      stored[0],
      { timestamp: 't', type: 'chat_request', content: 'Zm9v', metadata: { k: 'foo' } },
      {
        timestamp: 't',
        type: 'tool_call_request',
        id: 'Zm9v',
        name: 'Zm9v',
        arguments: { a: 'foo', n: 1, nested: [{ b: 'eA' }, null, true], Zm9v: 'bar' },
      },
      { timestamp: 't', type: 'tool_call_response', id: 'a', content: 'eA', is_error: false },
      stored[4],
      stored[5],
    ]);
    // Pure: the input is untouched and elements without storage values are shared.
    expect(stored[2]?.arguments).toEqual({
      a: 'Zm9v',
      n: 1,
      nested: [{ b: 'eA' }, null, true],
      Zm9v: 'YmFy',
    });
    expect(decoded[0]).toBe(stored[0]);
    expect(decoded[4]).toBe(stored[4]);
    expect(decoded[5]).toBe(stored[5]);
    // Copy-on-write: the unchanged array inside the arguments is shared too.
    const nestedOf = (element: StreamElement | undefined) =>
      (element?.arguments as Record<string, JsonValue> | undefined)?.nested;
    expect(nestedOf(decoded[2])).toBe(nestedOf(stored[2]));
    expect(Object.keys(decoded[2] as object)).toEqual(Object.keys(stored[2] as object));
  });

  it('writes decoded values back exactly as read, and encodes undecoded ones', () => {
    const roundTrip = encodeStorage(decodeStorage(stored));
    expect(roundTrip[1]).toEqual(stored[1]);
    expect(roundTrip[2]?.arguments).toEqual({
      a: 'Zm9v',
      n: 1,
      nested: [{ b: 'ZUE=' }, null, true],
      Zm9v: 'YmFy',
    });
    expect(roundTrip[3]?.content).toBe('ZUE=');
  });

  it('round-trips any decodable value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (text) => {
        const element: StreamElement = {
          timestamp: 't',
          type: 'tool_call_response',
          id: 'a',
          content: encodeBase64(text),
          is_error: false,
        };
        const decoded = decodeStorage([element]);
        expect(encodeStorage(decoded)).toEqual([element]);
      }),
    );
  });

  it('keeps a "__proto__" key an ordinary own key', () => {
    const argumentsObject = JSON.parse('{"__proto__": "Zm9v", "b": "YmFy"}') as JsonValue;
    const decoded = mapStringLeaves(argumentsObject, (s) => s.toUpperCase()) as Record<
      string,
      JsonValue
    >;
    expect(Object.keys(decoded)).toEqual(['__proto__', 'b']);
    expect(JSON.stringify(decoded)).toBe('{"__proto__":"ZM9V","b":"YMFY"}');
  });

  it('walks arbitrarily deep arguments without recursion', () => {
    const depth = 200_000;
    const text = `${'['.repeat(depth)}"Zm9v"${']'.repeat(depth)}`;
    const deep = JSON.parse(text) as JsonValue;
    let value = mapStringLeaves(deep, (s) => (s === 'Zm9v' ? 'foo' : s));
    for (let i = 0; i < depth; i++) value = (value as JsonValue[])[0] as JsonValue;
    expect(value).toBe('foo');
  });
});

describe('writing', () => {
  it('writes JSON indented by two spaces with a final newline, keys in their order', () => {
    const elements: StreamElement[] = [
      { timestamp: 't', type: 'chat_request', content: 'hi', zeta: 1, alpha: [] },
    ];
    expect(writeEventsText(elements, 'plain')).toBe(
      '[\n  {\n    "timestamp": "t",\n    "type": "chat_request",\n    "content": "hi",\n    "zeta": 1,\n    "alpha": []\n  }\n]\n',
    );
    expect(writeEventsText([], 'storage')).toBe('[]\n');
  });

  it('encodes on write in storage form', () => {
    const elements: StreamElement[] = [
      { timestamp: 't', type: 'tool_call_response', id: 'a', content: 'foo', is_error: false },
    ];
    expect(JSON.parse(writeEventsText(elements, 'storage'))[0].content).toBe('Zm9v');
    expect(JSON.parse(writeEventsText(elements, 'plain'))[0].content).toBe('foo');
  });

  it('keeps unknown elements verbatim', () => {
    const text = lines(
      `{"type": "mystery", "content": "eA", "metadata": {"k": "v"}, "nested": {"z": 1, "a": [true, null]}}`,
    );
    const parsed = parseEventsText(text, 'storage');
    expect(writeEventsText(parsed.elements ?? [], 'storage')).toBe(
      `${JSON.stringify(JSON.parse(text), null, 2)}\n`,
    );
  });

  it('pretty-prints exactly like JSON.stringify(value, null, 2)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyPretty(value as JsonValue)).toBe(JSON.stringify(value, null, 2));
      }),
    );
  });

  it('writes nesting deeper than the native serializer can handle', () => {
    // Deep enough to overflow the native serializer's stack (about 5,000 levels in
    // Node 20), shallow enough that the indentation still fits in a string.
    const depth = 6_000;
    expect(() =>
      JSON.stringify(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`), null, 2),
    ).toThrow(RangeError);
    const deep = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as JsonValue;
    const elements: StreamElement[] = [
      { timestamp: 't', type: 'tool_call_request', id: 'a', name: 'n', arguments: { deep } },
    ];
    const written = writeEventsText(elements, 'storage');
    expect(written.startsWith('[\n  {\n    "timestamp": "t",')).toBe(true);
    expect(written.endsWith('\n  }\n]\n')).toBe(true);
    expect(written.split('\n').length).toBeGreaterThan(2 * depth);
  });
});

describe('diagnostics', () => {
  const errorsOf = (text: string) => parseEventsText(text, 'auto').diagnostics;

  it('points at a missing comma between elements', () => {
    const text = `[\n  {${TS}, "type": "turn_start"}\n  {${TS}, "type": "turn_start"}\n]`;
    const [diagnostic] = errorsOf(text);
    expect(diagnostic).toMatchObject({
      line: 3,
      column: 3,
      severity: 'error',
      code: 'events/syntax',
    });
    expect(diagnostic?.message).toMatch(/Expected ',' or '\]'.*comma is probably missing/);
    expect(parseEventsText(text, 'auto').elements).toBeUndefined();
  });

  it.each([
    ['[\n  {"a": 1},\n]', 3, 1, /trailing comma/],
    ['[\n  {"a": 1,}\n]', 2, 11, /trailing comma/],
    ['[\n  {"a": "abc\n"}\n]', 2, 13, /line break.*\\n/],
    ['[\n  {"a": "abc', 2, 9, /not closed/],
    ["[\n  {'a': 1}\n]", 2, 4, /double quotes/],
    ['[\n  {"a": True}\n]', 2, 9, /true, false and null/],
    ['[\n  {"a" 1}\n]', 2, 8, /':'/],
    ['[\n  {"a": 01}\n]', 2, 9, /not a valid JSON number/],
    ['[\n  // note\n]', 2, 3, /comments/],
    ['[\n  {"a": [1, 2}\n]', 2, 14, /',' or '\]'/],
    ['[1, 2] x', 1, 8, /after the end/],
    ['[\n', 2, 1, /end of the text.*line 1, column 1 is not closed/],
    ['', 1, 1, /empty/],
    ['\ufeff[]', 1, 1, /byte-order mark/],
  ])('reports a syntax error in %j at %i:%i', (text, line, column, message) => {
    const [diagnostic] = errorsOf(text);
    expect(diagnostic).toMatchObject({ line, column, severity: 'error', code: 'events/syntax' });
    expect(diagnostic?.message).toMatch(message);
  });

  it('reports a text that is not an array', () => {
    const [diagnostic] = errorsOf('\n  {"type": "turn_start"}');
    expect(diagnostic).toMatchObject({ line: 2, column: 3, code: 'events/not-array' });
    expect(diagnostic?.message).toMatch(/an object.*JSON array/);
  });

  it('reports a missing timestamp at the element', () => {
    const text = lines(`{${TS}, "type": "turn_start"}`, '{"type": "chat_request", "content": "q"}');
    const result = parseEventsText(text, 'auto');
    expect(result.elements).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      line: 3,
      column: 3,
      code: 'events/missing-field',
    });
    expect(result.diagnostics[0]?.message).toMatch(
      /Element \[1\] \(chat_request\) has no "timestamp"/,
    );
  });

  it('reports a field of the wrong type at its value', () => {
    const text = lines(
      `{${TS}, "type": "tool_call_response", "id": "a", "content": "x", "is_error": "no"}`,
    );
    const [diagnostic] = errorsOf(text);
    const column = text.split('\n')[1]?.indexOf('"no"') ?? -1;
    expect(diagnostic).toMatchObject({
      line: 2,
      column: column + 1,
      endColumn: column + 5,
      code: 'events/wrong-type',
    });
    expect(diagnostic?.message).toBe(
      'Element [0] (tool_call_response): "is_error" must be a boolean (true or false), found the string "no".',
    );
  });

  it('reports an unreadable timestamp at its value', () => {
    const text = lines(
      `{"timestamp": "2025-13-01 00:00:00.0", "type": "chat_request", "content": "q"}`,
    );
    const [diagnostic] = errorsOf(text);
    expect(diagnostic).toMatchObject({ line: 2, column: 17, code: 'events/invalid-timestamp' });
  });

  it.each([
    ['5', /is the number 5/],
    ['{"timestamp": "t"}', /has no "type"/],
    [`{${TS}, "type": "chat_request"}`, /has no "content"/],
    [`{${TS}, "type": "chat_response", "message": 5}`, /has none of "message"/],
    [
      `{${TS}, "type": "tool_call_request", "id": "a", "name": "n", "arguments": []}`,
      /"arguments" must be an object/,
    ],
    [`{${TS}, "type": "tool_call_response", "id": "a", "content": "x"}`, /has no "is_error"/],
    [`{${TS}, "type": "turn_start", "metadata": "x"}`, /"metadata" must be an object/],
    [
      `{${TS}, "type": "inquiry_request", "id": "a", "source": {"source": "tool"}, "question": {"text": "?", "answer_type": {"type": "boolean"}}}`,
      /"source" must be/,
    ],
    [`{${TS}, "type": "inquiry_response", "id": "a"}`, /has no "answer"/],
    [
      `{"type": "compaction", ${TS}, "from_turn": -1, "to_turn": 2}`,
      /"from_turn" must be a non-negative integer/,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1.5}`,
      /"to_turn" must be a non-negative integer/,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "reasoning": "keep"}`,
      /"reasoning" must be the string "strip"/,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "tool_calls": {"policy": "strip"}}`,
      /"tool_calls" must be a policy/,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "tool_overrides": {"t": "omit"}}`,
      /the "tool_overrides" entry "t" must be a policy .*; found the string "omit"\./,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "tool_overrides": {"a": {"policy": "omit"}, "fs_read": {"policy": "strip", "request": true}}}`,
      /the "tool_overrides" entry "fs_read" .*with "policy": "strip", "response" is missing; each must be true or false\./,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "tool_overrides": {"x": {"policy": "drop"}}}`,
      /entry "x" .*its "policy" is the string "drop", not "strip" or "omit"\./,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "tool_overrides": {"x": {}}}`,
      /entry "x" .*it has no "policy"\./,
    ],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "tool_overrides": ["x"]}`,
      /"tool_overrides" must be an object mapping tool names .*found an array\./,
    ],
    [`{"type": "compaction", "from_turn": 0, "to_turn": 1}`, /has no "timestamp"/],
  ])('rejects %s', (element, message) => {
    const result = parseEventsText(lines(element), 'auto');
    expect(result.elements).toBeUndefined();
    expect(result.diagnostics[0]?.severity).toBe('error');
    expect(result.diagnostics[0]?.message).toMatch(message);
  });

  it.each([
    [`{${TS}, "type": "chat_response", "message": "a", "reasoning": 5}`],
    [`{${TS}, "type": "chat_response", "message": 5, "reasoning": "x"}`],
    [`{${TS}, "type": "chat_response", "data": null}`],
    [`{${TS}, "type": "chat_request", "content": "q", "schema": null, "author": "Ada"}`],
    [`{${TS}, "type": "tool_call_request", "id": "a", "name": "n"}`],
    [`{"type": "config_delta"}`],
    [`{"type": "config_delta", "timestamp": "whenever", "delta": 5}`],
    [
      `{"type": "compaction", ${TS}, "from_turn": 0, "to_turn": 1, "summary": null, "tool_calls": {"policy": "omit"}}`,
    ],
    [`{"timestamp": "2025-07-01T00:00:00Z", "type": "turn_start", "extra": {"kept": true}}`],
  ])('accepts %s', (element) => {
    const result = parseEventsText(lines(element), 'auto');
    expect(result.diagnostics).toEqual([]);
    expect(result.elements).toEqual([JSON.parse(element)]);
  });

  it('keeps an unknown type and notes it', () => {
    const result = parseEventsText(lines(`{${TS}, "type": "bookmark", "at": 3}`), 'auto');
    expect(result.elements).toEqual([
      { timestamp: '2025-07-01 00:00:00.0', type: 'bookmark', at: 3 },
    ]);
    expect(result.diagnostics).toMatchObject([
      { severity: 'info', code: 'events/unknown-type', line: 2 },
    ]);
  });

  it('gives the offset of every element', () => {
    const text = lines(
      `{${TS}, "type": "turn_start"}`,
      '{"type": "x", "s": "a\\"]}"}',
      `{${TS}, "type": "turn_start"}`,
    );
    const { elementOffsets, elementEnds } = parseEventsText(text, 'plain');
    expect(
      elementOffsets.map((offset, i) => JSON.parse(text.slice(offset, elementEnds[i]))),
    ).toEqual(JSON.parse(text));
  });

  it('notes storage values that stay undecoded', () => {
    const text = lines(
      `{${TS}, "type": "tool_call_response", "id": "a", "content": "a-_b", "is_error": false}`,
    );
    const result = parseEventsText(text, 'storage');
    expect(result.elements?.[0]?.content).toBe('a-_b');
    expect(result.diagnostics).toMatchObject([
      { severity: 'info', code: 'events/undecoded-values', line: 2 },
    ]);
  });
});
