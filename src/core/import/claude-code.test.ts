import { describe, expect, it } from 'vitest';
import type { StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';

const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');
const at = (s: number) => `2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z`;
const user = (uuid: string, parentUuid: string | null, content: unknown, extra = {}) => ({
  type: 'user',
  uuid,
  parentUuid,
  timestamp: at(Number(uuid.replace(/\D/g, '')) || 0),
  sessionId: 's',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (
  uuid: string,
  parentUuid: string,
  id: string,
  content: unknown[],
  extra = {},
) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  timestamp: at(Number(uuid.replace(/\D/g, '')) || 0),
  sessionId: 's',
  message: { id, role: 'assistant', content },
  ...extra,
});
const shape = (elements: readonly StreamElement[] | undefined) =>
  (elements ?? []).map((e) =>
    e.type === 'tool_call_request'
      ? `call ${String(e.id)} ${String(e.name)}`
      : e.type === 'tool_call_response'
        ? `result ${String(e.id)}${e.is_error ? ' error' : ''}`
        : e.type === 'chat_request'
          ? `user ${String(e.content)}`
          : e.type === 'chat_response'
            ? 'reasoning' in e && !('message' in e)
              ? `thinks ${String(e.reasoning)}`
              : `says ${String(e.message)}`
            : String(e.type),
  );

describe('Claude Code sessions', () => {
  it('merges the lines of one response (same message.id) and counts a repeated block once', () => {
    const text = lines(
      user('u1', null, 'list files'),
      assistant('a2', 'u1', 'msg_1', [
        { type: 'thinking', thinking: 'look first', signature: 'c2ln' },
      ]),
      assistant('a3', 'a2', 'msg_1', [
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
      ]),
      // Claude Code may write a block again in a later line of the same response.
      assistant('a4', 'a3', 'msg_1', [
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
      ]),
      user('u5', 'a4', [
        { type: 'tool_result', tool_use_id: 't1', content: 'a.txt', is_error: false },
      ]),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual([
      'turn_start',
      'user list files',
      'thinks look first',
      'call t1 Bash',
      'result t1',
    ]);
    expect(result.elements?.[2]?.metadata).toEqual({ anthropic_signature: 'c2ln' });
    expect(result.notes.map((n) => n.code)).toContain('claude-code/repeated-block');
  });

  it('keeps tool names exactly as recorded, MCP names included, and is_error from the result', () => {
    const text = lines(
      user('u1', null, 'search'),
      assistant('a2', 'u1', 'm1', [
        { type: 'tool_use', id: 't1', name: 'mcp__github__search_code', input: {} },
      ]),
      user('u3', 'a2', [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [{ type: 'text', text: 'denied' }],
          is_error: true,
        },
      ]),
    );
    expect(shape(importTranscript(text).elements)).toEqual([
      'turn_start',
      'user search',
      'call t1 mcp__github__search_code',
      'result t1 error',
    ]);
  });

  it('follows parentUuid: a rewound branch is skipped, with a note', () => {
    const text = lines(
      user('u1', null, 'first try'),
      assistant('a2', 'u1', 'm1', [{ type: 'text', text: 'abandoned answer' }]),
      // The user rewound to the start and asked again: a new root branch.
      user('u3', null, 'second try'),
      assistant('a4', 'u3', 'm2', [{ type: 'text', text: 'kept answer' }]),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual(['turn_start', 'user second try', 'says kept answer']);
    expect(result.notes.find((n) => n.code === 'claude-code/branch')).toMatchObject({
      count: 2,
      line: 1,
    });
  });

  it('skips sidechain, meta and signature-only thinking lines, each with a note and its line', () => {
    const text = lines(
      user('u1', null, 'go'),
      user('u2', 'u1', '<command-caveat>…</command-caveat>', { isMeta: true }),
      assistant('s3', 'u2', 'm9', [{ type: 'text', text: 'subagent work' }], { isSidechain: true }),
      assistant('a4', 'u2', 'm1', [
        { type: 'thinking', thinking: '', signature: 'c2ln' },
        { type: 'text', text: 'done' },
      ]),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual(['turn_start', 'user go', 'says done']);
    const notes = Object.fromEntries(result.notes.map((n) => [n.code, n.line]));
    expect(notes).toMatchObject({
      'claude-code/meta': 2,
      'claude-code/sidechain': 3,
      'claude-code/signature-only-thinking': 4,
    });
  });

  it('imports a compacted session as it was before its compact_boundary, without the summary', () => {
    const text = lines(
      user('u1', null, 'early question'),
      assistant('a2', 'u1', 'm1', [{ type: 'text', text: 'early answer' }]),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b3',
        parentUuid: null,
        logicalParentUuid: 'a2',
        timestamp: at(3),
      },
      user('u4', 'b3', 'This session is being continued from a previous conversation…', {
        isCompactSummary: true,
      }),
      user('u5', 'u4', 'later question'),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual([
      'turn_start',
      'user early question',
      'says early answer',
      'turn_start',
      'user later question',
    ]);
    const codes = result.notes.map((n) => n.code);
    expect(codes).toContain('claude-code/compact-boundary');
    expect(codes).toContain('claude-code/compact-summary');
  });

  it('reports a malformed line with its line and column and imports the rest', () => {
    const text = `${JSON.stringify(user('u1', null, 'hi'))}\n{"type": "assistant", oops}\n${JSON.stringify(
      assistant('a3', 'u1', 'm1', [{ type: 'text', text: 'hello' }]),
    )}`;
    const result = importTranscript(text);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ line: 2, column: 23, severity: 'error' });
    expect(shape(result.elements)).toEqual(['turn_start', 'user hi', 'says hello']);
  });

  it('notes an image block instead of dropping it silently', () => {
    const text = lines(
      user('u1', null, [
        { type: 'text', text: 'look' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
      ]),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual(['turn_start', 'user look']);
    expect(result.notes).toContainEqual(
      expect.objectContaining({ code: 'claude-code/user-image', line: 1 }),
    );
  });

  it('uses the source timestamps, in JP canonical form', () => {
    const result = importTranscript(lines(user('u7', null, 'hi')));
    expect(result.elements?.[0]?.timestamp).toBe('2026-03-01 10:00:07.0');
  });
});
