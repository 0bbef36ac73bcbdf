import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { NO_STREAM_LIMITS } from '../json/limits.ts';
import { summarizeImport } from './import.ts';
import { importJsonLinesChunks } from './import-chunks.ts';

const SESSION = readFileSync(
  join(SHARED_DIR, 'corpus', 'agent-transcripts', 'claude-code', 'toolpath__convo.jsonl'),
);

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Tool calls per tool counted by hand from the session's tool_use blocks. */
function countToolUses(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { message?: { content?: unknown } };
    const content = record.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as { type?: string; id?: string; name?: string }[]) {
      if (block.type !== 'tool_use' || !block.id || !block.name || seen.has(block.id)) continue;
      seen.add(block.id);
      calls.set(block.name, (calls.get(block.name) ?? 0) + 1);
    }
  }
  return calls;
}

describe('importJsonLinesChunks', () => {
  it('imports a Claude Code session read in odd-sized chunks, every tool call counted', async () => {
    const progress: number[] = [];
    const outcome = await importJsonLinesChunks(chunks(SESSION, 777), {
      limits: NO_STREAM_LIMITS,
      onProgress: (bytes) => progress.push(bytes),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const summary = summarizeImport(outcome.imported);
    expect(summary.format).toBe('claude-code');
    const expected = countToolUses(SESSION.toString('utf8'));
    expect(new Map(summary.toolCalls.map((t) => [t.name, t.calls]))).toEqual(expected);
    expect(progress.at(-1)).toBe(SESSION.length);
    expect(outcome.eventsText.startsWith('[')).toBe(true);
  });

  it('refuses an import whose events.json is longer than the limits, with the size in the message', async () => {
    const outcome = await importJsonLinesChunks(chunks(SESSION, 4096), {
      limits: { maxTextLength: 1000, maxElements: 100_000 },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.diagnostic.code).toBe('events/too-large');
  });

  it('names the first bad line when no line is JSON', async () => {
    const bytes = new TextEncoder().encode('not json\nnor this\n');
    const outcome = await importJsonLinesChunks(chunks(bytes, 3), { limits: NO_STREAM_LIMITS });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.diagnostic.line).toBe(1);
    expect(outcome.diagnostic.code).toBe('import/bad-line');
  });
});
