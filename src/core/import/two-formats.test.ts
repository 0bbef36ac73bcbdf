/**
 * Issue 43, item 10: a file holding two formats one after the other (`cat
 * a.jsonl b.jsonl`) is refused, naming the line where the second starts,
 * instead of being read as the first with the other's calls lost.
 */
import { describe, expect, it } from 'vitest';
import { call, jsonl, result, user } from '../../test/import-classes.ts';
import { importTranscript } from './import.ts';

/** A Claude Code session of 3 lines: the prompt, a Bash call t1 and its result. */
const CLAUDE_CODE = jsonl(user('u1', null, 'go'), call('a2', 'u1', 't1'), result('u3', 'a2', 't1'));

/** A Codex rollout of 4 lines: the session, a prompt, a Read call c1 and its output. */
const CODEX = jsonl(
  { timestamp: '2026-03-02T03:04:00.000Z', type: 'session_meta', payload: { id: 's', cwd: '/w' } },
  {
    timestamp: '2026-03-02T03:04:01.000Z',
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
  },
  {
    timestamp: '2026-03-02T03:04:02.000Z',
    type: 'response_item',
    payload: { type: 'function_call', call_id: 'c1', name: 'Read', arguments: '{}' },
  },
  {
    timestamp: '2026-03-02T03:04:03.000Z',
    type: 'response_item',
    payload: { type: 'function_call_output', call_id: 'c1', output: 'fake' },
  },
);

describe('a file holding two formats (issue 43, item 10)', () => {
  it('a Claude Code session followed by a Codex rollout: refused at line 4, where Codex starts', () => {
    const read = importTranscript(`${CLAUDE_CODE}\n${CODEX}`);
    expect(read.elements).toBeUndefined();
    expect(read.diagnostics).toMatchObject([{ line: 4, column: 1, code: 'import/two-formats' }]);
    const message = read.diagnostics[0]?.message ?? '';
    expect(message).toMatch(/Claude Code session.*from line 4 on it is a Codex CLI rollout/);
    expect(message).toMatch(/split the file at line 4/);
  });

  it('the other way round: refused at line 5, where Claude Code starts', () => {
    const read = importTranscript(`${CODEX}\n${CLAUDE_CODE}`);
    expect(read.diagnostics).toMatchObject([{ line: 5, code: 'import/two-formats' }]);
  });

  it('refused too when the first format is asked for (--from)', () => {
    const read = importTranscript(`${CLAUDE_CODE}\n${CODEX}`, { from: 'claude-code' });
    expect(read.diagnostics).toMatchObject([{ line: 4, code: 'import/two-formats' }]);
  });

  it('each part alone reads', () => {
    expect(importTranscript(CLAUDE_CODE).format).toBe('claude-code');
    expect(importTranscript(CODEX).format).toBe('codex');
  });
});
