/**
 * Issue 43's hostile transcripts as files a user would open, for the
 * bad-input matrix (src/test/bad-input-cases.ts): each with what it holds,
 * counted by hand. All data is obviously fake.
 */

const AT = '2026-03-01T10:00:00.000Z';
const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');

const piHeader = { type: 'session', version: 3, id: 's', timestamp: AT, cwd: '/fake' };
const piEntry = (id: string, parentId: string | null, message: object) => ({
  type: 'message',
  id,
  parentId,
  timestamp: AT,
  message,
});
const text = (role: string, words: string) => ({ role, content: [{ type: 'text', text: words }] });

/**
 * Item 7: a Pi session whose first answer ran `cat` (a 20,000-character
 * result), then the user went back with /tree and got a short answer. By
 * hand: the live branch is the prompt and the short answer; 2 entries and
 * 1 call (c1) are on the branch left.
 */
export function piLeftBranch(): string {
  return jsonl(
    piHeader,
    piEntry('e1', null, text('user', 'read the fake log')),
    piEntry('e2', 'e1', {
      role: 'assistant',
      content: [
        { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'cat fake.log' } },
      ],
    }),
    piEntry('e3', 'e2', {
      role: 'toolResult',
      toolCallId: 'c1',
      content: [{ type: 'text', text: 'x'.repeat(20_000) }],
      isError: false,
    }),
    piEntry('e4', 'e1', text('assistant', 'fake short answer')),
  );
}

const AMP_THREAD = 'T-00000000-0000-4000-8000-000000000000';
const ampLine = (type: string, fields: object) => ({
  type,
  ...fields,
  parent_tool_use_id: null,
  session_id: AMP_THREAD,
});

/**
 * Item 8: an Amp `--stream-json` run (a prompt, one call c1 with 1,000
 * input tokens and 200 read from the cache, its result, an answer with 50
 * input tokens) that a logger wrote twice. By hand: 1 call, 1,250 recorded
 * input tokens (1,000 + 200 + 50), not 2,500.
 */
export function ampStreamWrittenTwice(): string {
  const once = jsonl(
    ampLine('system', { subtype: 'init', cwd: '/fake', tools: ['shell_command'] }),
    ampLine('user', { message: { role: 'user', content: [{ type: 'text', text: 'go' }] } }),
    ampLine('assistant', {
      message: {
        id: 'msg_fake_1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'c1', name: 'shell_command', input: { cmd: 'ls' } }],
        usage: { input_tokens: 1000, cache_read_input_tokens: 200, output_tokens: 10 },
      },
    }),
    ampLine('user', {
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'fake', is_error: false }],
      },
    }),
    ampLine('assistant', {
      message: {
        id: 'msg_fake_2',
        role: 'assistant',
        content: [{ type: 'text', text: 'done' }],
        usage: { input_tokens: 50, cache_read_input_tokens: 0, output_tokens: 5 },
      },
    }),
    ampLine('result', { subtype: 'success', is_error: false, result: 'done' }),
  );
  return `${once}\n${once}`;
}

/**
 * Item 9: a Kimi CLI context whose `Name:N` counter restarted: Bash:0
 * (`ls`), ReadFile:1, then, after the restart, Bash:0 again (`pwd`), each
 * answered. By hand: 3 calls (Bash 2, ReadFile 1), all counted.
 */
export function kimiCounterRestart(): string {
  const call = (id: string, name: string, args: object) => ({
    role: 'assistant',
    content: [],
    tool_calls: [{ type: 'function', id, function: { name, arguments: JSON.stringify(args) } }],
  });
  const answer = (id: string, words: string) => ({
    role: 'tool',
    tool_call_id: id,
    content: words,
  });
  return jsonl(
    { role: '_checkpoint', id: 0 },
    { role: 'user', content: 'go' },
    call('Bash:0', 'Bash', { command: 'ls' }),
    answer('Bash:0', 'a.txt'),
    call('ReadFile:1', 'ReadFile', { path: 'a.txt' }),
    answer('ReadFile:1', 'fake contents'),
    { role: '_checkpoint', id: 0 },
    { role: 'user', content: 'more' },
    call('Bash:0', 'Bash', { command: 'pwd' }),
    answer('Bash:0', '/fake'),
  );
}

/**
 * Item 10: `cat` of a Claude Code session (3 lines: a prompt, a Bash call
 * t1, its result) and a Codex rollout (4 lines): the rollout starts on
 * line 4.
 */
export function claudeCodeThenCodex(): string {
  const claude = jsonl(
    { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } },
    {
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'u1',
      message: {
        id: 'm1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }],
      },
    },
    {
      type: 'user',
      uuid: 'u3',
      parentUuid: 'a2',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }],
      },
    },
  );
  const item = (payload: object) => ({ timestamp: AT, type: 'response_item', payload });
  const codex = jsonl(
    { timestamp: AT, type: 'session_meta', payload: { id: 's', cwd: '/fake' } },
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }),
    item({ type: 'function_call', call_id: 'c1', name: 'Read', arguments: '{}' }),
    item({ type: 'function_call_output', call_id: 'c1', output: 'fake' }),
  );
  return `${claude}\n${codex}`;
}

