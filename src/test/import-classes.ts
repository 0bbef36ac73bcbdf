/**
 * The reproducers of issue 20's ten classes of import fault, one home for the
 * CLI tests (src/cli/loss-guard-cli.test.ts) and the page
 * (test/e2e/import-classes.spec.ts): each is a file's name and text, built
 * from a corpus file or generated here, with its calls per tool counted by
 * hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from './conformance.ts';
import { AGENT_TRANSCRIPTS } from './fixtures/agent-transcripts.ts';

export const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');

/** A Claude Code assistant line with one Bash call `id`. */
export const call = (uuid: string, parent: string, id: string, extra = {}) => ({
  type: 'assistant',
  uuid,
  parentUuid: parent,
  message: {
    id: `m-${id}`,
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'Bash', input: {} }],
  },
  ...extra,
});

export const user = (uuid: string, parent: string | null, content: unknown) => ({
  type: 'user',
  uuid,
  parentUuid: parent,
  message: { role: 'user', content },
});

export const result = (uuid: string, parent: string, id: string) =>
  user(uuid, parent, [{ type: 'tool_result', tool_use_id: id, content: 'fake' }]);

/** One class's reproducer: a file as a user would open it. */
export interface ClassReproducer {
  /** Issue 20's class number. */
  class: number;
  what: string;
  fileName: string;
  text: string;
  /** Tool calls per tool the report counts, by hand. */
  calls: Record<string, number>;
}

/** Class 1: on resume, the history is written again under new uuids, same message and tool ids. */
export function resumedTwice(): ClassReproducer {
  const first = [user('u1', null, 'go'), call('a2', 'u1', 't1'), result('u3', 'a2', 't1')];
  const again = [user('v1', null, 'go'), call('v2', 'v1', 't1'), result('v3', 'v2', 't1')];
  const next = [user('u4', 'v3', 'more'), call('a5', 'u4', 't2'), result('u6', 'a5', 't2')];
  return {
    class: 1,
    what: 'a history written twice on resume counts each call once',
    fileName: 'resumed.jsonl',
    text: jsonl(...first, ...again, ...next),
    calls: { Bash: 2 },
  };
}

/**
 * Class 1 in a request body: an Anthropic Messages body whose assistant
 * message (with the call t1, Bash) and its result are written twice, as a
 * logger that appends the history again writes it: one call, counted once.
 */
export function anthropicRepeatedCall(): ClassReproducer {
  const asked = {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }],
  };
  const answered = {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 't1', content: 'fake' }],
  };
  return {
    class: 1,
    what: 'a call id written twice in one Anthropic Messages body counts once',
    fileName: 'anthropic-repeated.json',
    text: JSON.stringify({
      messages: [{ role: 'user', content: 'go' }, asked, answered, asked, answered],
    }),
    calls: { Bash: 1 },
  };
}

/**
 * Class 1 in a request body: a Responses input whose function_call c1 (Read)
 * and its output appear twice, and a web_search_call ws1 twice: two calls,
 * each counted once.
 */
export function responsesRepeatedCall(): ClassReproducer {
  const call = { type: 'function_call', call_id: 'c1', name: 'Read', arguments: '{}' };
  const output = { type: 'function_call_output', call_id: 'c1', output: 'fake' };
  const search = { type: 'web_search_call', id: 'ws1', status: 'completed' };
  return {
    class: 1,
    what: 'a call id written twice in one Responses input counts once',
    fileName: 'responses-repeated.json',
    text: JSON.stringify({
      input: [
        { type: 'message', role: 'user', content: 'go' },
        call,
        output,
        search,
        call,
        output,
        search,
      ],
    }),
    calls: { Read: 1, web_search_call: 1 },
  };
}

/**
 * Class 1 in every other format: a history written again (a resume, a
 * logger appending it twice) repeats a call id and its result. Each file
 * here holds a user's "go", the call c1 (Read) and its result, the same
 * call and result written again, then the call c2 (Bash) and its result:
 * by hand, Read 1 and Bash 1, each answered once.
 */
