/**
 * The main-thread side of the workspace workers (`pool-worker.ts`): a pool
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
 * - Errors arrive as messages and are rebuilt as `WorkerError`s.
 */
import type { Recommendation } from '../core/playground/recommend.ts';
import { partitionBySize } from '../core/playground/workspace.ts';
import { createCrashError, createTimeoutError, WorkerError } from './errors.ts';
import type {
  AnalyzedConversation,
  ConversationFiles,
  PoolAnswers,
  PoolRequest,
  PoolResponse,
  StreamRecommendation,
  WorkspaceEvaluation,
  WorkspaceSettings,
} from './pool-protocol.ts';

/** What the pool needs of a Worker: lets tests pass a fake. */
export interface PoolWorkerLike {
  postMessage(message: PoolRequest): void;
  terminate(): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<PoolResponse>) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
}

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
  createWorker: () => PoolWorkerLike;
  /** Pool workers (see `getPoolSize`). */
  size: number;
  /** How long one conversation (or one session request) may take. Default 120 s. */
  timeoutMs?: number;
}

/** Options of a load. */
export interface AnalyzeOptions {
  /** Cancels the load: the pool's workers are terminated and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Called with each conversation as soon as a worker has analysed it. */
  onConversation: (result: AnalyzedConversation) => void;
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
  /** Hands a conversation's hint table to the session worker. */
  hold(index: number, table: AnalyzedConversation & { ok: true }): void;
  /** Forgets every table the session worker holds. */
  clear(): Promise<void>;
  /** The workspace's figures under `settings`, from the tables held. */
  evaluate(settings: WorkspaceSettings): Promise<WorkspaceEvaluation>;
  /** Recommendations for one conversation's text (the editor's). */
  recommendStream(text: string, settings: WorkspaceSettings): Promise<StreamRecommendation>;
  /** The config text with these hints set, as TOML (`renderHintsToml`). */
  renderHints(recommendations: Recommendation[], configText: string): Promise<string>;
  /** Terminates every worker and fails what is pending. The pool can be used again after. */
  dispose(): void;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** Conversations in a pool worker at once: one counting, the next waiting (and its memory with it). */
const LANES = 2;

type RequestBody = PoolRequest extends infer R
  ? R extends PoolRequest
    ? Omit<R, 'id'>
    : never
  : never;

interface Pending {
  resolve: (value: PoolAnswers[keyof PoolAnswers]) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** One worker with typed request/answer pairs; respawned after a crash, a timeout or `stop`. */
function createChannel(createWorker: () => PoolWorkerLike, timeoutMs: number) {
  let worker: PoolWorkerLike | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  function failAll(error: WorkerError): void {
    worker?.terminate();
    worker = null;
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) {
      clearTimeout(call.timer);
      call.reject(error);
    }
  }

  function spawn(): PoolWorkerLike {
    const created = createWorker();
    created.addEventListener('message', (event: MessageEvent<PoolResponse>) => {
      if (created !== worker) return;
      const response = event.data;
      const call = pending.get(response.id);
      if (!call) return;
      pending.delete(response.id);
      clearTimeout(call.timer);
      if (response.ok) call.resolve(response.value);
      else call.reject(new WorkerError('internal', response.message));
    });
    const onCrash = (event: Event) => {
      if (created !== worker) return;
      const error = createCrashError(event);
      // With calls pending, each caller reports it; otherwise only the console can.
      if (pending.size === 0) console.warn(error, error.detail);
      failAll(error);
    };
    created.addEventListener('error', onCrash);
    created.addEventListener('messageerror', onCrash);
    return created;
  }

  return {
    call<K extends RequestBody['type']>(
      body: Extract<RequestBody, { type: K }>,
    ): Promise<PoolAnswers[K]> {
      return new Promise((resolve, reject) => {
        worker ??= spawn();
        const id = nextId++;
        const timer = setTimeout(() => {
          failAll(createTimeoutError(timeoutMs));
        }, timeoutMs);
        pending.set(id, {
          resolve: resolve as (value: PoolAnswers[keyof PoolAnswers]) => void,
          reject,
          timer,
        });
        worker.postMessage({ ...body, id } as PoolRequest);
      });
    },
    /** Terminates the worker; pending calls reject with `error`. */
    stop(error: WorkerError): void {
      failAll(error);
    },
  };
}

/** Creates the pool; no worker starts until it is needed. */
export function createWorkspacePool(options: WorkspacePoolOptions): WorkspacePool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const size = Math.max(1, Math.floor(options.size));
  const workers = Array.from({ length: size }, () =>
    createChannel(options.createWorker, timeoutMs),
  );
  const session = createChannel(options.createWorker, timeoutMs);
  const aborted = () => new WorkerError('aborted', 'The workspace load was cancelled');

  return {
    size,

    async analyze(conversations, settings, { signal, onConversation }) {
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
      ): Promise<AnalyzedConversation | WorkerError> => {
        try {
          return await worker.call({ type: 'analyze', files, settings });
        } catch (error) {
          if (signal?.aborted) throw aborted();
          if (!(error instanceof WorkerError) || error.code === 'internal') throw error;
          // The conversation's row says what failed; the console keeps what the browser said.
          console.warn(error, error.detail);
          return error;
        }
      };
      const failed = (files: ConversationFiles, error: WorkerError): AnalyzedConversation => ({
        index: files.index,
        ok: false,
        title: null,
        message: `${error.message} while counting it; it may be too large for the browser.`,
      });
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
    },

    hold(index, analyzed) {
      void session.call({ type: 'hold', index, table: analyzed.table }).catch(() => {
        // A failed hold shows up as a stale or failed evaluation.
      });
    },

    async clear() {
      await session.call({ type: 'clear' });
    },

    evaluate(settings) {
      return session.call({ type: 'evaluate', settings });
    },

    recommendStream(text, settings) {
      return session.call({ type: 'recommend-stream', text, settings });
    },

    renderHints(recommendations, configText) {
      return session.call({ type: 'render-hints', recommendations, configText });
    },

    dispose() {
      const error = new WorkerError('aborted', 'The workspace was closed');
      for (const worker of workers) worker.stop(error);
      session.stop(error);
    },
  };
}
