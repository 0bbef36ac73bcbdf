/**
 * Amp `--stream-json` lines as the loss guard needs them read: a line type
 * newer than the importer is a note, not a refusal of the file, and a call
 * the importer cannot import is counted as left out.
 */
import { describe, expect, it } from 'vitest';
import { importTranscript } from './import.ts';
import { accountImport } from './loss-guard.ts';

const THREAD = 'T-00000000-0000-4000-8000-000000000000';

function stream(...lines: Record<string, unknown>[]): string {
  return lines.map((line) => JSON.stringify({ ...line, session_id: THREAD })).join('\n');
}

const PROMPT = {
  type: 'user',
  message: { role: 'user', content: [{ type: 'text', text: 'List the files.' }] },
};

function assistant(...content: unknown[]) {
  return { type: 'assistant', message: { role: 'assistant', content } };
}

describe('Amp --stream-json', () => {
  it('notes a line type it does not know and reads the rest', () => {
    const result = importTranscript(
      stream(
        PROMPT,
        { type: 'stream_event', event: { type: 'message_start' } },
        assistant({ type: 'tool_use', id: 'TU-1', name: 'shell_command', input: {} }),
      ),
    );
    expect(result.format).toBe('amp');
    expect(result.notes.find((n) => n.code === 'amp/stream_event')).toMatchObject({
      count: 1,
      line: 2,
    });
    expect((result.elements ?? []).filter((e) => e.type === 'tool_call_request')).toHaveLength(1);
  });

  it('counts a tool_use without a name as left out', () => {
    const result = importTranscript(
      stream(
        PROMPT,
        assistant({ type: 'text', text: 'Listing.' }, { type: 'tool_use', id: 'TU-1', input: {} }),
      ),
    );
    const account = accountImport(result, false);
    expect(account.importedCalls).toBe(0);
    expect(account.leftOut).toEqual([{ code: 'amp/bad-call', calls: 1 }]);
    expect(account.unexplained).toBe(0);
  });
});
