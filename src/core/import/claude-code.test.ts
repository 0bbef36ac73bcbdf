import { describe, expect, it } from 'vitest';
import type { StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';
import { accountImport } from './loss-guard.ts';
import { readRecordedUsage } from './recorded-usage.ts';

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
  it('counts a tool_use without a name as left out, as every format does', () => {
    const result = importTranscript(
      lines(
        user('u1', null, 'list files'),
        assistant('a2', 'u1', 'msg_1', [
          { type: 'text', text: 'Listing.' },
          { type: 'tool_use', id: 't1', input: { command: 'ls' } },
        ]),
      ),
    );
    const account = accountImport(result, false);
    expect(account.importedCalls).toBe(0);
    expect(account.leftOut).toEqual([{ code: 'claude-code/bad-tool-use', calls: 1 }]);
    expect(account.unexplained).toBe(0);
  });

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
    // The response's first event also says what recorded it (these lines name no version or model).
    expect(result.elements?.[2]?.metadata).toEqual({
      anthropic_signature: 'c2ln',
      recorded_by: { runtime: 'claude-code' },
    });
    expect(result.notes.map((n) => n.code)).toContain('claude-code/repeated-call');
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

  it('lists its notes in the order of their first line, as a reader meets them', () => {
    // Line 2 is cut mid-write; the sidechain on line 3 is noted while reading,
    // the unreadable line only after: the summary must still list line 2 first.
    const text = [
      JSON.stringify(user('u1', null, 'go')),
      '{"type":"user","uuid":"u2","mess',
      JSON.stringify(
        assistant('s3', 'u1', 'm9', [{ type: 'text', text: 'sub' }], { isSidechain: true }),
      ),
      JSON.stringify(user('u4', 'u1', '<command-caveat>…</command-caveat>', { isMeta: true })),
      JSON.stringify(assistant('a5', 'u1', 'm1', [{ type: 'text', text: 'done' }])),
    ].join('\n');
    const result = importTranscript(text);
    expect(result.notes.map((n) => n.line)).toEqual([2, 3, 4]);
  });

  it('imports a compacted session whole, its compact_boundary a compaction event with the summary (not a user message)', () => {
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
      'compaction',
      'turn_start',
      'user later question',
    ]);
    expect(result.elements?.[3]).toEqual({
      type: 'compaction',
      timestamp: '2026-03-01 10:00:03.0',
      from_turn: 0,
      to_turn: 0,
      summary: { summary: 'This session is being continued from a previous conversation…' },
    });
    const codes = result.notes.map((n) => n.code);
    expect(codes).toContain('claude-code/compact-boundary');
    expect(codes).toContain('claude-code/compact-summary');
  });

  it('opens a new turn after a compact_boundary where Claude Code went on by itself (auto-compact)', () => {
    const text = lines(
      user('u1', null, 'long task'),
      assistant('a2', 'u1', 'm1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]),
      user('u3', 'a2', [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b4',
        parentUuid: null,
        logicalParentUuid: 'u3',
        timestamp: at(4),
        compactMetadata: { trigger: 'auto', preTokens: 160000 },
      },
      user('u5', 'b4', 'Summary of the long task so far.', { isCompactSummary: true }),
      assistant('a6', 'u5', 'm2', [{ type: 'text', text: 'going on' }]),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual([
      'turn_start',
      'user long task',
      'call t1 Bash',
      'result t1',
      'compaction',
      'turn_start',
      'says going on',
    ]);
    expect(result.elements?.[4]).toMatchObject({ from_turn: 0, to_turn: 0 });
  });

  it('keeps the history as it was at a compact_boundary with no summary line, and says so', () => {
    const text = lines(
      user('u1', null, 'q'),
      assistant('a2', 'u1', 'm1', [{ type: 'text', text: 'a' }]),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b3',
        parentUuid: 'a2',
        timestamp: at(3),
      },
      user('u4', 'b3', 'next'),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual([
      'turn_start',
      'user q',
      'says a',
      'turn_start',
      'user next',
    ]);
    expect(result.notes.map((n) => n.code)).toContain('claude-code/compact-without-summary');
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

  it('reads a history written twice on resume once: each call and result once, in order (class 1)', () => {
    const first = [
      user('u1', null, 'fix it'),
      assistant('a2', 'u1', 'msg_1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]),
      user('u3', 'a2', [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]),
      assistant('a4', 'u3', 'msg_2', [{ type: 'text', text: 'fixed' }]),
    ];
    // The resume writes the same history again under new line uuids, then goes on.
    const again = [
      user('v5', null, 'fix it'),
      assistant('v6', 'v5', 'msg_1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]),
      user('v7', 'v6', [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]),
      assistant('v8', 'v7', 'msg_2', [{ type: 'text', text: 'fixed' }]),
      user('u9', 'v8', 'and test it'),
      assistant('a10', 'u9', 'msg_3', [{ type: 'tool_use', id: 't2', name: 'Bash', input: {} }]),
      user('u11', 'a10', [{ type: 'tool_result', tool_use_id: 't2', content: 'passed' }]),
    ];
    const expected = [
      'turn_start',
      'user fix it',
      'call t1 Bash',
      'result t1',
      'says fixed',
      'turn_start',
      'user and test it',
      'call t2 Bash',
      'result t2',
    ];
    expect(shape(importTranscript(lines(...first, ...again)).elements)).toEqual(expected);
    // The copy may also hang off the old history's last line: the chain runs through both.
    const linked = again.map((line, index) => (index === 0 ? { ...line, parentUuid: 'a4' } : line));
    const result = importTranscript(lines(...first, ...linked));
    expect(shape(result.elements)).toEqual(expected);
    const codes = result.notes.map((n) => n.code);
    expect(codes).toContain('claude-code/repeated-result');
    expect(codes).toContain('claude-code/repeated-message');
  });

  it('reads lines without parentUuid in file order (class 2)', () => {
    const bare = (record: Record<string, unknown>) => {
      const { parentUuid: _parent, ...rest } = record;
      return rest;
    };
    const text = lines(
      bare(user('u1', null, 'list')),
      bare(assistant('a2', '', 'm1', [{ type: 'tool_use', id: 't1', name: 'LS', input: {} }])),
      bare(user('u3', null, [{ type: 'tool_result', tool_use_id: 't1', content: 'a' }])),
      bare(assistant('a4', '', 'm2', [{ type: 'text', text: 'one file' }])),
    );
    const result = importTranscript(text);
    expect(shape(result.elements)).toEqual([
      'turn_start',
      'user list',
      'call t1 LS',
      'result t1',
      'says one file',
    ]);
    expect(result.notes.map((n) => n.code)).not.toContain('claude-code/branch');
  });

  describe('a gap is a gap, not a root (class 7)', () => {
    const chain = [
      user('u1', null, 'start'),
      assistant('a2', 'u1', 'm1', [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }]),
      user('u3', 'a2', [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }]),
      assistant('a4', 'u3', 'm2', [{ type: 'tool_use', id: 't2', name: 'Read', input: {} }]),
      user('u5', 'a4', [{ type: 'tool_result', tool_use_id: 't2', content: 'y' }]),
      assistant('a6', 'u5', 'm3', [{ type: 'text', text: 'done' }]),
    ];
    const whole = [
      'turn_start',
      'user start',
      'call t1 Read',
      'result t1',
      'call t2 Read',
      'result t2',
      'says done',
    ];
    it('a line that does not read (cut mid-write) keeps the history before it', () => {
      const text = chain
        .map((r, i) => (i === 2 ? JSON.stringify(r).slice(0, 40) : JSON.stringify(r)))
        .join('\n');
      const result = importTranscript(text);
      expect(result.diagnostics.map((d) => d.line)).toEqual([3]);
      expect(shape(result.elements)).toEqual(whole.filter((e) => e !== 'result t1'));
      expect(result.notes.map((n) => n.code)).toContain('claude-code/gap');
    });
    it('a self-parent keeps the history before it', () => {
      const text = lines(...chain.map((r, i) => (i === 3 ? { ...r, parentUuid: 'a4' } : r)));
      expect(shape(importTranscript(text).elements)).toEqual(whole);
    });
    it('a duplicated line counts once, and a file appended to itself is one conversation', () => {
      const twice = lines(...chain.slice(0, 4), chain[3] as object, ...chain.slice(4));
      expect(shape(importTranscript(twice).elements)).toEqual(whole);
      const doubled = `${lines(...chain)}\n${lines(...chain)}`;
      const result = importTranscript(doubled);
      expect(shape(result.elements)).toEqual(whole);
      // Read once, its calls are imported: the note leaves none out.
      const note = result.notes.find((n) => n.code === 'claude-code/duplicate-line');
      expect(note).toMatchObject({ count: 6 });
      expect(note?.calls).toBeUndefined();
    });
  });

  it('lists inline subagents as conversations of their own and imports one on request (class 6)', () => {
    const text = lines(
      user('u1', null, 'research'),
      assistant('a2', 'u1', 'm1', [{ type: 'tool_use', id: 'task1', name: 'Task', input: {} }]),
      user('s3', null, 'look around', { isSidechain: true, agentId: 'ag1' }),
      assistant('s4', 's3', 'm9', [{ type: 'tool_use', id: 'g1', name: 'Grep', input: {} }], {
        isSidechain: true,
        agentId: 'ag1',
      }),
      user('s5', 's4', [{ type: 'tool_result', tool_use_id: 'g1', content: 'hit' }], {
        isSidechain: true,
        agentId: 'ag1',
      }),
      user('u6', 'a2', [{ type: 'tool_result', tool_use_id: 'task1', content: 'found it' }]),
    );
    const main = importTranscript(text);
    expect(shape(main.elements)).toEqual([
      'turn_start',
      'user research',
      'call task1 Task',
      'result task1',
    ]);
    expect(main.subagents).toEqual([{ agentId: 'ag1', lines: 3, calls: 1, line: 3 }]);
    expect(main.notes.find((n) => n.code === 'claude-code/sidechain')).toMatchObject({ calls: 1 });
    const agent = importTranscript(text, { agent: 'ag1' });
    expect(shape(agent.elements)).toEqual([
      'turn_start',
      'user look around',
      'call g1 Grep',
      'result g1',
    ]);
  });

  it('reads a session that opens with 60 summary lines, detected and forced (class 10)', () => {
    const summaries = Array.from({ length: 60 }, (_, i) => ({
      type: 'summary',
      summary: `part ${i}`,
      leafUuid: 'a2',
    }));
    const text = lines(
      ...summaries,
      user('u1', null, 'hi'),
      assistant('a2', 'u1', 'm1', [{ type: 'text', text: 'hello' }]),
    );
    for (const options of [{}, { from: 'claude-code' as const }]) {
      const result = importTranscript(text, options);
      expect(result.format).toBe('claude-code');
      expect(shape(result.elements)).toEqual(['turn_start', 'user hi', 'says hello']);
    }
  });

  it('takes 2026 metadata lines without uuid as bookkeeping, and notes the calls Claude Code cleared', () => {
    const text = lines(
      { type: 'ai-title', title: 'A fake title', sessionId: 's' },
      { type: 'worktree-state', state: {}, sessionId: 's' },
      { type: 'pr-link', url: 'https://example.invalid/1', sessionId: 's' },
      { type: 'something-new', sessionId: 's' },
      user('u1', null, 'go'),
      assistant('a2', 'u1', 'm1', [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }]),
      user('u3', 'a2', [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content:
            '<persisted-output>Output too large (1 MB). Full output saved to: tool-results/t1.txt\n\nPreview (first 2 KB):\nabc</persisted-output>',
        },
      ]),
      {
        type: 'system',
        subtype: 'microcompact_boundary',
        uuid: 'b4',
        parentUuid: 'u3',
        timestamp: at(4),
        microcompactMetadata: {
          trigger: 'auto',
          preTokens: 9,
          tokensSaved: 5,
          compactedToolIds: ['t1'],
        },
      },
      { type: 'compact_boundary', uuid: 'b5', parentUuid: null, logicalParentUuid: 'b4' },
      user('u6', 'b5', 'more'),
    );
    const result = importTranscript(text);
    expect(result.diagnostics).toEqual([]);
    expect(shape(result.elements)).toEqual([
      'turn_start',
      'user go',
      'call t1 Read',
      'result t1',
      'turn_start',
      'user more',
    ]);
    const codes = result.notes.map((n) => n.code);
    for (const code of [
      'claude-code/metadata',
      'claude-code/microcompact-boundary',
      'claude-code/cleared-by-agent',
      'claude-code/compact-boundary',
      'claude-code/persisted-output',
    ]) {
      expect(codes).toContain(code);
    }
  });

  it('keeps message.usage once per response, on its first event, from the last line of it', () => {
    const usage = (output: number) => ({
      input_tokens: 3,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 2000,
      output_tokens: output,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 },
    });
    const withUsage = (record: ReturnType<typeof assistant>, output: number) => ({
      ...record,
      message: { ...record.message, usage: usage(output) },
    });
    const text = lines(
      user('u1', null, 'go'),
      withUsage(assistant('a2', 'u1', 'msg_1', [{ type: 'text', text: 'looking' }]), 5),
      withUsage(
        assistant('a3', 'a2', 'msg_1', [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }]),
        40,
      ),
    );
    const elements = importTranscript(text).elements ?? [];
    const annotated = elements.filter((e) => e.metadata !== undefined);
    expect(annotated).toHaveLength(1);
    expect(annotated[0]).toMatchObject({ type: 'chat_response', message: 'looking' });
    expect(annotated[0]?.metadata).toEqual({
      recorded_usage: {
        prompt_tokens: 2103,
        cache_read_tokens: 2000,
        cache_write_tokens: 100,
        output_tokens: 40,
        cache_write_5m_tokens: 100,
        cache_write_1h_tokens: 0,
      },
      recorded_by: { runtime: 'claude-code' },
    });
  });

  it('keeps no usage whose prompt total passes 2^53 (the replay could not read it back)', () => {
    // 9,007,199,254,717,048 input + 23,610 read + 334 written is past Number.MAX_SAFE_INTEGER.
    const record = assistant('a2', 'u1', 'msg_1', [{ type: 'text', text: 'looking' }]);
    const text = lines(user('u1', null, 'go'), {
      ...record,
      message: {
        ...record.message,
        usage: {
          input_tokens: 9007199254717048,
          cache_creation_input_tokens: 334,
          cache_read_input_tokens: 23610,
          output_tokens: 89,
        },
      },
    });
    const elements = importTranscript(text).elements ?? [];
    expect(elements.some((e) => e.type === 'chat_response')).toBe(true);
    expect(elements.filter((e) => readRecordedUsage(e.metadata) !== undefined)).toEqual([]);
  });
});

