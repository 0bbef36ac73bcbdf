/**
 * Issue 20, class 9: every counting command prints one line per imported
 * file on standard error with what the import skipped and why (the loss
 * guard's line), also when the figures agree.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../core/stream/codec.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { reportCalls as reportCallsOf, runCli } from '../test/run-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'loss-guard-cli-'));
const config = join(work, 'rules.toml');
writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\n');

const run = runCli;
/** A counting command over `path` with the test's config. */
const counting = (command: string, path: string) =>
  run([command, '--config', config, '--tokenizer', 'chars', path]);

const jsonl = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n');
const call = (uuid: string, parent: string, id: string, extra = {}) => ({
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

describe('counting commands print the loss guard line per file (class 9)', () => {
  const folder = join(work, 'sessions');
  mkdirSync(folder);
  // A session with an inline subagent's call: the report counts 1 of 2.
  const session = join(folder, 'session.jsonl');
  writeFileSync(
    session,
    jsonl(
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } },
      call('s2', 'u1', 'sub1', { isSidechain: true, agentId: 'ag' }),
      call('a3', 'u1', 'main1'),
    ),
  );
  // A Responses body with an item type from a newer API: noted, its call counted as left out.
  const body = join(folder, 'body.json');
  writeFileSync(
    body,
    JSON.stringify({
      input: [
        { type: 'message', role: 'user', content: 'go' },
        { type: 'future_tool_call', id: 'f1' },
      ],
    }),
  );

  for (const command of ['report', 'recommend']) {
    it(`${command} says per file how many calls it counts of those in the file, and why`, async () => {
      const { code, stderr } = await counting(command, folder);
      expect(code).toBe(0);
      const lines = stderr.split('\n').filter(Boolean).sort();
      expect(lines).toEqual([
        `${body}: import: read as OpenAI Responses input items; 1 tool call in the file, 0 counted: 1 by openai-responses/item-future_tool_call; skipped or changed: import/no-timestamp ×1`,
        // Found in a folder, the inline subagent is a conversation of its own: its one call counted there.
        `${session} › agent-ag: import: read as Claude Code session (JSONL); 1 tool call in the file, all counted; skipped or changed: import/no-timestamp ×1`,
        `${session}: import: read as Claude Code session (JSONL); 2 tool calls in the file, 1 counted: 1 by claude-code/sidechain; skipped or changed: import/no-timestamp ×2`,
      ]);
    });
  }

  it('names calls sanitize drops: those before the first user message', async () => {
    const early = join(work, 'early.jsonl');
    writeFileSync(
      early,
      jsonl(call('a1', 'x0', 'early1'), {
        type: 'user',
        uuid: 'u2',
        parentUuid: 'a1',
        message: { role: 'user', content: 'go' },
      }),
    );
    const { stderr } = await run(['report', '--config', config, '--tokenizer', 'chars', early]);
    expect(stderr).toContain(
      '1 tool call in the file, 0 counted: 1 dropped by sanitize (before the first user message)',
    );
  });
});

/** Calls per tool in `report --json`, which must exit 0. */
async function reportCalls(path: string, extra: string[] = []): Promise<Record<string, number>> {
  const { code, stderr, calls } = await reportCallsOf(config, path, extra);
  expect(code, stderr).toBe(0);
  return calls;
}

const user = (uuid: string, parent: string | null, content: unknown) => ({
  type: 'user',
  uuid,
  parentUuid: parent,
  message: { role: 'user', content },
});
const result = (uuid: string, parent: string, id: string) =>
  user(uuid, parent, [{ type: 'tool_result', tool_use_id: id, content: 'fake' }]);

