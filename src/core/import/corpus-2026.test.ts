import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { callsPerTool, reportedCallsPerTool, walkFiles } from '../../test/corpus.ts';
import { CORPUS_2026 } from '../../test/fixtures/agent-transcripts-2026.ts';
import { importTranscript } from './import.ts';
import { readRecordedUsage } from './recorded-usage.ts';

const CORPUS = join(SHARED_DIR, 'corpus');
const DIR = join(CORPUS, 'agent-transcripts-2026');
const EXPECTED = JSON.parse(readFileSync(join(DIR, 'expected-tool-calls.json'), 'utf8')) as Record<
  string,
  Record<string, number>
>;

const fileOf = (path: string, old?: boolean) =>
  join(old ? join(CORPUS, 'agent-transcripts') : DIR, path);

describe('the 2026 agent-transcripts corpus', () => {
  it('has an independent tool count for every transcript, and a row here for each', () => {
    const files = walkFiles(DIR)
      .map((file) => relative(DIR, file))
      .filter((file) => !file.startsWith('licenses/') && !/^[A-Z-]+\.md$|^expected-/.test(file))
      // The LHAR folder holds only the format's JSON Schema, not a recording.
      .filter((file) => !file.endsWith('.schema.json'))
      .sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(
      CORPUS_2026.filter((entry) => !entry.old)
        .map((entry) => entry.path)
        .sort(),
    ).toEqual(files);
  });

  for (const entry of CORPUS_2026.filter((e) => !e.old && e.format !== null)) {
    it(`imports ${entry.path} as ${entry.format}, its calls per tool as counted without the product`, async () => {
      const result = importTranscript(readFileSync(fileOf(entry.path), 'utf8'));
      expect(result.format).toBe(entry.format);
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const elements = result.elements ?? [];
      expect(callsPerTool(elements)).toEqual(EXPECTED[entry.path]);
      expect(await reportedCallsPerTool(elements)).toEqual(EXPECTED[entry.path]);
    });
  }

  for (const entry of CORPUS_2026.filter((e) => e.usage !== undefined)) {
    it(`keeps the recorded usage of ${entry.path}, one per response, on the response's first event`, () => {
      const text = readFileSync(fileOf(entry.path, entry.old), 'utf8');
      const elements = importTranscript(text).elements ?? [];
      const kept = elements.flatMap((e) => {
        const usage = readRecordedUsage(e.metadata);
        return usage ? [usage] : [];
      });
      expect(kept).toEqual(entry.usage?.(text));
      for (const e of elements) {
        if (readRecordedUsage(e.metadata))
          expect(['chat_response', 'tool_call_request']).toContain(e.type);
      }
    });
  }
});
