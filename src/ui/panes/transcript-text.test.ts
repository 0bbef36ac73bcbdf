import { describe, expect, it } from 'vitest';
import { ORPHAN_ROW_KEY } from '../../core/counting/report.ts';
import type { TranscriptEntry } from '../../core/playground/types.ts';
import {
  buildTranscript,
  findBlockAt,
  formatHeader,
  formatLabel,
  listTools,
} from './transcript-text.ts';

const entries: TranscriptEntry[] = [
  { key: 'a', type: 'chat_request', text: 'hello', tokens: 1 },
  {
    key: 'b',
    type: 'tool_call_request',
    toolName: 'fs_read_file',
    id: 'call_1',
    text: '{"path":"a.ts","opts":{"n":1}}',
    tokens: 5,
  },
  {
    key: 'c',
    type: 'tool_call_response',
    toolName: 'fs_read_file',
    id: 'call_1',
    text: 'one\r\ntwo\rthree\nfour',
    tokens: 4,
  },
  { key: 'd', type: 'tool_call_response', id: 'orphan', text: '', tokens: 0 },
  {
    key: 'e',
    type: 'tool_call_response',
    toolName: 'cargo_check',
    id: 'call_2',
    text: 'Tool call was interrupted.',
    tokens: 6,
    sanitize: 'added',
  },
];

describe('buildTranscript', () => {
  it('writes one block per event, headed by type, tool name and id', () => {
    const { text, blocks } = buildTranscript(entries);
    expect(text).toBe(
      [
        '## chat_request',
        'hello',
        '',
        '## tool_call_request · fs_read_file · id call_1',
        '{',
        '  "path": "a.ts",',
        '  "opts": {',
        '    "n": 1',
        '  }',
        '}',
        '',
        '## tool_call_response · fs_read_file · id call_1',
        'one',
        'two',
        'three',
        'four',
        '',
        '## tool_call_response · id orphan',
        '(empty)',
        '',
        '## tool_call_response · cargo_check · id call_2 [added by sanitize]',
        'Tool call was interrupted.',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      { key: 'a', startLine: 1, endLine: 2 },
      { key: 'b', startLine: 4, endLine: 10 },
      { key: 'c', startLine: 12, endLine: 16 },
      { key: 'd', startLine: 18, endLine: 19 },
      { key: 'e', startLine: 21, endLine: 22 },
    ]);
  });

  it('block lines match the text lines', () => {
    const { text, blocks } = buildTranscript(entries);
    const lines = text.split('\n');
    for (const block of blocks) {
      expect(lines[block.startLine - 1]).toMatch(/^## /);
      expect(lines[block.endLine] ?? '').toBe('');
    }
  });

  it('keeps a request text that is not JSON as it is', () => {
    const { text } = buildTranscript([
      { key: 'x', type: 'tool_call_request', toolName: 't', text: 'not json', tokens: 1 },
    ]);
    expect(text).toBe('## tool_call_request · t\nnot json');
  });

  it('filters to one tool, and (unknown) to responses with no tool name', () => {
    expect(buildTranscript(entries, { tool: 'fs_read_file' }).blocks.map((b) => b.key)).toEqual([
      'b',
      'c',
    ]);
    expect(buildTranscript(entries, { tool: ORPHAN_ROW_KEY }).blocks.map((b) => b.key)).toEqual([
      'd',
    ]);
    expect(buildTranscript(entries, { tool: 'nothing' })).toEqual({
      text: '',
      lineCount: 0,
      blocks: [],
    });
  });

  it('is empty for no entries', () => {
    expect(buildTranscript([])).toEqual({ text: '', lineCount: 0, blocks: [] });
  });
});

describe('findBlockAt', () => {
  const { blocks } = buildTranscript(entries);
  it('finds the block holding a line, and nothing on separators', () => {
    expect(findBlockAt(blocks, 1)?.key).toBe('a');
    expect(findBlockAt(blocks, 2)?.key).toBe('a');
    expect(findBlockAt(blocks, 3)).toBeUndefined();
    expect(findBlockAt(blocks, 7)?.key).toBe('b');
    expect(findBlockAt(blocks, 22)?.key).toBe('e');
    expect(findBlockAt(blocks, 23)).toBeUndefined();
    expect(findBlockAt([], 1)).toBeUndefined();
  });
});

describe('labels', () => {
  it('lists tools sorted with (unknown) last', () => {
    expect(listTools(entries)).toEqual(['cargo_check', 'fs_read_file', ORPHAN_ROW_KEY]);
  });

  it('names events', () => {
    expect(formatLabel({ type: 'chat_response' })).toBe('chat_response');
    expect(formatLabel({ type: 'tool_call_request', toolName: 't', id: 'c1' })).toBe(
      'tool_call_request · t · id c1',
    );
    expect(formatHeader({ type: 'turn_start', sanitize: 'added' })).toBe(
      '## turn_start [added by sanitize]',
    );
  });
});

describe('response parts', () => {
  it('heads reasoning and message blocks differently, so stripped reasoning is not read as a message', () => {
    const { text } = buildTranscript([
      { key: 'r', type: 'chat_response', part: 'reasoning', text: 'thinking', tokens: 1 },
      { key: 'm', type: 'chat_response', part: 'message', text: 'answer', tokens: 1 },
      { key: 'd', type: 'chat_response', part: 'data', text: '{"a":1}', tokens: 1 },
    ]);
    expect(text).toBe(
      [
        '## chat_response · reasoning',
        'thinking',
        '',
        '## chat_response · message',
        'answer',
        '',
        '## chat_response · data',
        '{"a":1}',
      ].join('\n'),
    );
  });
});