describe('the ten classes through the CLI (issue 20)', () => {
  const write = (name: string, text: string) => {
    const path = join(work, name);
    writeFileSync(path, text);
    return path;
  };

  it('class 1: a history written twice on resume counts each call once', async () => {
    const first = [user('u1', null, 'go'), call('a2', 'u1', 't1'), result('u3', 'a2', 't1')];
    const again = [user('v1', null, 'go'), call('v2', 'v1', 't1'), result('v3', 'v2', 't1')];
    const next = [user('u4', 'v3', 'more'), call('a5', 'u4', 't2'), result('u6', 'a5', 't2')];
    const path = write('resumed.jsonl', jsonl(...first, ...again, ...next));
    expect(await reportCalls(path)).toEqual({ Bash: 2 });
  });

  it('class 2: lines without parentUuid are read in file order', async () => {
    const bare = [user('u1', null, 'go'), call('a2', 'u1', 't1'), result('u3', 'a2', 't1')].map(
      ({ parentUuid: _p, ...rest }) => rest,
    );
    expect(await reportCalls(write('bare.jsonl', jsonl(...bare)))).toEqual({ Bash: 1 });
  });

  it('class 3: server-side tools count under their own names', async () => {
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
    expect(await reportCalls(write('search.json', JSON.stringify(body)))).toEqual({
      web_search: 1,
    });
  });

  it('class 4: an unknown Responses item is a note, even with --from', async () => {
    const body = {
      input: [
        { type: 'message', role: 'user', content: 'go' },
        { type: 'tool_search_call', id: 'x1', arguments: '{}' },
        { type: 'brand_new_item', id: 'n1' },
      ],
    };
    const path = write('newer.json', JSON.stringify(body));
    expect(await reportCalls(path, ['--from', 'openai-responses'])).toEqual({
      tool_search_call: 1,
    });
  });

  it('class 5: an Amp thread is refused as Anthropic Messages', async () => {
    const amp = join(SHARED_DIR, 'corpus', 'agent-transcripts-2026', 'amp', 'toolpath__convo.json');
    // In-process, a refusal is the CliError the binary prints with exit 2.
    await expect(run(['import', '--from', 'anthropic-messages', amp])).rejects.toThrow(
      /Messages API messages have only "role" and "content"/,
    );
  });

  it('class 6: an inline subagent is named, its calls counted as left out', async () => {
    const path = write(
      'inline.jsonl',
      jsonl(user('u1', null, 'go'), call('s2', 'u1', 'g1', { isSidechain: true, agentId: 'ag' })),
    );
    const { stderr } = await run(['import', path]);
    // How many subagents and calls, and where they went (one subagent "ag" with the call g1 on line 2).
    expect(stderr).toMatch(
      /:2: note: Sidechain lines \(isSidechain\) hold 1 inline subagent with 1 tool call \(ag: 1 call, from line 2\): not part of this conversation\. Each is a conversation of its own under this session, listed when its folder is opened or counted \(report --by-conversation FOLDER/,
    );
    const agent = await run(['import', '--agent', 'ag', path]);
    const events = parseEventsText(agent.stdout, 'storage').elements ?? [];
    expect(events.filter((e) => e.type === 'tool_call_request').map((e) => e.id)).toEqual(['g1']);
  });

  it('class 7: a line cut mid-write keeps the history before it (toolpath__convo.jsonl, line 60)', async () => {
    const source = join(
      SHARED_DIR,
      'corpus',
      'agent-transcripts',
      'claude-code',
      'toolpath__convo.jsonl',
    );
    const lines = readFileSync(source, 'utf8').split('\n');
    const cut = lines.map((line, i) => (i === 59 ? line.slice(0, line.length >> 1) : line));
    const calls = await reportCalls(write('cut.jsonl', cut.join('\n')));
    expect(Object.values(calls).reduce((a, b) => a + b, 0)).toBe(19);
  });

  it('class 8: a Gemini checkpoint in a folder is skipped with a line naming Gemini', async () => {
    const folder = join(work, 'with-checkpoint');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'checkpoint.json'),
      JSON.stringify([
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'yo' }] },
      ]),
    );
    writeFileSync(
      join(folder, 'session.jsonl'),
      jsonl(user('u1', null, 'go'), call('a2', 'u1', 't1')),
    );
    const { code, stderr } = await counting('report', folder);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /skipped: .*checkpoint\.json:1:1: error: This looks like a Gemini CLI checkpoint/,
    );
  });

  it('class 10: a session that opens with 60 summary lines reads, forced or not', async () => {
    const summaries = Array.from({ length: 60 }, (_, i) => ({
      type: 'summary',
      summary: `${i}`,
      leafUuid: 'a2',
    }));
    const path = write(
      'resumed-summaries.jsonl',
      jsonl(...summaries, user('u1', null, 'go'), call('a2', 'u1', 't1')),
    );
    expect(await reportCalls(path)).toEqual({ Bash: 1 });
    expect(await reportCalls(path, ['--from', 'claude-code'])).toEqual({ Bash: 1 });
  });
});
