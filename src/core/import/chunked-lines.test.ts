import { describe, expect, it } from 'vitest';
import { readChunkedLines } from './chunked-lines.ts';

const encode = (text: string) => new TextEncoder().encode(text);

/** Bytes cut at the given offsets, as a stream's chunks arrive. */
async function* cut(bytes: Uint8Array, at: readonly number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const end of [...at, bytes.length]) {
    yield bytes.slice(start, end);
    start = end;
  }
}

async function read(bytes: Uint8Array, at: readonly number[]) {
  const lines: [number, string][] = [];
  const progress: number[] = [];
  const result = await readChunkedLines(cut(bytes, at), {
    onLine: (text, line) => lines.push([line, text]),
    onProgress: (read) => progress.push(read),
  });
  return { lines, progress, result };
}

describe('readChunkedLines', () => {
  it('joins a line split across chunks, and reports the bytes read after each chunk', async () => {
    const bytes = encode('{"a":1}\n{"b":2}\n{"c":3}');
    const { lines, progress, result } = await read(bytes, [3, 10, 11]);
    expect(lines).toEqual([
      [1, '{"a":1}'],
      [2, '{"b":2}'],
      [3, '{"c":3}'],
    ]);
    expect(progress).toEqual([3, 10, 11, 23]);
    expect(result).toEqual({ ok: true, lines: 3, bytes: 23 });
  });

  it('drops CRLF line endings, even with CR and LF in different chunks', async () => {
    const bytes = encode('first\r\nsecond\r\n\r\nlast\r\n');
    const { lines } = await read(bytes, [6, 14]);
    // "first\r" | "\nsecond\r" | "\n\r\nlast\r\n"
    expect(lines).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, ''],
      [4, 'last'],
    ]);
  });

  it('decodes a multi-byte character split across chunks whole', async () => {
    // "é" is C3 A9, "😀" F0 9F 98 80: cut inside both.
    const bytes = encode('{"t":"é"}\n{"t":"😀"}\n');
    const inE = 7; // after C3
    const inEmoji = 11 + 6 + 2; // after F0 9F
    const { lines } = await read(bytes, [inE, inEmoji]);
    expect(lines).toEqual([
      [1, '{"t":"é"}'],
      [2, '{"t":"😀"}'],
    ]);
  });

  it('refuses bytes that are not UTF-8 with the line they are on', async () => {
    const bytes = new Uint8Array([...encode('ok\n'), 0xff, ...encode('\nafter\n')]);
    const { result } = await read(bytes, [3]);
    expect(result).toMatchObject({ ok: false, diagnostic: { line: 2, code: 'input/utf8' } });
  });

  it('reads a last line cut inside a character (a session cut mid-write) with U+FFFD there', async () => {
    const whole = encode('{"a":1}\n{"t":"café"}');
    // Cut after the first byte of "é" (C3 A9), in the last chunk.
    const { lines, result } = await read(whole.slice(0, whole.length - 3), [4]);
    expect(result).toMatchObject({ ok: true, lines: 2 });
    expect(lines).toEqual([
      [1, '{"a":1}'],
      [2, '{"t":"caf\ufffd'],
    ]);
  });
});
