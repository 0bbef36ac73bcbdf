/**
 * Issue 20, class 1, in every format: a call written again (its id, name
 * and arguments) is one call, and its result written again is read once
 * (StreamBuilder.toolCall and toolResult). Issue 43, item 9: a different
 * call under an id used before is another call, kept. The files and their hand counts are the reproducers the CLI
 * and the page read too (src/test/import-classes.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  jsonl,
  REPEATED_ID_REPRODUCERS,
  REUSED_ID_REPRODUCERS,
} from '../../test/import-classes.ts';
import { importTranscript } from './import.ts';
import { accountImport, describeImportAccount } from './loss-guard.ts';

/** The formats whose reproducer writes the same lines again byte for byte (no line has an id of its own). */
const LINES_WITHOUT_IDS = new Set(['kimi-cli']);

/** How many events of `type` each key (the call's name, or its id) has. */
function tally(
  elements: readonly { type?: unknown; name?: unknown; id?: unknown }[],
  type: string,
  key: 'name' | 'id',
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const element of elements) {
    if (element.type !== type) continue;
    const name = String(element[key]);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

describe('a call and its result written twice count once, in every format (class 1)', () => {
  for (const [build, format] of REPEATED_ID_REPRODUCERS) {
    const reproducer = build();
    it(`${format}: ${reproducer.fileName}`, () => {
      const result = importTranscript(reproducer.text);
      expect(result.format).toBe(format);
      expect(result.diagnostics).toEqual([]);
      const elements = result.elements ?? [];
      expect(tally(elements, 'tool_call_request', 'name')).toEqual(reproducer.calls);
      // c1's result is in the file twice, c2's once: each is read once.
      expect(tally(elements, 'tool_call_response', 'id')).toEqual({ c1: 1, c2: 1 });
      expect(result.sourceCalls).toBe(2);
      if (LINES_WITHOUT_IDS.has(format)) {
        // Its lines name nothing of their own: the call's line and its result's, written
        // again as they were, are read once before any call is.
        expect(result.notes).toContainEqual(
          expect.objectContaining({ code: `${format}/repeated-line`, count: 2 }),
        );
        return;
      }
      expect(result.notes).toContainEqual(
        expect.objectContaining({ code: `${format}/repeated-result`, count: 1 }),
      );
      expect(result.notes).toContainEqual(
        expect.objectContaining({ code: `${format}/repeated-call`, count: 1 }),
      );
    });
  }
});

describe('a different call under a used id is kept, in every format (issue 43, item 9)', () => {
  for (const [build, format] of REUSED_ID_REPRODUCERS) {
    const reproducer = build();
    it(`${format}: ${reproducer.fileName}`, () => {
      const result = importTranscript(reproducer.text);
      expect(result.format).toBe(format);
      expect(result.diagnostics).toEqual([]);
      const elements = result.elements ?? [];
      // By hand: c1 Read, c1 Bash (another call), c2 Bash, each with its result.
      expect(tally(elements, 'tool_call_request', 'name')).toEqual(reproducer.calls);
      expect(tally(elements, 'tool_call_request', 'id')).toEqual({ c1: 1, 'c1#2': 1, c2: 1 });
      expect(tally(elements, 'tool_call_response', 'id')).toEqual({ c1: 1, 'c1#2': 1, c2: 1 });
      expect(result.sourceCalls).toBe(3);
      expect(result.notes).toContainEqual(
        expect.objectContaining({ code: `${format}/reused-call-id`, count: 1 }),
      );
      expect(describeImportAccount(result, accountImport(result))).toContain(
        '3 tool calls in the file, all counted',
      );
    });
  }

  it('Kimi CLI: a Name:N counter that restarts keeps every call, each with its own result', () => {
    const call = (id: string, name: string, args: object) => ({
      role: 'assistant',
      content: [],
      tool_calls: [{ type: 'function', id, function: { name, arguments: JSON.stringify(args) } }],
    });
    const answer = (id: string, text: string) => ({
      role: 'tool',
      tool_call_id: id,
      content: text,
    });
    const text = jsonl(
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'go' },
      call('Bash:0', 'Bash', { command: 'ls' }),
      answer('Bash:0', 'a.txt'),
      call('ReadFile:1', 'ReadFile', { path: 'a.txt' }),
      answer('ReadFile:1', 'fake contents'),
      // The counter restarts: Bash:0 again, another call.
      { role: '_checkpoint', id: 1 },
      { role: 'user', content: 'more' },
      call('Bash:0', 'Bash', { command: 'pwd' }),
      answer('Bash:0', '/fake'),
    );
    const result = importTranscript(text);
    const calls = (result.elements ?? []).filter((e) => e.type === 'tool_call_request');
    const results = (result.elements ?? []).filter((e) => e.type === 'tool_call_response');
    // By hand: three calls (Bash, ReadFile, Bash), three results.
    expect(calls.map((e) => [e.id, e.name, e.arguments])).toEqual([
      ['Bash:0', 'Bash', { command: 'ls' }],
      ['ReadFile:1', 'ReadFile', { path: 'a.txt' }],
      ['Bash:0#2', 'Bash', { command: 'pwd' }],
    ]);
    expect(results.map((e) => [e.id, e.content])).toEqual([
      ['Bash:0', 'a.txt'],
      ['ReadFile:1', 'fake contents'],
      ['Bash:0#2', '/fake'],
    ]);
    expect(describeImportAccount(result, accountImport(result))).toContain(
      '3 tool calls in the file, all counted',
    );
  });

  it('Claude Code: a different tool_use under a used id counts as a call of the file', () => {
    const line = (
      uuid: string,
      parent: string | null,
      type: string,
      content: unknown,
      id?: string,
    ) => ({
      type,
      uuid,
      parentUuid: parent,
      message: { role: type, content, ...(id ? { id } : {}) },
    });
    const text = jsonl(
      line('u1', null, 'user', 'go'),
      line(
        'a2',
        'u1',
        'assistant',
        [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }],
        'm1',
      ),
      line('u3', 'a2', 'user', [{ type: 'tool_result', tool_use_id: 't1', content: 'one' }]),
      line(
        'a4',
        'u3',
        'assistant',
        [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }],
        'm2',
      ),
      line('u5', 'a4', 'user', [{ type: 'tool_result', tool_use_id: 't1', content: 'two' }]),
    );
    const result = importTranscript(text);
    expect(tally(result.elements ?? [], 'tool_call_request', 'name')).toEqual({ Read: 1, Bash: 1 });
    expect(describeImportAccount(result, accountImport(result))).toContain(
      '2 tool calls in the file, all counted',
    );
  });
});
