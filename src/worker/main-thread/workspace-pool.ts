/**
 * The main-thread side of the workspace workers (`workspace-worker.ts`): a pool
 * that analyses conversations in parallel, and one session worker that holds
 * their hint tables and answers hint edits and recommendations.
 *
 * - Conversations are split over the pool with the core's `partitionBySize`
 *   (by file size, so each worker gets about the same amount of text); each
 *   worker reads its files itself, and is handed the next conversation
 *   before it finishes one, so it never idles waiting for the page.
 * - Cancelling (the signal) terminates the pool's workers at once; new ones
 *   are spawned for the next load.
 * - A worker that crashes or runs past the timeout is replaced; the
 *   conversations it held are tried again one at a time, and one that fails
 *   again is reported as failed while the rest go on.
 * - Each worker is a bridge channel (`channel.ts`): error replies keep their
 *   typed code, so a bug in a worker (`internal`) stops the load while a
 *   crash or a timeout only fails its conversations.
 */

import { partitionBySize } from '../../core/analyses/partition-by-size.ts';
import type { Recommendation } from '../../core/analyses/recommend.ts';
import type { ConversationMoney, FolderMoney } from '../../core/replay/folder-money.ts';
import type { ReplayPricing } from '../../core/replay/pane-replay.ts';
import { WorkerError } from '../shared/errors.ts';
import type { BridgeRequest, BridgeResponse, BridgeWorker } from '../shared/protocol.ts';
import type {
  AnalyzedConversation,
  ConversationFiles,
  PricedWorkspaceConversation,
  WorkspaceEvaluation,
  WorkspaceSettings,
} from '../shared/workspace-protocol.ts';
import type { WorkspaceApi } from '../worker-thread/workspace-session.ts';
import { createChannel } from './channel.ts';

/** A call from the page to a workspace worker. */
export type WorkspaceRequest = BridgeRequest<WorkspaceApi>;

/** A workspace worker's answer to one request. */
export type WorkspaceResponse = BridgeResponse<WorkspaceApi>;

/** What the pool needs of a Worker: lets tests pass a fake. */
export type PoolWorkerLike = BridgeWorker<WorkspaceApi>;

/** The most pool workers: beyond four, memory grows faster than the speed-up on typical laptops. */
export const MAX_POOL_SIZE = 4;

/**
 * How many pool workers to run: the machine's logical cores, at least one
 * and at most `MAX_POOL_SIZE`. `requested` (e.g. a `?workers=` URL
 * parameter, which the browser test uses to compare one worker with the
 * pool) overrides the core count within the same bounds.
 */
export function getPoolSize(
  hardwareConcurrency: number | undefined,
  requested?: string | null,
): number {
  const asked = requested ? Number.parseInt(requested, 10) : Number.NaN;
  const wanted = Number.isFinite(asked) ? asked : (hardwareConcurrency ?? 1);
  return Math.max(1, Math.min(MAX_POOL_SIZE, Math.floor(wanted) || 1));
}

/** How the pool is set up. */
export interface WorkspacePoolOptions {
  /** Makes a new worker; called lazily, and again after a crash, a timeout or a cancel. */
  createWorker: (lifeline: string) => PoolWorkerLike;
  /** Pool workers (see `getPoolSize`). */
  size: number;
  /** How long one conversation (or one session request) may take. Default 120 s. */
  timeoutMs?: number;
}

/** Options of a pass over the pool (a load, or the conversations in money). */
export interface PassOptions<R> {
  /** Cancels the pass: the pool's workers are terminated and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Called with each conversation as soon as a worker has answered for it. */
  onConversation: (result: R) => void;
}

/** Options of a load. */
export type AnalyzeOptions = PassOptions<AnalyzedConversation>;

/** A conversation to price, and what the page calls it. */
export interface ConversationToPrice {
  files: ConversationFiles;
  name: string;
}

/** The pool and the session worker. */
export interface WorkspacePool {
  /** The number of pool workers. */
  readonly size: number;
  /** Analyses conversations over the pool; resolves once every one has been reported. */
  analyze(
    conversations: readonly ConversationFiles[],
    settings: WorkspaceSettings,
    options: AnalyzeOptions,
  ): Promise<void>;
  /**
   * Replays conversations over the pool under the page's pricing, each into
   * its row in money (`replay --by-conversation`'s); resolves once every one
   * has been reported.
   */
  price(
    conversations: readonly ConversationToPrice[],
    settings: WorkspaceSettings,
    pricing: ReplayPricing,
    options: PassOptions<PricedWorkspaceConversation>,
  ): Promise<void>;
  /** The folder's days and total from the rows, in the session worker. */
  sumMoney(rows: ConversationMoney[]): Promise<FolderMoney>;
  /** Hands a conversation's hint table to the session worker. */
  hold(index: number, table: AnalyzedConversation & { ok: true }): void;
  /** Forgets every table the session worker holds. */
  clear(): Promise<void>;
  /** The workspace's figures under `settings`, from the tables held. */
  evaluate(settings: WorkspaceSettings): Promise<WorkspaceEvaluation>;
  /** The config text with these hints set, as TOML (`renderHintsToml`). */
  renderHints(recommendations: Recommendation[], configText: string): Promise<string>;
  /** Terminates every worker and fails what is pending. The pool can be used again after. */
  dispose(): void;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** Conversations in a pool worker at once: one counting, the next waiting (and its memory with it). */
const LANES = 2;

/** Creates the pool; no worker starts until it is needed. */
export function createWorkspacePool(options: WorkspacePoolOptions): WorkspacePool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const size = Math.max(1, Math.floor(options.size));
  const channelOptions = { createWorker: options.createWorker, timeoutMs };
  const workers = Array.from({ length: size }, () => createChannel(channelOptions));
  const session = createChannel(channelOptions);
  const aborted = () => new WorkerError('aborted', 'The workspace load was cancelled');