const REPEATED_ORDER: CallOrder = [
  ['c1', 'Read'],
  ['c1', 'Read'],
  ['c2', 'Bash'],
];

/**
 * Issue 43, item 9, in the same files: a call id used again by a different
 * call (a counter that restarted). c1 is Read, then c1 is Bash, then c2 is
 * Bash, each with its result: by hand, Read 1 and Bash 2, three calls, each
 * answered once (the second c1 under the id `c1#2`).
 */
const REUSED_ORDER: CallOrder = [
  ['c1', 'Read'],
  ['c1', 'Bash'],
  ['c2', 'Bash'],
];

/** The calls a file writes, in order: each call's id and tool name, its result after it. */
type CallOrder = readonly (readonly [id: string, name: string])[];

/** What each order's files hold, by hand. */
const ORDER_CASES = new Map<
  CallOrder,
  { what: string; suffix: string; calls: Record<string, number> }
>([
  [
    REPEATED_ORDER,
    {
      what: 'a call and its result written twice count once',
      suffix: 'repeated',
      calls: { Read: 1, Bash: 1 },
    },
  ],
  [
    REUSED_ORDER,
    {
      what: 'a different call under a used id is kept',
      suffix: 'reused-id',
      calls: { Read: 1, Bash: 2 },
    },
  ],
]);

/** One format's file of `order`, as a {@link ClassReproducer}; `stem` and `extension` name the file. */
function repeatedIn(
  format: string,
  stem: string,
  extension: string,
  text: string,
  order: CallOrder,
): ClassReproducer {
  const known = ORDER_CASES.get(order);
  if (known === undefined) throw new Error('an order without its hand count');
  return {
    class: 1,
    what: `${format}: ${known.what}`,
    fileName: `${stem}-${known.suffix}.${extension}`,
    text,
    calls: known.calls,
  };
}

/** An ISO timestamp `s` seconds into a fake session. */
const at = (s: number) => `2026-03-02T03:04:${String(s).padStart(2, '0')}.000Z`;

/** A Codex rollout: `function_call` and `function_call_output` items. */
export function codexRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  const item = (payload: object, s: number) => ({
    timestamp: at(s),
    type: 'response_item',
    payload,
  });
  return repeatedIn(
    'Codex',
    'codex',
    'jsonl',
    jsonl(
      { timestamp: at(0), type: 'session_meta', payload: { id: 's', cwd: '/w' } },
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }, 1),
      ...order.flatMap(([id, name], i) => [
        item({ type: 'function_call', call_id: id, name, arguments: '{}' }, 2 + 2 * i),
        item({ type: 'function_call_output', call_id: id, output: 'fake' }, 3 + 2 * i),
      ]),
    ),
    order,
  );
}

/** A Kimi CLI context: `tool_calls` on assistant lines, `tool` lines. */
export function kimiCliRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  return repeatedIn(
    'Kimi CLI',
    'kimi-cli',
    'jsonl',
    jsonl(
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'go' },
      ...order.flatMap(([id, name]) => [
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ type: 'function', id, function: { name, arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: id, content: 'fake' },
      ]),
    ),
    order,
  );
}

/** A Kimi Code wire journal: `tool.call` and `tool.result` loop events. */
export function kimiCodeRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  const event = (body: object, s: number) => ({
    type: 'context.append_loop_event',
    event: body,
    time: 1_780_000_000_000 + s * 1000,
  });
  return repeatedIn(
    'Kimi Code',
    'kimi-code',
    'jsonl',
    jsonl(
      { type: 'metadata', protocol_version: '1.4', created_at: 1_780_000_000_000 },
      {
        type: 'context.append_message',
        message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
        time: 1_780_000_000_000,
      },
      ...order.flatMap(([id, name], i) => [
        event({ type: 'tool.call', toolCallId: id, name, args: {} }, 1 + 2 * i),
        event({ type: 'tool.result', toolCallId: id, result: { output: 'fake' } }, 2 + 2 * i),
      ]),
    ),
    order,
  );
}

