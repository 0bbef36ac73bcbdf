/**
 * What `readAnyStream` says of a file that holds no conversation (issue 43):
 * JP's events.json of unknown elements only reads, with a warning naming
 * what the playground reads; API messages with roles and nothing else are
 * in no format, and the error lists every format tried.
 */
import { describe, expect, it } from 'vitest';
import { readAnyStream } from './read-stream.ts';

const read = (text: string) => readAnyStream(text, { encoding: 'auto' });
/** The diagnostics besides the info notes on unknown types. */
const notInfo = (text: string) =>
  read(text).parsed.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info');

describe('a file that holds no conversation', () => {
  it('reads JP elements of unknown types, as JP does, with a warning that says so and what is read', () => {
    const { format, parsed } = read('[{"type":"foo","x":1},{"type":"bar"}]');
    expect(format).toBe('jp');
    expect(parsed.elements).toHaveLength(2);
    const warnings = parsed.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning');
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning).toMatchObject({ severity: 'warning', code: 'events/no-conversation' });
    expect(warning?.message).toMatch(
      /^This file holds no conversation event: none of its 2 elements is a turn_start, chat_request, chat_response, tool call or inquiry \(types "foo", "bar"\)\./,
    );
    expect(warning?.message).toContain(
      "The playground reads JP's events.json and the transcripts of",
    );
    expect(warning?.message).toContain('Claude Code session (JSONL)');
  });

  it('says nothing of an empty array (a conversation not started) or one with a conversation event', () => {
    expect(notInfo('[]')).toEqual([]);
    expect(
      notInfo('[{"timestamp":"2025-07-01 00:00:00.0","type":"turn_start"},{"type":"foo"}]'),
    ).toEqual([]);
  });

  it('refuses API messages with roles and nothing else, naming every format tried', () => {
    const { format, parsed } = read('[{"role":"user"},{"role":"assistant"}]');
    expect(format).toBeNull();
    expect(parsed.elements).toBeUndefined();
    const [error] = parsed.diagnostics;
    expect(error?.severity).toBe('error');
    expect(error?.message).toMatch(/^This text is in none of the formats the playground reads\./);
    expect(error?.message).toContain(
      'OpenAI Chat Completions messages: no message has "content", "tool_calls" or "function_call"',
    );
  });

  it('still reads messages that say something', () => {
    expect(read('[{"role":"user","content":"hi"},{"role":"assistant"}]').format).toBe(
      'openai-chat',
    );
  });
});
