/**
 * Issue 43, item 7: a Pi or OpenClaw session is a tree (`id`/`parentId`);
 * what Pi sends is the live branch, the path from the last entry back to
 * the root. A branch the user left with `/tree` is left out, counted in a
 * note with its calls, and the loss guard says so. Expected values are
 * counted by hand from the files below.
 */
import { describe, expect, it } from 'vitest';
import { jsonl } from '../../test/import-classes.ts';
import { importTranscript } from './import.ts';
import { accountImport, describeImportAccount } from './loss-guard.ts';
import type { ImportResult } from './types.ts';

const AT = '2026-03-01T10:00:00.000Z';
const header = { type: 'session', version: 3, id: 's', timestamp: AT, cwd: '/fake' };
const entry = (id: string, parentId: string | null, message: object) => ({
  type: 'message',
  id,
  parentId,
  timestamp: AT,
  message,
});
const prompt = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });
const callMessage = (id: string, command: string) => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'bash', arguments: { command } }],
});
const resultMessage = (id: string, text: string) => ({
  role: 'toolResult',
  toolCallId: id,
  content: [{ type: 'text', text }],
  isError: false,
});

/** A session whose first answer called `cat` (20,000 characters back), then the user went back with /tree. */
const LEFT_BRANCH = [
  header,
  entry('e1', null, prompt('read the fake log')),
  entry('e2', 'e1', callMessage('c1', 'cat fake.log')),
  entry('e3', 'e2', resultMessage('c1', 'x'.repeat(20_000))),
  // /tree back to e1; the next answer hangs off it.
  entry('e4', 'e1', answer('fake short answer')),
];

const account = (result: ImportResult) => describeImportAccount(result, accountImport(result));
const texts = (result: ImportResult) =>
  (result.elements ?? []).map((e) => e.content ?? e.message ?? e.name ?? e.type);

describe("a Pi session's live branch (issue 43, item 7)", () => {
  it('leaves out a branch the user left with /tree, counting its entries and calls', () => {
    const result = importTranscript(jsonl(...LEFT_BRANCH));
    expect(result.format).toBe('pi');
    expect(texts(result)).toEqual(['turn_start', 'read the fake log', 'fake short answer']);
    // By hand: e2 (the call c1) and e3 (its result) are off the branch.
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'pi/branch', count: 2, calls: 1, line: 3 }),
    );
    expect(account(result)).toContain('1 tool call in the file, 0 counted: 1 by pi/branch');
  });

  it('OpenClaw: the same, past a branch_summary, with the calls on the live branch counted', () => {
    const mark = {
      type: 'custom',
      customType: 'model-snapshot',
      data: {},
      id: 'k',
      parentId: null,
    };
    const result = importTranscript(
      jsonl(
        header,
        mark,
        entry('e1', 'k', prompt('read the fake log')),
        entry('e2', 'e1', callMessage('c1', 'cat fake.log')),
        entry('e3', 'e2', resultMessage('c1', 'x'.repeat(20_000))),
        {
          type: 'branch_summary',
          id: 'b1',
          parentId: 'e1',
          timestamp: AT,
          fromId: 'e3',
          summary: 'fake',
        },
        entry('e4', 'b1', callMessage('c2', 'head fake.log')),
        entry('e5', 'e4', resultMessage('c2', 'fake head')),
      ),
    );
    expect(result.format).toBe('openclaw');
    expect(texts(result)).toEqual(['turn_start', 'read the fake log', 'bash', 'fake head']);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'openclaw/branch', count: 2, calls: 1 }),
    );
    expect(account(result)).toContain('2 tool calls in the file, 1 counted: 1 by openclaw/branch');
  });

  it('bridges a parent that did not read, so the history before it is kept', () => {
    const lines = [
      header,
      entry('e1', null, prompt('go')),
      entry('e2', 'e1', answer('fake one')),
      entry('e3', 'e2', prompt('more')),
      entry('e4', 'e3', answer('fake two')),
    ].map((line) => JSON.stringify(line));
    // e3 cut mid-write: e4's parent is missing.
    lines[3] = (lines[3] as string).slice(0, 40);
    const result = importTranscript(lines.join('\n'));
    expect(texts(result)).toEqual(['turn_start', 'go', 'fake one', 'fake two']);
    expect(result.notes.map((note) => note.code)).toContain('pi/gap');
    expect(result.notes.map((note) => note.code)).not.toContain('pi/branch');
  });

  it('reads a session whose entries name no parent in file order', () => {
    const result = importTranscript(
      jsonl(
        header,
        { type: 'message', id: 'e1', timestamp: AT, message: prompt('go') },
        { type: 'message', id: 'e2', timestamp: AT, message: answer('fake') },
      ),
    );
    expect(texts(result)).toEqual(['turn_start', 'go', 'fake']);
  });
});