/** Pi's session lines (OpenClaw's too, with `marks` after the header): toolCall blocks, toolResult messages. */
function piLines(marks: object[], order: CallOrder): string {
  const entry = (id: number, message: object) => ({
    type: 'message',
    id: `e${id}`,
    parentId: id === 1 ? null : `e${id - 1}`,
    timestamp: at(id),
    message,
  });
  return jsonl(
    { type: 'session', version: 3, id: 's', timestamp: at(0), cwd: '/w' },
    ...marks,
    entry(1, { role: 'user', content: [{ type: 'text', text: 'go' }] }),
    ...order.flatMap(([id, name], i) => [
      entry(2 + 2 * i, {
        role: 'assistant',
        content: [{ type: 'toolCall', id, name, arguments: {} }],
      }),
      entry(3 + 2 * i, {
        role: 'toolResult',
        toolCallId: id,
        content: [{ type: 'text', text: 'fake' }],
      }),
    ]),
  );
}

/** A Pi session. */
export function piRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  return repeatedIn('Pi', 'pi', 'jsonl', piLines([], order), order);
}

/** An OpenClaw session: Pi's lines with OpenClaw's own `model-snapshot` entry. */
export function openClawRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  const mark = { type: 'custom', id: 'k0', parentId: null, customType: 'model-snapshot', data: {} };
  return repeatedIn('OpenClaw', 'openclaw', 'jsonl', piLines([mark], order), order);
}

/** A Copilot CLI events.jsonl: `toolRequests`, `tool.execution_start` and `_complete`, all repeated. */
export function copilotRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  const event = (n: number, type: string, data: object) => ({
    type,
    id: `e${n}`,
    timestamp: at(n),
    data,
  });
  return repeatedIn(
    'Copilot CLI',
    'copilot',
    'jsonl',
    jsonl(
      event(0, 'session.start', { sessionId: 's' }),
      event(1, 'user.message', { content: 'go' }),
      ...order.flatMap(([id, name], i) => [
        event(2 + 3 * i, 'assistant.message', {
          content: '',
          toolRequests: [{ toolCallId: id, name, arguments: {} }],
        }),
        event(3 + 3 * i, 'tool.execution_start', { toolCallId: id, toolName: name, arguments: {} }),
        event(4 + 3 * i, 'tool.execution_complete', {
          toolCallId: id,
          success: true,
          result: { content: 'fake' },
        }),
      ]),
    ),
    order,
  );
}

/** An OpenCode export: the assistant message with c1's tool part written again under a new id. */
export function openCodeRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  const created = (s: number) => ({ created: 1_780_000_000_000 + s * 1000 });
  return repeatedIn(
    'OpenCode',
    'opencode',
    'json',
    JSON.stringify({
      info: { id: 'ses_1', title: 'fake' },
      messages: [
        {
          info: { id: 'm0', role: 'user', time: created(0) },
          parts: [{ id: 'p0', type: 'text', text: 'go' }],
        },
        ...order.map(([id, name], i) => ({
          info: { id: `m${i + 1}`, role: 'assistant', time: created(i + 1) },
          parts: [
            {
              id: `p${i + 1}`,
              type: 'tool',
              tool: name,
              callID: id,
              state: { status: 'completed', input: {}, output: 'fake' },
            },
          ],
        })),
      ],
    }),
    order,
  );
}

/** A Gemini CLI JSON Lines session: the message with c1 written again under a new message id. */
export function geminiRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  return repeatedIn(
    'Gemini CLI',
    'gemini',
    'jsonl',
    jsonl(
      { sessionId: 's', projectHash: 'p', startTime: at(0) },
      { id: 'u0', type: 'user', timestamp: at(0), content: [{ text: 'go' }] },
      ...order.map(([id, name], i) => ({
        id: `g${i + 1}`,
        type: 'gemini',
        timestamp: at(i + 1),
        content: '',
        toolCalls: [
          {
            id,
            name,
            args: {},
            status: 'success',
            timestamp: at(i + 1),
            result: [{ functionResponse: { id, name, response: { output: 'fake' } } }],
          },
        ],
      })),
    ),
    order,
  );
}

