/**
 * Claude Code reproducers built from the corpus files (issue 20): a line cut
 * mid-write, and the usage Claude Code records per API response.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { isJsonObject } from '../json/values.ts';
import { importTranscript } from './import.ts';

const CORPUS = join(SHARED_DIR, 'corpus');

function calls(text: string): number {
  return (importTranscript(text).elements ?? []).filter((e) => e.type === 'tool_call_request')
    .length;
}

describe('Claude Code from the corpus', () => {
  it('keeps the history before a line cut mid-write (toolpath__convo.jsonl, line 60; class 7)', () => {
    const text = readFileSync(
      join(CORPUS, 'agent-transcripts', 'claude-code', 'toolpath__convo.jsonl'),
      'utf8',
    );
    const lines = text.split('\n');
    const cut = lines.map((line, i) => (i === 59 ? line.slice(0, line.length >> 1) : line));
    const result = importTranscript(cut.join('\n'));
    expect(result.diagnostics.map((d) => d.line)).toEqual([60]);
    // The fixture table's 19 calls; line 60 holds none of them (a result, counted by hand).
    expect(calls(text)).toBe(19);
    expect(calls(cut.join('\n'))).toBe(19);
    // Appended to itself, it is still the one conversation.
    expect(calls(`${text}\n${text}`)).toBe(19);
  });

  it('keeps message.usage once per response (kimi-cli__2d…, summed as FORMATS.md counts it)', () => {
    const text = readFileSync(
      join(
        CORPUS,
        'agent-transcripts-2026',
        'claude-code',
        'kimi-cli__2d__58ad9e0d5c__1__full.jsonl',
      ),
      'utf8',
    );
    const sum = new Map<string, number>();
    let responses = 0;
    for (const element of importTranscript(text).elements ?? []) {
      const usage = isJsonObject(element.metadata) ? element.metadata.recorded_usage : undefined;
      if (!isJsonObject(usage)) continue;
      responses++;
      for (const [key, value] of Object.entries(usage)) {
        sum.set(key, (sum.get(key) ?? 0) + Number(value));
      }
    }
    // FORMATS.md: 14 responses, 18 input, 12,925 cache-write (5m), 335,432 cache-read, 1,824 output.
    expect(responses).toBe(14);
    expect(Object.fromEntries(sum)).toEqual({
      prompt_tokens: 18 + 12_925 + 335_432,
      cache_read_tokens: 335_432,
      cache_write_tokens: 12_925,
      output_tokens: 1_824,
      cache_write_5m_tokens: 12_925,
      cache_write_1h_tokens: 0,
    });
  });
});
