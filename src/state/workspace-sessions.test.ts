/**
 * A folder of agent sessions as a workspace: real Claude Code and Codex
 * files from the corpus, laid out as the agents store them, one bad file
 * among them. Expected tool calls come from the corpus fixture (counted
 * with jq over the raw files), titles from reading the files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../test/conformance.ts';
import { AGENT_TRANSCRIPTS } from '../test/fixtures/agent-transcripts.ts';
import { createInThreadPool, pickedFile } from '../test/in-thread-pool.ts';
import { resetStore, store } from './store.ts';
import { disposeWorkspace, initWorkspace, openWorkspace } from './workspace.ts';
import { collectConversations, type PickedFile } from './workspace-files.ts';

const DIR = join(SHARED_DIR, 'corpus', 'agent-transcripts');
const SHOWCASE =
  'claude-code/claude-code-log__minimal_showcase/55550000-0000-4000-8000-000000000001';
const CODEX =
  'codex/claude-code-log__codex__sessions__2026__01__02__rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl';

/** Corpus files under `mixed/`, at the paths they have in the corpus. */
function mixedFolder(): PickedFile[] {
  const paths = [
    `${SHOWCASE}.jsonl`,
    `${SHOWCASE}/subagents/agent-showcol2.jsonl`,
    `${SHOWCASE}/subagents/agent-showcol2.meta.json`,
    `${SHOWCASE}/subagents/agent-showcol1.jsonl`,
    `${SHOWCASE}/subagents/agent-showcol1.meta.json`,
    CODEX,
  ];
  return [
    ...paths.map((path) => pickedFile(readFileSync(join(DIR, path), 'utf8'), `mixed/${path}`)),
    pickedFile('not json at all\n', 'mixed/codex/broken.jsonl'),
    pickedFile('# notes', 'mixed/README.md'),
  ];
}

function callsOf(path: string): Record<string, number> {
  return AGENT_TRANSCRIPTS.find((entry) => entry.path === path)?.calls ?? {};
}

beforeEach(() => {
  resetStore();
  store.setState({ tokenizer: 'chars' });
});

afterEach(() => {
  disposeWorkspace();
});

describe('a folder of agent sessions', () => {
  it('lists each session file, subagents after their parent with their .meta.json', async () => {
    const collected = await collectConversations(mixedFolder().reverse());
    expect(collected.folder).toBe('mixed');
    expect(
      collected.conversations.map((c) => [c.path, c.kind, c.metadata !== null, c.parent]),
    ).toEqual([
      [`mixed/${SHOWCASE}.jsonl`, 'session', false, undefined],
      [`mixed/${SHOWCASE}/subagents/agent-showcol1.jsonl`, 'subagent', true, 0],
      [`mixed/${SHOWCASE}/subagents/agent-showcol2.jsonl`, 'subagent', true, 0],
      ['mixed/codex/broken.jsonl', 'session', false, undefined],
      [`mixed/${CODEX}`, 'session', false, undefined],
    ]);
  });

  it('opens as a workspace: titled rows, subagents named under their parent, the bad file a failed row', async () => {
    const pooled = createInThreadPool();
    initWorkspace({ pool: pooled.pool, debounceMs: 0, progressMs: 0 });
    await openWorkspace(mixedFolder());
    const state = store.getState();
    expect(state.workspaceStatus).toBe('done');
    const rows = state.workspaceConversations;
    const parent =
      'Give me a tour of the repository: its structure, then compare the web and jobs …';
    expect(rows.map((row) => [row.title, row.status])).toEqual([
      [parent, 'done'],
      [`${parent} › agent-showcol1: Survey the web module`, 'done'],
      [`${parent} › agent-showcol2: Survey the jobs module`, 'done'],
      ['broken.jsonl', 'failed'],
      ['List the synthetic files.', 'done'],
    ]);
    expect(rows[3]?.message).toMatch(/^broken\.jsonl line 1, column 1: /);
    const calls = (index: number) =>
      Object.fromEntries(
        Object.entries(rows[index]?.figures?.tools ?? {}).map(([name, t]) => [name, t.calls]),
      );
    expect(calls(0)).toEqual(callsOf(`${SHOWCASE}.jsonl`));
    expect(calls(2)).toEqual(callsOf(`${SHOWCASE}/subagents/agent-showcol2.jsonl`));
    expect(calls(4)).toEqual(callsOf(CODEX));
  });
});

