/**
 * The main-thread side of the playground worker. It owns the worker's
 * lifecycle so callers only see typed promises:
 *
 * - one job in the worker at a time, the rest queued;
 * - latest wins: a new call of a method cancels the earlier calls of the same
 *   method that have not answered yet (they reject with an `AbortError`);
 * - a timeout terminates the worker and a new one is spawned for the next job;
 * - a crashed worker is replaced the same way;
 * - errors arrive as `{ name, code, message }` and are rebuilt as `WorkerError`.
 *
 * A cancelled job that is already in the worker is left to finish and its
 * answer is dropped, rather than terminating the worker: the worker's session
 * holds the tokenizer and every token count, and rebuilding those costs more
 * than waiting for one superseded run.
 */
import { createCrashError, createTimeoutError, WorkerError } from './errors.ts';
import type { Api, Method, MethodResult, Request, Response } from './protocol.ts';

/** What the client needs of a Worker: lets tests pass a fake. */
export interface WorkerLike {
  postMessage(message: Request): void;
  terminate(): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<Response>) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
}

/** How the client is set up. */
export interface WorkerClientOptions {
  /** Makes a new worker; called lazily, and again after a timeout or a crash. */
  createWorker: () => WorkerLike;
  /** How long one job may run before the worker is replaced. Default 60 s. */
  timeoutMs?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call: it rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/** Typed calls into the worker. Each method mirrors the core session's. */
export interface WorkerClient {
  run(input: Parameters<Api['run']>[0], options?: CallOptions): Promise<MethodResult<'run'>>;
  compact(
    input: Parameters<Api['compact']>[0],
    options?: CallOptions,
  ): Promise<MethodResult<'compact'>>;
  reset(
    input: Parameters<Api['reset']>[0],
    position: Parameters<Api['reset']>[1],
    options?: CallOptions,
  ): Promise<MethodResult<'reset'>>;
  exportPeer(
    input: Parameters<Api['exportPeer']>[0],
    target: Parameters<Api['exportPeer']>[1],
    options?: CallOptions,
  ): Promise<MethodResult<'exportPeer'>>;
  /** Terminates the worker and cancels every job. The client can be used again after. */
  dispose(): void;
}

interface Job {
  request: Request;
  resolve: (value: MethodResult<Method>) => void;
  reject: (error: Error) => void;
  /** Set once the caller's promise has settled; a late answer is then dropped. */
  settled: boolean;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Creates a client; no worker starts until the first call. */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let worker: WorkerLike | null = null;
  let nextId = 1;
  let inFlight: { job: Job; timer: ReturnType<typeof setTimeout> } | null = null;
  const queue: Job[] = [];

  function settle(job: Job, outcome: { value: MethodResult<Method> } | { error: Error }): void {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if ('error' in outcome) job.reject(outcome.error);
    else job.resolve(outcome.value);
  }

  function abortError(reason: string): WorkerError {
    return new WorkerError('aborted', reason);
  }

  function spawn(): WorkerLike {
    const created = options.createWorker();
    // Events from a worker we already replaced must not touch the new one's jobs.
    created.addEventListener('message', (event: MessageEvent<Response>) => {
      if (created === worker) onResponse(event.data);
    });
    const onCrash = (event: Event) => {
      if (created !== worker) return;
      const error = createCrashError(event);
      // Even with no job in it, a worker that failed is not trusted with the next one.
      if (inFlight) {
        failInFlight(error);
      } else {
        console.warn(error, error.detail);
        replaceWorker();
      }
    };
    created.addEventListener('error', onCrash);
    created.addEventListener('messageerror', onCrash);
    return created;
  }

  function replaceWorker(): void {
    worker?.terminate();
    worker = null;
  }

  function failInFlight(error: WorkerError): void {
    if (!inFlight) return;
    const { job, timer } = inFlight;
    clearTimeout(timer);
    inFlight = null;
    replaceWorker();
    settle(job, { error });
    pump();
  }

  function onResponse(response: Response): void {
    if (!inFlight || inFlight.job.request.id !== response.id) return;
    const { job, timer } = inFlight;
    clearTimeout(timer);
    inFlight = null;
    if (response.ok) settle(job, { value: response.value });
    else settle(job, { error: WorkerError.fromSerialized(response.error) });
    pump();
  }

  function pump(): void {
    if (inFlight) return;
    const job = queue.shift();
    if (!job) return;
    worker ??= spawn();
    const timer = setTimeout(() => {
      failInFlight(createTimeoutError(timeoutMs));
    }, timeoutMs);
    inFlight = { job, timer };
    worker.postMessage(job.request);
  }

  function call<K extends Method>(
    method: K,
    args: Parameters<Api[K]>,
    callOptions: CallOptions | undefined,
  ): Promise<MethodResult<K>> {
    return new Promise<MethodResult<K>>((resolve, reject) => {
      const signal = callOptions?.signal;
      if (signal?.aborted) {
        reject(abortError(`${method} was cancelled`));
        return;
      }
      // Latest wins: anything earlier of this method is stale now.
      for (let i = queue.length - 1; i >= 0; i--) {
        const queued = queue[i] as Job;
        if (queued.request.method === method) {
          queue.splice(i, 1);
          settle(queued, { error: abortError(`${method} was superseded`) });
        }
      }
      if (inFlight && inFlight.job.request.method === method) {
        settle(inFlight.job, { error: abortError(`${method} was superseded`) });
      }
      const job: Job = {
        request: { id: nextId++, method, args } as Request,
        resolve: resolve as (value: MethodResult<Method>) => void,
        reject,
        settled: false,
        signal,
        onAbort: undefined,
      };
      if (signal) {
        job.onAbort = () => {
          const index = queue.indexOf(job);
          if (index >= 0) queue.splice(index, 1);
          settle(job, { error: abortError(`${method} was cancelled`) });
        };
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      queue.push(job);
      pump();
    });
  }

  return {
    run: (input, callOptions) => call('run', [input], callOptions),
    compact: (input, callOptions) => call('compact', [input], callOptions),
    reset: (input, position, callOptions) => call('reset', [input, position], callOptions),
    exportPeer: (input, target, callOptions) => call('exportPeer', [input, target], callOptions),
    dispose() {
      const pending = [...queue.splice(0), ...(inFlight ? [inFlight.job] : [])];
      if (inFlight) clearTimeout(inFlight.timer);
      inFlight = null;
      replaceWorker();
      for (const job of pending) settle(job, { error: abortError('The worker was disposed') });
    },
  };
}