/** An OpenAI Chat Completions body: `tool_calls` and `tool` messages written twice. */
export function chatRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  return repeatedIn(
    'OpenAI Chat',
    'chat',
    'json',
    JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        ...order.flatMap(([id, name]) => [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: id, content: 'fake' },
        ]),
      ],
    }),
    order,
  );
}

/** An Amp thread: `tool_use` blocks and `tool_result` blocks keyed by `toolUseID`. */
export function ampRepeated(order: CallOrder = REPEATED_ORDER): ClassReproducer {
  return repeatedIn(
    'Amp',
    'amp',
    'json',
    JSON.stringify({
      v: 1,
      id: 'T-0000',
      created: 1_780_000_000_000,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        ...order.flatMap(([id, name]) => [
          { role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseID: id,
                run: { status: 'done', result: { output: 'fake', exitCode: 0 } },
              },
            ],
          },
        ]),
      ],
    }),
    order,
  );
}

/** Class 1 in each format whose importer reads a repeated call or result (the builder's rule), with its format. */
export const REPEATED_ID_REPRODUCERS = [
  [codexRepeated, 'codex'],
  [kimiCliRepeated, 'kimi-cli'],
  [kimiCodeRepeated, 'kimi-code'],
  [piRepeated, 'pi'],
  [openClawRepeated, 'openclaw'],
  [copilotRepeated, 'copilot-cli'],
  [openCodeRepeated, 'opencode'],
  [geminiRepeated, 'gemini-cli'],
  [chatRepeated, 'openai-chat'],
  [ampRepeated, 'amp'],
] as const;

/**
 * Issue 43, item 9: the same formats' files with a call id used again by a
 * different call ({@link REUSED_ORDER}), with their format.
 */
export const REUSED_ID_REPRODUCERS = REPEATED_ID_REPRODUCERS.map(
  ([build, format]) => [() => build(REUSED_ORDER), format] as const,
);

/** Class 2: lines without `parentUuid` (older and minimal writers). */
export function withoutParents(): ClassReproducer {
  const bare = [user('u1', null, 'go'), call('a2', 'u1', 't1'), result('u3', 'a2', 't1')].map(
    ({ parentUuid: _p, ...rest }) => rest,
  );
  return {
    class: 2,
    what: 'lines without parentUuid are read in file order',
    fileName: 'bare.jsonl',
    text: jsonl(...bare),
    calls: { Bash: 1 },
  };
}

/** Class 3: an Anthropic server-side web search and its result. */
export function serverTool(): ClassReproducer {
  const body = {
    messages: [
      { role: 'user', content: 'search' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'fake' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 's1',
            content: [{ type: 'web_search_result', url: 'https://example.invalid' }],
          },
        ],
      },
    ],
  };
  return {
    class: 3,
    what: 'server-side tools count under their own names',
    fileName: 'search.json',
    text: JSON.stringify(body),
    calls: { web_search: 1 },
  };
}

/** Class 4: a Responses body with a known server tool item and one from a newer API. */
export function unknownItem(): ClassReproducer {
  const body = {
    input: [
      { type: 'message', role: 'user', content: 'go' },
      { type: 'tool_search_call', id: 'x1', arguments: '{}' },
      { type: 'brand_new_item', id: 'n1' },
    ],
  };
  return {
    class: 4,
    what: 'an unknown Responses item is a note, not a refusal',
    fileName: 'newer.json',
    text: JSON.stringify(body),
    calls: { tool_search_call: 1 },
  };
}

export const AMP_THREAD = join(
  SHARED_DIR,
  'corpus',
  'agent-transcripts-2026',
  'amp',
  'toolpath__convo.json',
);

