/**
 * A JSON Lines session cut mid-write (issue 43, items 16 and 20): its last
 * line does not read, and is skipped with a warning while the rest imports,
 * whether the cut fell on an ASCII character or inside a multi-byte one;
 * when nothing else is left, the import fails and its error says so (the
 * words and the exit code agree).
 */
import { describe, expect, it } from 'vitest';
import { jsonl } from '../../test/import-classes.ts';
import { decodeUtf8 } from '../json/utf8.ts';
import { readAnyStream } from './read-stream.ts';

const AT = '2026-03-01T10:00:00.000Z';
/** A Pi session's first lines as Pi writes them: the header, a model and a thinking level. */
const PI_HEAD = [
  { type: 'session', version: 3, id: 's', timestamp: AT, cwd: '/fake' },
  { type: 'model_change', id: 'm0', parentId: null, timestamp: AT, provider: 'x', modelId: 'y' },
  { type: 'thinking_level_change', id: 't0', parentId: 'm0', timestamp: AT, thinkingLevel: 'off' },
];
const message = (id: string, parentId: string, role: string, text: string) => ({
  type: 'message',
  id,
  parentId,
  timestamp: AT,
  message: { role, content: [{ type: 'text', text }] },
});

describe('a Pi session cut mid-write (issue 43, item 20)', () => {
  it('cut inside its first message: nothing is left, and the error says so', () => {
    const text = jsonl(...PI_HEAD, message('e1', 't0', 'user', 'list the fake files'));
    const read = readAnyStream(text.slice(0, -30), { encoding: 'auto' });
    expect(read.format).toBe('pi');
    expect(read.parsed.elements).toBeUndefined();
    const [first] = read.parsed.diagnostics;
    expect(first).toMatchObject({ line: 4, severity: 'error', code: 'import/bad-line' });
    expect(first?.message).toMatch(
      /^Line 4 is not valid JSON \(as when a file is cut mid-write\), and no other line holds anything to import/,
    );
    expect(first?.message).not.toMatch(/the other lines are read/);
  });

  it('cut inside a later message: that line is a warning, the rest imports', () => {
    const text = jsonl(
      ...PI_HEAD,
      message('e1', 't0', 'user', 'list the fake files'),
      message('e2', 'e1', 'assistant', 'fake answer'),
    );
    const read = readAnyStream(text.slice(0, -20), { encoding: 'auto' });
    expect(read.parsed.elements?.map((e) => e.type)).toEqual(['turn_start', 'chat_request']);
    expect(read.parsed.diagnostics).toMatchObject([{ line: 5, severity: 'warning' }]);
    expect(read.parsed.diagnostics[0]?.message).toMatch(
      /so it is skipped; the other lines are read/,
    );
  });
});

describe('a session cut inside a multi-byte character (issue 43, item 16)', () => {
  const text = jsonl(
    ...PI_HEAD,
    message('e1', 't0', 'user', 'list the fake files'),
    message('e2', 'e1', 'assistant', 'fake caf\u00e9 answer'),
  );
  const whole = Buffer.from(text, 'utf8');
  // The last line cut right after "caf", then inside "é" (C3 A9): after its first byte.
  const cutAt = whole.lastIndexOf(Buffer.from('\u00e9', 'utf8'));

  it('skips the last line with a warning, as when cut at an ASCII character', () => {
    const atAscii = decodeUtf8(whole.subarray(0, cutAt), { lastLineMayBeCut: true });
    const inCharacter = decodeUtf8(whole.subarray(0, cutAt + 1), { lastLineMayBeCut: true });
    expect(atAscii.ok && inCharacter.ok).toBe(true);
    if (!atAscii.ok || !inCharacter.ok) return;
    const ascii = readAnyStream(atAscii.text, { encoding: 'auto' });
    const multiByte = readAnyStream(inCharacter.text, { encoding: 'auto' });
    // By hand: the prompt imports (a turn and its request); line 5, the answer, is skipped.
    expect(multiByte.parsed.elements?.map((e) => e.type)).toEqual(['turn_start', 'chat_request']);
    expect(multiByte.parsed.elements).toEqual(ascii.parsed.elements);
    expect(multiByte.parsed.diagnostics).toMatchObject([
      { line: 5, severity: 'warning', code: 'import/bad-line' },
    ]);
    expect(ascii.parsed.diagnostics).toMatchObject([
      { line: 5, severity: 'warning', code: 'import/bad-line' },
    ]);
  });
});