/** A Pi session of a prompt and an answer "fake café answer": its lines, whole. */
function piWithAccent(): string {
  return jsonl(
    piHeader,
    piEntry('e1', null, text('user', 'go')),
    piEntry('e2', 'e1', text('assistant', 'fake caf\u00e9 answer')),
  );
}

/**
 * Item 16: that session cut mid-write inside the "é" of its last line (after
 * the byte C3 of C3 A9). By hand: the prompt imports; line 3 is skipped
 * with a warning, as when cut at an ASCII character.
 */
export function piCutInCharacter(): Uint8Array {
  const bytes = Buffer.from(piWithAccent(), 'utf8');
  return new Uint8Array(bytes.subarray(0, bytes.lastIndexOf(Buffer.from('\u00e9', 'utf8')) + 1));
}

/** The text of {@link piCutInCharacter} as the page and the CLI read it: the cut character as U+FFFD. */
export function piCutInCharacterText(): string {
  const whole = piWithAccent();
  return `${whole.slice(0, whole.lastIndexOf('\u00e9'))}\ufffd`;
}

/** Item 19: a one-line Amp thread export (a prompt and an answer), opening with a UTF-8 byte-order mark. */
export function ampExportWithBom(): string {
  return `\ufeff${JSON.stringify({
    v: 1,
    id: AMP_THREAD,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'fake answer' }] },
    ],
  })}\n`;
}

/**
 * Item 19: a pretty-printed Amp export cut mid-write in its first message's
 * text. By hand: it breaks at line 7, column 44, where the string "fake pro…
 * opens (43 characters before it on that line), not at 1:2.
 */
export function ampExportCut(): string {
  return [
    '{',
    '  "v": 1,',
    `  "id": "${AMP_THREAD}",`,
    '  "messages": [',
    '    {',
    '      "role": "user",',
    '      "content": [{"type": "text", "text": "fake pro',
  ].join('\n');
}

/** The bracket of {@link otelTooDeep} that opens level 126: its column, counted by hand. */
const OTEL_OPENING = '{"resourceSpans":[{"resource":{"attributes":[{"key":"fake","value":';

/**
 * Item 19: an OTel trace (one chat span) with a resource attribute nested
 * 130 levels deep. By hand: 6 levels open before the value, each `{"d":`
 * one more, so the 120th opens level 126: line 1, column
 * {@link OTEL_TOO_DEEP_COLUMN}.
 */
export function otelTooDeep(): string {
  const levels = 130;
  const span =
    '{"traceId":"fake","spanId":"fake","name":"chat fake","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}';
  return `${OTEL_OPENING}${'{"d":'.repeat(levels)}1${'}'.repeat(levels)}}]},"scopeSpans":[{"spans":[${span}]}]}]}\n`;
}

/** Where {@link otelTooDeep} goes too deep: after the opening and 119 `{"d":` (5 characters each). */
export const OTEL_TOO_DEEP_COLUMN = OTEL_OPENING.length + 119 * 5 + 1;

/** Line 4 of {@link piCutInFirstMessage} up to the string it cuts. */
const PI_FIRST_MESSAGE_HEAD = `{"type":"message","id":"e1","parentId":"t0","timestamp":"${AT}","message":{"role":"user","content":`;

/**
 * Item 20: a Pi session cut inside its first message (line 4, after the
 * header, a model change and a thinking level). By hand: nothing else
 * imports; the error is at line 4, where the cut string opens
 * ({@link PI_CUT_FIRST_COLUMN}).
 */
export function piCutInFirstMessage(): string {
  return [
    JSON.stringify(piHeader),
    JSON.stringify({
      type: 'model_change',
      id: 'm0',
      parentId: null,
      timestamp: AT,
      provider: 'fake',
      modelId: 'fake',
    }),
    JSON.stringify({
      type: 'thinking_level_change',
      id: 't0',
      parentId: 'm0',
      timestamp: AT,
      thinkingLevel: 'off',
    }),
    `${PI_FIRST_MESSAGE_HEAD}"list the fake`,
  ].join('\n');
}

/** The column of the string {@link piCutInFirstMessage} cuts. */
export const PI_CUT_FIRST_COLUMN = PI_FIRST_MESSAGE_HEAD.length + 1;

/**
 * Item 24: a Kimi CLI context whose line 53, past the 50 lines detection
 * reads, has no role. By hand: noted as kimi-cli/no-role.
 */
export function kimiLineWithoutRole(): string {
  return jsonl(
    { role: '_checkpoint', id: 0 },
    { role: 'user', content: 'go' },
    ...Array.from({ length: 50 }, (_, i) => ({ role: '_usage', token_count: i })),
    { content: 'a fake line without a role' },
    { role: 'assistant', content: [{ type: 'text', text: 'fake answer' }] },
  );
}
