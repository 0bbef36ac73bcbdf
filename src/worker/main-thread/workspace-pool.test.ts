import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { RECOMMENDATION_NOTE, type Recommendation } from '../../core/analyses/recommend.ts';
import { createInThreadPool, reportInOneThread } from '../../test/in-thread-pool.ts';
import { rejection } from '../../test/rejection.ts';
import { WorkerError } from '../shared/errors.ts';
import type {
  AnalyzedConversation,
  ConversationFiles,
  WorkspaceSettings,
} from '../shared/workspace-protocol.ts';
import { getPoolSize, MAX_POOL_SIZE } from './workspace-pool.ts';

const EXAMPLES = ['coding-session', 'hint-strip', 'hint-omit', 'hint-strip-requests'];
const TEXTS = EXAMPLES.map((id) =>
  readFileSync(new URL(`../../examples/${id}.json`, import.meta.url), 'utf8'),
);
const CONFIG = `[[conversation.compaction.rules]]
keep_last = 1
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "strip-responses"
`;
const SETTINGS: WorkspaceSettings = {
  configText: CONFIG,
  encoding: 'auto',
  now: null,
  view: 'sanitized',
  tokenizer: 'chars',
};

function files(): ConversationFiles[] {
  return TEXTS.map((text, index) => ({
    index,
    events: new Blob([text]),
    metadata: new Blob([JSON.stringify({ title: `Conversation ${index}` })]),
  }));
}

async function analyzeAll(pool: ReturnType<typeof createInThreadPool>['pool']) {
  const results: AnalyzedConversation[] = [];
  await pool.analyze(files(), SETTINGS, { onConversation: (result) => results.push(result) });
  return results.sort((a, b) => a.index - b.index);
}

describe('getPoolSize', () => {
  it('follows the cores, at least one and at most MAX_POOL_SIZE', () => {
    expect(getPoolSize(2)).toBe(2);
    expect(getPoolSize(16)).toBe(MAX_POOL_SIZE);
    expect(getPoolSize(undefined)).toBe(1);
    expect(getPoolSize(0)).toBe(1);
  });

  it('takes a requested size within the same bounds, and ignores one that is not a number', () => {
    expect(getPoolSize(4, '1')).toBe(1);
    expect(getPoolSize(4, '64')).toBe(MAX_POOL_SIZE);
    expect(getPoolSize(3, 'many')).toBe(3);
    expect(getPoolSize(3, null)).toBe(3);
  });
});

