/**
 * The workspace in money on the corpus's folder of real Claude Code
 * sessions (sessions, `subagents/` files with their `.meta.json`, inline
 * subagents), through the real pool and workers run in-thread: every
 * conversation's cost and the folder's days and total equal what
 * `replay --by-conversation --json` prints for the same folder and config.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FolderMoney } from '../core/replay/folder-money.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { createInThreadPool, pickedFile } from '../test/in-thread-pool.ts';
import { runCli } from '../test/run-cli.ts';
import { setReplayChoice } from './share-actions.ts';
import { resetStore, store } from './store.ts';
import { disposeWorkspace, initWorkspace, openWorkspace } from './workspace.ts';
import type { PickedFile } from './workspace-files.ts';
import { disposeWorkspaceMoney, requestWorkspaceMoney } from './workspace-money.ts';

const FOLDER = join(SHARED_DIR, 'corpus', 'agent-transcripts', 'claude-code');
const RULES =
  '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\ntool_calls = "strip"\n';

/** Every file under the folder, as "Open folder" picks them (paths under `claude-code/`). */
function pickFolder(): PickedFile[] {
  const files: PickedFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        files.push(pickedFile(readFileSync(path, 'utf8'), `claude-code/${relative(FOLDER, path)}`));
    }
  };
  walk(FOLDER);
  return files;
}

/** `replay --by-conversation --json` on the folder with the same rules, in-process. */
async function cliMoney(extra: readonly string[] = []): Promise<FolderMoney> {
  const config = join(mkdtempSync(join(tmpdir(), 'workspace-money-')), 'rules.toml');
  writeFileSync(config, RULES);
  const result = await runCli([
    'replay',
    '--by-conversation',
    '--json',
    '--config',
    config,
    ...extra,
    FOLDER,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as FolderMoney;
}

beforeEach(() => {
  resetStore();
  // The CLI's defaults: o200k, the sanitized view; the same rules.
  store.setState({ tokenizer: 'o200k', configText: RULES });
});

afterEach(() => {
  disposeWorkspaceMoney();
  disposeWorkspace();
});

async function openFolder() {
  const pooled = createInThreadPool({ size: 2 });
  initWorkspace({ pool: pooled.pool, debounceMs: 0, progressMs: 0 });
  await openWorkspace(pickFolder());
  expect(store.getState().workspaceStatus).toBe('done');
  return pooled;
}

describe('the workspace in money', () => {
  it('equals replay --by-conversation --json on a folder of Claude Code sessions', async () => {
    await openFolder();
    expect(store.getState().workspaceMoney.status).toBe('idle');
    await requestWorkspaceMoney();
    const state = store.getState().workspaceMoney;
    expect(state.status).toBe('done');
    expect(state.failed).toEqual([]);
    const page = state.money as FolderMoney;
    const cli = await cliMoney();
    expect(page.conversations).toHaveLength(9);
    // Names may differ (the CLI names a session without a title by its path, the page by its
    // file); everything in money is the same, conversation by conversation, to the last bit.
    const withoutName = (money: FolderMoney) =>
      money.conversations.map(({ name: _name, ...row }) => row);
    expect(withoutName(page)).toEqual(withoutName(cli));
    expect(page.days).toEqual(cli.days);
    expect(page.total).toEqual(cli.total);
    expect(page.total.cheapest?.against).toBe('against the session as it ran');
    // The same conversations in the same order: the CLI's name is the page's, or, for a
    // session without a title, its path where the page has the file's name.
    page.conversations.forEach((row, k) => {
      const own = cli.conversations[k]?.name ?? '';
      expect(own === row.name || own.endsWith(`/${row.name}`), `${own} ~ ${row.name}`).toBe(true);
    });
  });

  it('asks once per settings and pricing; a new price asks again and equals the CLI with it', async () => {
    const pooled = await openFolder();
    await requestWorkspaceMoney();
    const asked = () =>
      pooled.workers.flatMap((w) => w.requests).filter((r) => r.method === 'price').length;
    const first = asked();
    expect(first).toBe(9);
    await requestWorkspaceMoney();
    expect(asked()).toBe(first);
    setReplayChoice({ price: 'input=3,output=15' });
    expect(store.getState().workspaceMoney.status).toBe('idle');
    // The last figures stay shown until the new ones arrive.
    expect(store.getState().workspaceMoney.money).not.toBeNull();
    await requestWorkspaceMoney();
    expect(asked()).toBe(first + 9);
    const page = store.getState().workspaceMoney.money as FolderMoney;
    expect(page.total).toEqual((await cliMoney(['--price', 'input=3,output=15'])).total);
  });

  it('says why when the price does not read, and forgets the money when the workspace closes', async () => {
    await openFolder();
    setReplayChoice({ price: 'input=x' });
    await requestWorkspaceMoney();
    const state = store.getState().workspaceMoney;
    expect(state.status).toBe('done');
    expect(state.money?.total.conversations).toBe(0);
    expect(state.message).toMatch(/^Price, column \d+:/);
    await openWorkspace(pickFolder().slice(0, 1));
    expect(store.getState().workspaceMoney).toMatchObject({ status: 'idle', money: null });
  });
});