  /**
   * Runs one call per conversation over the pool: split by file size, two
   * lanes per worker, a crash or a timeout tried again alone and then
   * reported through `failed`; anything else stops the pass.
   */
  async function spread<R>(
    conversations: readonly ConversationFiles[],
    call: (worker: (typeof workers)[number], files: ConversationFiles) => Promise<R>,
    failed: (files: ConversationFiles, error: WorkerError) => R,
    { signal, onConversation }: PassOptions<R>,
  ): Promise<void> {
    if (signal?.aborted) throw aborted();
    const onAbort = () => {
      for (const worker of workers) worker.stop(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const groups = partitionBySize(
      conversations.map((conversation) => conversation.events.size),
      size,
    );
    const count = async (
      worker: (typeof workers)[number],
      files: ConversationFiles,
    ): Promise<R | WorkerError> => {
      try {
        return await call(worker, files);
      } catch (error) {
        if (signal?.aborted) throw aborted();
        // Only a crash or a timeout may be the conversation's size; anything else stops the pass.
        if (
          !(error instanceof WorkerError) ||
          (error.code !== 'crashed' && error.code !== 'timeout')
        )
          throw error;
        // The conversation's row says what failed; the console keeps what the browser said.
        console.warn(error, error.detail);
        return error;
      }
    };
    try {
      await Promise.all(
        groups.map(async (group, w) => {
          const worker = workers[w] as (typeof workers)[number];
          const queue = group.map((i) => conversations[i] as ConversationFiles);
          const retry: ConversationFiles[] = [];
          // Two lanes per worker: the next conversation is already in the
          // worker when one finishes, so it never waits for the page.
          const lane = async () => {
            for (let files = queue.shift(); files; files = queue.shift()) {
              if (signal?.aborted) throw aborted();
              const result = await count(worker, files);
              // A crash fails both lanes' conversations: try each again alone.
              if (result instanceof WorkerError) retry.push(files);
              else onConversation(result);
            }
          };
          await Promise.all(Array.from({ length: LANES }, lane));
          for (const files of retry.sort((a, b) => a.index - b.index)) {
            if (signal?.aborted) throw aborted();
            const result = await count(worker, files);
            onConversation(result instanceof WorkerError ? failed(files, result) : result);
          }
        }),
      );
    } catch (error) {
      // One worker failed for good: stop the others too.
      onAbort();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    size,

    analyze(conversations, settings, options) {
      return spread(
        conversations,
        (worker, files) => worker.call('analyze', [files, settings]),
        (files, error): AnalyzedConversation => ({
          index: files.index,
          ok: false,
          title: null,
          message: `${error.message} while counting it; it may be too large for the browser.`,
        }),
        options,
      );
    },

    price(conversations, settings, pricing, options) {
      const names = new Map(conversations.map(({ files, name }) => [files.index, name]));
      return spread(
        conversations.map(({ files }) => files),
        (worker, files) =>
          worker.call('price', [files, names.get(files.index) ?? '', settings, pricing]),
        (files, error): PricedWorkspaceConversation => ({
          index: files.index,
          ok: false,
          message: `${error.message} while replaying it; it may be too large for the browser.`,
        }),
        options,
      );
    },

    sumMoney(rows) {
      return session.call('sumMoney', [rows]);
    },

    hold(index, analyzed) {
      const { table, report, reportFor } = analyzed;
      void session.call('hold', [index, { table, report, reportFor }]).catch(() => {
        // A failed hold shows up as a stale or failed evaluation.
      });
    },

    async clear() {
      await session.call('clear', []);
    },

    evaluate(settings) {
      return session.call('evaluate', [settings]);
    },

    renderHints(recommendations, configText) {
      return session.call('renderHints', [recommendations, configText]);
    },

    dispose() {
      const error = new WorkerError('aborted', 'The workspace was closed');
      for (const worker of workers) worker.stop(error);
      session.stop(error);
    },
  };
}