describe('the workspace pool', () => {
  it('spreads the conversations over its workers and reports each with its title', async () => {
    const { pool, workers } = createInThreadPool({ size: 2 });
    const results = await analyzeAll(pool);
    expect(results.map((r) => [r.index, r.ok, r.title])).toEqual(
      EXAMPLES.map((_, index) => [index, true, `Conversation ${index}`]),
    );
    const analyzed = workers.map((w) => w.requests.filter((r) => r.method === 'analyze').length);
    expect(analyzed).toHaveLength(2);
    expect(analyzed.every((count) => count > 0)).toBe(true);
    expect(analyzed.reduce((a, b) => a + b)).toBe(EXAMPLES.length);
  });

  it("adds up the held tables to report's figures, and answers a hint edit from them", async () => {
    const { pool } = createInThreadPool();
    for (const result of await analyzeAll(pool)) {
      if (result.ok) pool.hold(result.index, result);
    }
    const first = await pool.evaluate(SETTINGS);
    expect(first.status).toBe('ok');
    if (first.status !== 'ok') return;
    expect(first.report).toEqual(await reportInOneThread(TEXTS, CONFIG));
    expect(first.conversations.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(first.tools.find((t) => t.name === 'fs_read_file')).toMatchObject({
      hint: 'strip-responses',
      source: 'tool',
    });

    const edited = CONFIG.replace('strip-responses', 'keep');
    const second = await pool.evaluate({ ...SETTINGS, configText: edited });
    expect(second.status).toBe('ok');
    if (second.status === 'ok')
      expect(second.report).toEqual(await reportInOneThread(TEXTS, edited));
    expect(second.status === 'ok' && second.recommendations?.note).toBe(RECOMMENDATION_NOTE);
  });

  it('says when the tables cannot answer: other rules, or a config with errors', async () => {
    const { pool } = createInThreadPool();
    for (const result of await analyzeAll(pool)) {
      if (result.ok) pool.hold(result.index, result);
    }
    const rules = CONFIG.replace('keep_last = 1', 'keep_last = 2');
    expect(await pool.evaluate({ ...SETTINGS, configText: rules })).toEqual({ status: 'stale' });
    expect(await pool.evaluate({ ...SETTINGS, tokenizer: 'o200k' })).toEqual({ status: 'stale' });
    const broken = await pool.evaluate({ ...SETTINGS, configText: '[[conversation' });
    expect(broken.status).toBe('invalid');
    await pool.clear();
    const empty = await pool.evaluate(SETTINGS);
    expect(empty.status === 'ok' && empty.conversations).toEqual([]);
  });

  it('reports a conversation it cannot read, and goes on with the others', async () => {
    const { pool } = createInThreadPool();
    const picked = files();
    picked[1] = { index: 1, events: new Blob(['[{"type": ']), metadata: null };
    const results: AnalyzedConversation[] = [];
    await pool.analyze(picked, SETTINGS, { onConversation: (r) => results.push(r) });
    const failed = results.find((r) => r.index === 1);
    expect(failed).toMatchObject({ ok: false, title: null });
    expect(failed?.ok === false && failed.message).toMatch(/^events\.json line 1, column \d+: /);
    expect(results.filter((r) => r.ok)).toHaveLength(3);
  });

  it('replaces a worker that crashes; what it held is tried again alone, the culprit fails', async () => {
    const { pool, workers } = createInThreadPool({ size: 1, crashOn: 2 });
    const results = await analyzeAll(pool);
    // The worker held conversation 2 and its neighbour when it died: the neighbour counts on retry.
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
    expect(results[2]?.ok === false && results[2].message).toBe(
      'The worker stopped unexpectedly while counting it; it may be too large for the browser.',
    );
    expect(workers.filter((w) => w.terminated)).toHaveLength(2);
  });

  it('cancels at once: the workers are terminated and the promise rejects with an AbortError', async () => {
    const { pool, workers } = createInThreadPool({
      size: 2,
      // Analyses never answer: only the cancel can end the load.
      gate: (request) => (request.method === 'analyze' ? new Promise(() => {}) : Promise.resolve()),
    });
    const controller = new AbortController();
    const results: AnalyzedConversation[] = [];
    const load = pool.analyze(files(), SETTINGS, {
      signal: controller.signal,
      onConversation: (r) => results.push(r),
    });
    controller.abort();
    await expect(load).rejects.toMatchObject({ name: 'AbortError' });
    expect(results).toEqual([]);
    expect(workers.every((w) => w.terminated)).toBe(true);
  });

  it("stops the load on a bug in a worker, with the error's own name and code", async () => {
    const { pool } = createInThreadPool({ size: 1 });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // Not a Blob: the worker's handler throws reading it, as a bug in it would.
    const broken = { index: 0, events: { size: 10 } as Blob, metadata: null };
    const results: AnalyzedConversation[] = [];
    const error = await rejection(
      pool.analyze([broken], SETTINGS, { onConversation: (r) => results.push(r) }),
    );
    expect(error).toBeInstanceOf(WorkerError);
    expect(error).toMatchObject({ name: 'TypeError', code: 'internal' });
    // A bug is not the conversation's fault: no failed row, no retry.
    expect(results).toEqual([]);

    // The session worker's handlers fail the same way.
    const session = await rejection(pool.renderHints(null as unknown as Recommendation[], CONFIG));
    expect(session).toMatchObject({ name: 'TypeError', code: 'internal' });
    vi.restoreAllMocks();
  });
});
