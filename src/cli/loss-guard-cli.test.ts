/**
 * Issue 20, class 9: every counting command prints one line per imported
 * file on standard error with what the import skipped and why (the loss
 * guard's line), also when the figures agree.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'loss-guard-cli-'));
const config = join(work, 'rules.toml');
writeFileSync(config, '[[conversation.compaction.rules]]\nkeep_last = 1\n');

const run = runCli;

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
      const { code, stderr } = await run([
        command,
        '--config',
        config,
        '--tokenizer',
        'chars',
        folder,
      ]);
      expect(code).toBe(0);
      const lines = stderr.split('\n').filter(Boolean).sort();
      expect(lines).toEqual([
        `${body}: import: read as OpenAI Responses input items; 1 tool call in the file, 0 counted: 1 by openai-responses/item-future_tool_call; skipped or changed: import/no-timestamp ×1`,
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
