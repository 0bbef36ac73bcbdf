/**
 * Issue 43, item 8: a line written twice (a resume, a logger appending
 * again) is read once, with a note, its messages and recorded usage with
 * it, in Copilot CLI, Pi, OpenClaw, Amp's stream and Kimi CLI. Expected
 * figures are counted by hand (or, for the corpus files, by a script
 * independent of the importers: noted beside each).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { jsonl } from '../../test/import-classes.ts';
import type { StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';
import { accountImport, describeImportAccount } from './loss-guard.ts';
import { readRecordedUsage } from './recorded-usage.ts';
import type { ImportResult } from './types.ts';

const CORPUS = join(SHARED_DIR, 'corpus', 'agent-transcripts-2026');
const corpus = (path: string) => readFileSync(join(CORPUS, path), 'utf8').trimEnd();
const EXPECTED_CALLS = JSON.parse(readFileSync(join(CORPUS, 'expected-tool-calls.json'), 'utf8'));

/** The recorded prompt tokens (input, cache reads and writes) summed over the import. */
function recordedPrompt(result: ImportResult): number {
  let sum = 0;
  for (const element of result.elements ?? []) {
    const usage = readRecordedUsage(element.metadata);
    if (usage) sum += usage.prompt_tokens;
  }
  return sum;
}

function count(result: ImportResult, type: StreamElement['type']): number {
  return (result.elements ?? []).filter((element) => element.type === type).length;
}

function callsPerTool(result: ImportResult): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const element of result.elements ?? []) {
    if (element.type !== 'tool_call_request') continue;
    const name = String(element.name);
    calls[name] = (calls[name] ?? 0) + 1;
  }
  return calls;
}

const account = (result: ImportResult) => describeImportAccount(result, accountImport(result));

describe('a line written twice is read once (issue 43, item 8)', () => {
  it('Amp --stream-json appended to itself: the bill once (231,452 recorded input tokens, not 462,904)', () => {
    const once = corpus('amp/toolpath__stream.jsonl');
    const result = importTranscript(`${once}\n${once}`);
    expect(result.format).toBe('amp');
    // By a script over the file's 12 assistant lines: input + cache read + cache creation.
    expect(recordedPrompt(result)).toBe(231_452);
    expect(callsPerTool(result)).toEqual(EXPECTED_CALLS['amp/toolpath__stream.jsonl']);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'amp/repeated-line', count: 26, line: 27 }),
    );
    expect(account(result)).toContain('11 tool calls in the file, all counted');
  });

  it('Kimi CLI appended to itself: each call, result and prompt once', () => {
    const once = corpus('kimi-cli/kimi-cli__531d195b-6436-426e-b010-4bf723a992de.jsonl');
    const result = importTranscript(`${once}\n${once}`);
    expect(result.format).toBe('kimi-cli');
    expect(callsPerTool(result)).toEqual(
      EXPECTED_CALLS['kimi-cli/kimi-cli__531d195b-6436-426e-b010-4bf723a992de.jsonl'],
    );
    // The file has 1 user line and 27 tool lines (counted with grep).
    expect(count(result, 'chat_request')).toBe(1);
    expect(count(result, 'tool_call_response')).toBe(27);
    expect(account(result)).toContain('27 tool calls in the file, all counted');
  });

  it('Kimi CLI: a prompt typed twice, far apart, is two prompts (even with the same answer); a line repeated in place is one', () => {
    const result = importTranscript(
      jsonl(
        { role: '_checkpoint', id: 0 },
        { role: 'user', content: 'continue' },
        { role: 'assistant', content: [{ type: 'text', text: 'fake one' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'fake one' }] },
        { role: 'user', content: 'continue' },
        // The same short answer again: a prompt and its answer repeated, yet two of each.
        { role: 'assistant', content: [{ type: 'text', text: 'fake one' }] },
      ),
    );
    expect(count(result, 'chat_request')).toBe(2);
    expect(count(result, 'chat_response')).toBe(2);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'kimi-cli/repeated-line', count: 1, line: 4 }),
    );
  });

  for (const format of ['pi', 'openclaw'] as const) {
    it(`${format}: an assistant entry written twice counts its usage once`, () => {
      const at = '2026-03-01T10:00:00.000Z';
      const mark =
        format === 'openclaw'
          ? [{ type: 'custom', customType: 'model-snapshot', data: {}, id: 'k', parentId: null }]
          : [];
      const answer = {
        type: 'message',
        id: 'e2',
        parentId: 'e1',
        timestamp: at,
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'fake answer' }],
          usage: { input: 100, cacheRead: 20, cacheWrite: 0, output: 5 },
        },
      };
      const result = importTranscript(
        jsonl(
          { type: 'session', version: 3, id: 's', timestamp: at, cwd: '/' },
          ...mark,
          {
            type: 'message',
            id: 'e1',
            parentId: mark.length > 0 ? 'k' : null,
            timestamp: at,
            message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
          },
          answer,
          answer,
        ),
      );
      expect(result.format).toBe(format);
      expect(count(result, 'chat_response')).toBe(1);
      // By hand: input 100 + cache read 20 + cache write 0, once.
      expect(recordedPrompt(result)).toBe(120);
      expect(result.notes).toContainEqual(
        expect.objectContaining({ code: `${format}/repeated-line`, count: 1 }),
      );
    });
  }

  it('Copilot CLI: an event written twice (its id and body) is read once', () => {
    const event = (id: string, type: string, data: object) => ({
      type,
      id,
      timestamp: '2026-06-30T10:00:00.000Z',
      parentId: null,
      data,
    });
    const answer = event('e3', 'assistant.message', { content: 'fake answer', toolRequests: [] });
    const result = importTranscript(
      jsonl(
        event('e1', 'session.start', { sessionId: 's' }),
        event('e2', 'user.message', { content: 'go' }),
        answer,
        answer,
      ),
    );
    expect(result.format).toBe('copilot-cli');
    expect(count(result, 'chat_response')).toBe(1);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'copilot-cli/repeated-line', count: 1, line: 4 }),
    );
  });
});
