/**
 * Issue 43, item 19: a UTF-8 byte-order mark is accepted in every format,
 * and an error in a single-document format (an OTel trace, an Amp export)
 * names that format and its real position.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { importTranscript } from './import.ts';

const CORPORA = ['agent-transcripts', 'agent-transcripts-2026'].map((name) =>
  join(SHARED_DIR, 'corpus', name),
);
const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
const SAMPLES = CORPORA.flatMap(walk).filter((path) => /\.(jsonl|json|lhar)$/.test(path));

describe('a byte-order mark, in every format (issue 43, item 19)', () => {
  const formats = new Set<string>();
  for (const path of SAMPLES) {
    const text = readFileSync(path, 'utf8');
    const plain = importTranscript(text);
    if (plain.format === null || formats.has(`${plain.format}/${text.trimStart()[0]}`)) continue;
    // One sample per format and form (a document opens with "{", JSON Lines too: the first of each).
    formats.add(`${plain.format}/${text.trimStart()[0]}`);
    it(`${plain.format}: ${path.slice(path.indexOf('corpus/'))} reads the same with a BOM`, () => {
      const marked = importTranscript(`\ufeff${text}`);
      expect(marked.format).toBe(plain.format);
      expect(marked.elements).toEqual(plain.elements);
    });
  }

  it('covers the document formats too', () => {
    for (const format of ['otel-genai', 'amp', 'opencode', 'openai-chat', 'anthropic-messages']) {
      expect([...formats].some((key) => key.startsWith(`${format}/`))).toBe(true);
    }
  });
});

describe('an error in a single-document format names the format and where (issue 43, item 19)', () => {
  it('an OTel trace with one attribute nested 126 levels deep: refused at that bracket, as OTel', () => {
    // Levels before the value: { [ { { [ { (6); each {"d": adds one, so the 120th opens level 126.
    const opening = '{"resourceSpans":[{"resource":{"attributes":[{"key":"fake","value":';
    const levels = 130;
    const span = '{"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}';
    const text = `${opening}${'{"d":'.repeat(levels)}1${'}'.repeat(levels)}}]},"scopeSpans":[{"spans":[${span}]}]}]}`;
    const read = importTranscript(text);
    expect(read.elements).toBeUndefined();
    const [error] = read.diagnostics;
    expect(error).toMatchObject({
      line: 1,
      column: opening.length + 119 * '{"d":'.length + 1,
      code: 'import/too-deep',
    });
    expect(error?.message).toMatch(/^This OpenTelemetry GenAI spans \(OTLP\/JSON\) document nests/);
  });

  it('an Amp export cut mid-write: refused where it ends, not at 1:2, named as Amp', () => {
    const lines = [
      '{',
      '  "v": 1,',
      '  "id": "T-00000000-0000-4000-8000-000000000000",',
      '  "messages": [',
      '    {',
      '      "role": "user",',
      '      "content": [{"type": "text", "text": "fake pro',
    ];
    const read = importTranscript(lines.join('\n'));
    const [error] = read.diagnostics;
    // The string opened on line 7 after `      "content": [{"type": "text", "text": ` (43 characters).
    expect(error).toMatchObject({ line: 7, column: 44, code: 'import/not-json' });
    expect(error?.message).toMatch(
      /^This Amp thread .* document \(so its opening says\) does not parse/,
    );
  });
});