describe('the title of a Claude Code session (issue 24, item 14)', () => {
  it('is the first text the user wrote, not the wrappers of /clear, command output or reminders', () => {
    const text = lines(
      user(
        'u1',
        null,
        '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
      ),
      user('u2', 'u1', '<local-command-stdout></local-command-stdout>'),
      user(
        'u3',
        'u2',
        '<system-reminder>\nAs you answer, use the todo list.\n</system-reminder>\nFix the flaky login test',
      ),
    );
    expect(importTranscript(text).title).toBe('Fix the flaky login test');
  });

  it('skips what the IDE extension adds: the opened file and the selection (issue 41)', () => {
    const text = lines(
      user(
        'u1',
        null,
        '<ide_opened_file>The user opened the file /repo/src/app.ts in the IDE. This may or may not be related to the current task.</ide_opened_file>\n<ide_selection>The user selected lines 3 to 4 of /repo/src/app.ts:\nconst a = 1;\n</ide_selection>\nRename a to count',
      ),
    );
    expect(importTranscript(text).title).toBe('Rename a to count');
  });

  it('is absent when nothing the user wrote is left', () => {
    const text = lines(user('u1', null, '<command-name>/clear</command-name>'));
    expect(importTranscript(text).title).toBeUndefined();
  });
});
