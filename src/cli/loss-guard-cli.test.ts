/**
 * Issue 20, class 9: every counting command prints one line per imported
 * file on standard error with what the import skipped and why (the loss
 * guard's line), also when the figures agree.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../core/stream/codec.ts';
import {
  AMP_THREAD,
  ampThread,
  anthropicRepeatedCall,
  type ClassReproducer,
  COUNTED_CLASS_REPRODUCERS,
  call,
  cutLine,
  futureCall,
  geminiCheckpoint,
  inlineSubagent,
  jsonl,
  responsesRepeatedCall,
  summariesFirst,
  unknownItem,
  user,
} from '../test/import-classes.ts';
import { reportCalls as reportCallsOf, runCli } from '../test/run-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'loss-guard-cli-'));
const config = join(work, 'rules.toml');
writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\n');

const run = runCli;
/** A counting command over `path` with the test's config. */
const counting = (command: string, path: string) =>
  run([command, '--config', config, '--tokenizer', 'chars', path]);

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
  // A Responses body with an item type from a newer API: noted, its call counted as left out.
  const body = join(folder, 'body.json');
  writeFileSync(body, futureCall().text);

  // Why each file was read in its format: the session's line 1 is a user line with a uuid.
  const userLine1 = 'line 1 is a {"type": "user"} line with a "message" and a "uuid"';
  for (const command of ['report', 'recommend']) {
    it(`${command} says per file how many calls it counts of those in the file, and why`, async () => {
      const { code, stderr } = await counting(command, folder);
      expect(code).toBe(0);
      const lines = stderr.split('\n').filter(Boolean).sort();
      expect(lines).toEqual([
        `${body}: import: read as OpenAI Responses input items: it is an object with "input", and item 1 is a Responses "message" item; 1 tool call in the file, 0 counted: 1 by openai-responses/item-future_tool_call; skipped or changed: import/no-timestamp ×1`,
        // Found in a folder, the inline subagent is a conversation of its own: its one call counted there.
        `${session} › agent-ag: import: read as Claude Code session (JSONL): ${userLine1}; 1 tool call in the file, all counted; skipped or changed: import/no-timestamp ×1`,
        `${session}: import: read as Claude Code session (JSONL): ${userLine1}; 2 tool calls in the file, 1 counted: 1 by claude-code/sidechain; skipped or changed: import/no-timestamp ×2`,
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

describe('the ten classes through the CLI (issue 20)', () => {
  const write = ({ fileName, text }: Pick<ClassReproducer, 'fileName' | 'text'>) => {
    const path = join(work, fileName);
    writeFileSync(path, text);
    return path;
  };

  for (const build of COUNTED_CLASS_REPRODUCERS) {
    const reproducer = build();
    it(`class ${reproducer.class}: ${reproducer.what}`, async () => {
      expect(await reportCalls(write(reproducer))).toEqual(reproducer.calls);
    });
  }

  it('class 1 in a request body: a repeated call id is named on the loss guard line', async () => {
    const anthropic = write(anthropicRepeatedCall());
    const { stderr } = await counting('report', anthropic);
    // Message 2 is the first assistant message, with the tool_use t1; its copy is message 4.
    expect(stderr).toContain(
      `${anthropic}: import: read as Anthropic Messages: message 2 has an Anthropic "tool_use" block; 1 tool call in the file, all counted; skipped or changed: anthropic-messages/repeated-call ×1`,
    );
    const responses = write(responsesRepeatedCall());
    expect((await counting('report', responses)).stderr).toContain(
      '2 tool calls in the file, all counted; skipped or changed: openai-responses/repeated-call ×2',
    );
  });

  it('class 7: the cut file keeps all 19 calls of toolpath__convo.jsonl', async () => {
    const calls = await reportCalls(write(cutLine()));
    expect(Object.values(calls).reduce((a, b) => a + b, 0)).toBe(19);
  });

  it('class 4: an unknown Responses item is a note, even with --from', async () => {
    const reproducer = unknownItem();
    expect(await reportCalls(write(reproducer), ['--from', 'openai-responses'])).toEqual(
      reproducer.calls,
    );
  });

  it('class 5: an Amp thread is refused as Anthropic Messages, and read as Amp without --from', async () => {
    // In-process, a refusal is the CliError the binary prints with exit 2.
    await expect(run(['import', '--from', 'anthropic-messages', AMP_THREAD])).rejects.toThrow(
      /Messages API messages have only "role" and "content"/,
    );
    expect(await reportCalls(AMP_THREAD)).toEqual(ampThread().calls);
  });

  it('class 6: an inline subagent is named, its calls counted as left out', async () => {
    const path = write(inlineSubagent());
    const { stderr } = await run(['import', path]);
    // How many subagents and calls, and where they went (one subagent "ag" with the call g1 on line 2).
    expect(stderr).toMatch(
      /:2: note: Sidechain lines \(isSidechain\) hold 1 inline subagent with 1 tool call \(ag: 1 call, from line 2\): not part of this conversation\. Each is a conversation of its own under this session, listed when its folder is opened or counted \(report --by-conversation FOLDER/,
    );
    const agent = await run(['import', '--agent', 'ag', path]);
    const events = parseEventsText(agent.stdout, 'storage').elements ?? [];
    expect(events.filter((e) => e.type === 'tool_call_request').map((e) => e.id)).toEqual(['g1']);
  });

  it('class 8: a Gemini checkpoint in a folder is skipped with a line naming Gemini', async () => {
    const folder = join(work, 'with-checkpoint');
    mkdirSync(folder);
    const checkpoint = geminiCheckpoint();
    writeFileSync(join(folder, checkpoint.fileName), checkpoint.text);
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

  it('class 10: forced with --from, the session opening with 60 summary lines reads too', async () => {
    const reproducer = summariesFirst();
    expect(await reportCalls(write(reproducer), ['--from', 'claude-code'])).toEqual(
      reproducer.calls,
    );
  });
});