/** Class 5: an Amp thread (it writes `toolUseID`), which once read as Anthropic Messages. */
export function ampThread(): ClassReproducer {
  const expected = JSON.parse(
    readFileSync(
      join(SHARED_DIR, 'corpus', 'agent-transcripts-2026', 'expected-tool-calls.json'),
      'utf8',
    ),
  ) as Record<string, Record<string, number>>;
  return {
    class: 5,
    what: 'an Amp thread is read as Amp, not as Anthropic Messages',
    fileName: 'toolpath__convo.json',
    text: readFileSync(AMP_THREAD, 'utf8'),
    calls: expected['amp/toolpath__convo.json'] ?? {},
  };
}

/** Class 6: a session holding one inline subagent ("ag") with one call, g1, on line 2. */
export function inlineSubagent(): ClassReproducer {
  return {
    class: 6,
    what: 'an inline subagent is named, its calls counted as left out',
    fileName: 'inline.jsonl',
    text: jsonl(
      user('u1', null, 'go'),
      call('s2', 'u1', 'g1', { isSidechain: true, agentId: 'ag' }),
    ),
    calls: {},
  };
}

const TOOLPATH_SESSION = 'claude-code/toolpath__convo.jsonl';

/** Class 7: the corpus session `toolpath__convo.jsonl` with line 60 cut in half (a crash mid-write). */
export function cutLine(): ClassReproducer {
  const source = join(SHARED_DIR, 'corpus', 'agent-transcripts', TOOLPATH_SESSION);
  const lines = readFileSync(source, 'utf8').split('\n');
  const cut = lines.map((line, i) => (i === 59 ? line.slice(0, line.length >> 1) : line));
  // Line 60 holds no call: the fixture table's hand count of the whole file stands.
  const entry = AGENT_TRANSCRIPTS.find((transcript) => transcript.path === TOOLPATH_SESSION);
  return {
    class: 7,
    what: 'a line cut mid-write keeps the history before it',
    fileName: 'cut.jsonl',
    text: cut.join('\n'),
    calls: entry?.calls ?? {},
  };
}

/** Class 8: a Gemini CLI checkpoint (`/chat save`), no conversation. */
export function geminiCheckpoint(): ClassReproducer {
  return {
    class: 8,
    what: 'a Gemini checkpoint is refused, naming Gemini',
    fileName: 'checkpoint.json',
    text: JSON.stringify([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'yo' }] },
    ]),
    calls: {},
  };
}

/** Class 9: a Responses body whose only call is an item type from a newer API. */
export function futureCall(): ClassReproducer {
  return {
    class: 9,
    what: 'the loss guard says which call was left out and why',
    fileName: 'body.json',
    text: JSON.stringify({
      input: [
        { type: 'message', role: 'user', content: 'go' },
        { type: 'future_tool_call', id: 'f1' },
      ],
    }),
    calls: {},
  };
}

/** Class 10: a resumed Claude Code session that opens with 60 `summary` lines. */
export function summariesFirst(): ClassReproducer {
  const summaries = Array.from({ length: 60 }, (_, i) => ({
    type: 'summary',
    summary: `${i}`,
    leafUuid: 'a2',
  }));
  return {
    class: 10,
    what: 'a session that opens with 60 summary lines reads',
    fileName: 'resumed-summaries.jsonl',
    text: jsonl(...summaries, user('u1', null, 'go'), call('a2', 'u1', 't1')),
    calls: { Bash: 1 },
  };
}

/** Classes 1, 2, 3, 7 and 10: files whose calls per tool are counted by hand, checked in the CLI and the page alike. */
export const COUNTED_CLASS_REPRODUCERS = [
  resumedTwice,
  anthropicRepeatedCall,
  responsesRepeatedCall,
  ...REPEATED_ID_REPRODUCERS.map(([build]) => build),
  withoutParents,
  serverTool,
  cutLine,
  summariesFirst,
] as const;
