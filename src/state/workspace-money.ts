/**
 * The workspace in money (issue 41): what each counted conversation cost,
 * per day and in total, and the one schedule cheapest over the folder,
 * the figures of `replay --by-conversation` (core/replay/folder-money.ts).
 *
 * Like an extra, it is computed only when asked: the Cost section asks
 * while it is in view, once the workspace's token figures are in (the pool
 * answers those first; the replay is a second pass over the files). The
 * pool's workers replay the conversations, each read again from its file;
 * the session worker adds the rows up. Any change to the workspace, its
 * settings or the pricing stops a pass at once (its workers are
 * terminated, so a count that follows never waits behind it) and leaves
 * the money to be asked again.
 */
import type { ConversationMoney } from '../core/replay/folder-money.ts';
import type { ReplayPricing } from '../core/replay/pane-replay.ts';
import { isAbortError } from '../worker/shared/errors.ts';
import type { PricedWorkspaceConversation } from '../worker/shared/workspace-protocol.ts';
import type { AppState, WorkspaceMoneyState } from './app-state.ts';
import { describeFailure, logFailure } from './failures.ts';
import { selectWorkspaceSettings } from './selectors.ts';
import { store } from './store.ts';
import { createLatestWins } from './timing.ts';
import { getWorkspaceSources } from './workspace.ts';
import { getConversationFiles, orderAsTheCli } from './workspace-files.ts';
import { idleWorkspaceMoney } from './workspace-slice.ts';

/** Longest wait between two progress updates while replaying. */
const PROGRESS_MS = 200;

const passes = createLatestWins();
let controller: AbortController | null = null;
let unsubscribe: (() => void) | null = null;

/** The Cost pane's pricing (model, prices, calibration, prefix); the schedule and policy are the folder's own. */
export function selectWorkspacePricing(state: AppState): ReplayPricing {
  const { model, price, calibration, prefixTokens } = state.replayChoice;
  return { model, price, calibration, prefixTokens };
}

/** What the money is computed for: the workspace's settings and the pricing. */
function keyOf(state: AppState): string {
  return JSON.stringify([selectWorkspaceSettings(state), selectWorkspacePricing(state)]);
}

/** Stops a running pass (its workers are terminated) and forgets which one was current. */
function stopPass(): void {
  controller?.abort();
  controller = null;
  passes.supersede();
}

function setMoney(change: Partial<WorkspaceMoneyState>): void {
  store.setState({ workspaceMoney: { ...store.getState().workspaceMoney, ...change } });
}

/**
 * A change that makes the money describe something else stops the pass;
 * the figures shown stay (marked idle, so the section asks again) unless
 * the workspace itself is counted again, closed or opened anew.
 */
function onStoreChange(state: AppState, prev: AppState): void {
  const left = state.workspaceStatus !== 'done' && prev.workspaceStatus === 'done';
  const reopened = state.workspaceName !== prev.workspaceName;
  const changed =
    state.configText !== prev.configText ||
    state.view !== prev.view ||
    state.tokenizer !== prev.tokenizer ||
    state.readings !== prev.readings ||
    state.replayChoice !== prev.replayChoice;
  if (!(left || reopened || changed)) return;
  const money = state.workspaceMoney;
  if (money.status === 'idle' && money.money === null) return;
  if (left || reopened) {
    stopPass();
    store.setState({ workspaceMoney: idleWorkspaceMoney });
  } else if (money.key !== null && money.key !== keyOf(state)) {
    // A change the money does not depend on (the Cost pane's schedule) leaves it be.
    stopPass();
    setMoney({ status: 'idle', key: null });
  }
}

/** Forgets any pass (tests, between cases). */
export function disposeWorkspaceMoney(): void {
  stopPass();
  unsubscribe?.();
  unsubscribe = null;
}

/**
 * Asks for the workspace in money under the current settings and pricing:
 * nothing when those figures are here or coming, or before the workspace
 * is counted. Resolves once computed, stopped or failed.
 */
export async function requestWorkspaceMoney(): Promise<void> {
  unsubscribe ??= store.subscribe(onStoreChange);
  const state = store.getState();
  const context = getWorkspaceSources();
  if (!context || state.workspaceStatus !== 'done') return;
  const key = keyOf(state);
  const asked = state.workspaceMoney;
  if (asked.key === key && asked.status !== 'idle') return;
  stopPass();
  const sequence = passes.start();
  const current = () => passes.isCurrent(sequence);
  const pass = new AbortController();
  controller = pass;
  const counted = state.workspaceConversations.filter((c) => c.status === 'done');
  setMoney({
    status: 'running',
    key,
    progress: { done: 0, total: counted.length },
    failed: [],
    message: null,
  });
  const rows = new Map<number, ConversationMoney>();
  const failed: WorkspaceMoneyState['failed'] = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  // Batched, as the count's progress is: a store update per conversation would re-render each time.
  const flush = () => {
    if (flushTimer !== null) clearTimeout(flushTimer);
    flushTimer = null;
    if (current()) {
      setMoney({
        progress: { done: rows.size + failed.length, total: counted.length },
        failed: [...failed],
      });
    }
  };
  const onConversation = (result: PricedWorkspaceConversation) => {
    if (!current()) return;
    if (result.ok) rows.set(result.index, result.money);
    else {
      const name = counted.find((c) => c.index === result.index)?.title ?? '';
      failed.push({ index: result.index, name, message: result.message });
    }
    flushTimer ??= setTimeout(flush, PROGRESS_MS);
  };
  try {
    await context.pool.price(
      counted.map((c) => ({
        files: getConversationFiles(context.sources, c.index),
        name: c.title,
      })),
      selectWorkspaceSettings(state),
      selectWorkspacePricing(state),
      { signal: pass.signal, onConversation },
    );
    flush();
    if (!current()) return;
    // In the order the CLI lists a folder's conversations, so the sums are the CLI's.
    const ordered = orderAsTheCli(context.sources, [...rows.keys()]).map(
      (index) => rows.get(index) as ConversationMoney,
    );
    const money = await context.pool.sumMoney(ordered);
    if (!current()) return;
    controller = null;
    failed.sort((a, b) => a.index - b.index);
    setMoney({
      status: 'done',
      money,
      failed,
      // Every conversation failed alike: a model or price that does not read says so once.
      message: ordered.length === 0 && failed.length > 0 ? (failed[0]?.message ?? null) : null,
    });
  } catch (error) {
    if (flushTimer !== null) clearTimeout(flushTimer);
    if (isAbortError(error) || !current()) return;
    logFailure(error);
    controller = null;
    setMoney({
      status: 'error',
      message: `${describeFailure(error, 'Replaying the conversations')}.`,
    });
  }
}
