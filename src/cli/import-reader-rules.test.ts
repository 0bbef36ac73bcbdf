/**
 * Issue 20, done-when 3: what `import` writes is still read by the spec's
 * reader rules, the way the conformance runners read a stream
 * (`parseEventsText` under each reading base, spec 15.1), for every file of
 * both agent-transcript corpora and the generated LHAR sample. The storage
 * form (as JP saves it) and the plain form must read to the same events,
 * with no error under either base.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JpBase } from '../core/config/jp-base.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { runCli } from '../test/run-cli.ts';

const BASES: readonly JpBase[] = ['2026-09', '2026-08'];
const CORPUS = join(SHARED_DIR, 'corpus');

function transcripts(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'licenses' ? [] : transcripts(path);
    // Subagent .meta.json files are metadata, not conversations.
    return /\.(jsonl|json|lhar)$/.test(name) &&
      !/(schema|expected-tool-calls|\.meta)\.json$/.test(name)
      ? [path]
      : [];
  });
}

const FILES = [
  ...transcripts(join(CORPUS, 'agent-transcripts')),
  ...transcripts(join(CORPUS, 'agent-transcripts-2026')),
  join(import.meta.dirname, '../test/fixtures/lhar/openclaw-convo.lhar'),
];

describe("import's output under the spec's reader rules", () => {
  it('covers both corpora', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(30);
  });

  for (const path of FILES) {
    it(`${path.slice(CORPUS.length + 1)} reads under every base, storage and plain alike`, async () => {
      const storage = await runCli(['import', path]);
      const plain = await runCli(['import', '--encoding', 'plain', path]);
      expect(storage.code).toBe(0);
      expect(plain.code).toBe(0);
      for (const base of BASES) {
        const fromStorage = parseEventsText(storage.stdout, 'storage', undefined, base);
        const fromPlain = parseEventsText(plain.stdout, 'plain', undefined, base);
        expect(fromStorage.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(fromPlain.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(fromStorage.elements).toEqual(fromPlain.elements);
        expect(fromStorage.elements?.length).toBeGreaterThan(0);
      }
    });
  }
});