/** A Claude Code session with two inline subagents (sidechain lines), calls counted by hand. */
function inlineSession(): string {
  const line = (value: object) => JSON.stringify(value);
  const call = (uuid: string, parent: string | null, id: string, name: string, extra = {}) => ({
    type: 'assistant',
    uuid,
    parentUuid: parent,
    timestamp: '2026-01-01T00:00:01Z',
    message: {
      id: `m-${uuid}`,
      role: 'assistant',
      content: [{ type: 'tool_use', id, name, input: {} }],
    },
    ...extra,
  });
  const user = (uuid: string, parent: string | null, content: unknown, extra = {}) => ({
    type: 'user',
    uuid,
    parentUuid: parent,
    timestamp: '2026-01-01T00:00:00Z',
    message: { role: 'user', content },
    ...extra,
  });
  const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: 'ok' }];
  return [
    user('u1', null, 'Fix the build'),
    call('a1', 'u1', 't1', 'Task'),
    user('s1', null, 'Read the logs', { isSidechain: true, agentId: 'one' }),
    call('s2', 's1', 'g1', 'Grep', { isSidechain: true, agentId: 'one' }),
    user('s3', 's2', result('g1'), { isSidechain: true, agentId: 'one' }),
    call('s4', 's3', 'g2', 'Grep', { isSidechain: true, agentId: 'one' }),
    user('s5', 's4', result('g2'), { isSidechain: true, agentId: 'one' }),
    user('x1', null, 'Run the tests', { isSidechain: true, agentId: 'two' }),
    call('x2', 'x1', 'b1', 'Bash', { isSidechain: true, agentId: 'two' }),
    user('x3', 'x2', result('b1'), { isSidechain: true, agentId: 'two' }),
    user('u2', 'a1', result('t1')),
  ]
    .map(line)
    .join('\n');
}

describe('inline subagents (class 6)', () => {
  it('lists each inline subagent of a session in a folder as a conversation under it', async () => {
    const pooled = createInThreadPool();
    initWorkspace({ pool: pooled.pool, debounceMs: 0, progressMs: 0 });
    await openWorkspace([pickedFile(inlineSession(), 'projects/p/session.jsonl')]);
    const state = store.getState();
    expect(state.workspaceStatus).toBe('done');
    const rows = state.workspaceConversations.map((row) => [
      row.title,
      row.status,
      Object.fromEntries(Object.entries(row.figures?.tools ?? {}).map(([n, t]) => [n, t.calls])),
    ]);
    expect(rows).toEqual([
      ['Fix the build', 'done', { Task: 1 }],
      ['Fix the build › agent-one: Read the logs', 'done', { Grep: 2 }],
      ['Fix the build › agent-two: Run the tests', 'done', { Bash: 1 }],
    ]);
    expect(state.workspaceProgress).toEqual({ done: 3, total: 3 });
    // The workspace's tools: every call of the file, 4 in all.
    expect(state.workspaceTools.map((tool) => [tool.name, tool.calls])).toEqual([
      ['Bash', 1],
      ['Grep', 2],
      ['Task', 1],
    ]);
  });

  it('leaves a file picked alone as one conversation, as the CLI does for a file it is named', async () => {
    const pooled = createInThreadPool();
    initWorkspace({ pool: pooled.pool, debounceMs: 0, progressMs: 0 });
    await openWorkspace([pickedFile(inlineSession(), 'session.jsonl')]);
    expect(store.getState().workspaceConversations.map((row) => row.title)).toEqual([
      'Fix the build',
    ]);
  });
});
