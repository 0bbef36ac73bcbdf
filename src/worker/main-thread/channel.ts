/**
 * The main-thread end of the bridge, for any worker: typed calls in, typed
 * promises out. Both the playground client and the workspace pool are built
 * on it. It owns one worker's lifecycle:
 *
 * - requests carry ids, and a reply settles the call with the same id;
 * - at most `concurrency` calls are in the worker at once, the rest queue;
 * - latest wins, for the calls that ask for it: a new call of a method
 *   cancels the earlier calls of that method not answered yet (they reject
 *   with an `AbortError`);
 * - a call past the timeout, or a worker that dies, fails every call in the
 *   worker and terminates it; the next call spawns a new one. A worker that
 *   dies without an `error` event (it closed, or the browser tore it down)
 *   is seen at once through its lifeline: a Web Lock it holds while it
 *   lives (see `LifelineMessage`), where the browser has Web Locks;
 * - error replies arrive as `{ name, code, message }` and are rebuilt as
 *   `WorkerError`s with the same code.
 *
 * A cancelled call that is already in the worker is left to finish and its
 * answer is dropped, rather than terminating the worker: the playground
 * worker's session holds the tokenizer and every token count, and rebuilding
 * those costs more than waiting for one superseded run.
 */

import {
  createCrashError,
  createStoppedError,
  createTimeoutError,
  serializeError,
  WorkerError,
} from '../shared/errors.ts';
import type {
  BridgeApi,
  BridgeRequest,
  BridgeResponse,
  BridgeWorker,
  LifelineLocks,
  Method,
  MethodArgs,
  MethodResult,
  WorkerMessage,
} from '../shared/protocol.ts';
import {
  builtRows,
  type EarlierRows,
  type ReceivedColumns,
  receiveColumns,
  unpackReply,
} from '../shared/row-packing.ts';

/** How a channel is set up. */
export interface ChannelOptions<A extends BridgeApi<A>> {
  /**
   * Makes a new worker; called lazily, and again after a timeout, a crash or
   * `stop`. `lifeline` is the name to give it (`new Worker(url, { name })`).
   */
  createWorker: (lifeline: string) => BridgeWorker<A>;
  /** The Web Locks the lifeline uses; default `navigator.locks`, null: none. */
  locks?: LifelineLocks | null;
  /** How long one call may be in the worker before the worker is replaced. */
  timeoutMs: number;
  /** How many calls may be in the worker at once; the rest wait their turn. Default: no limit. */
  concurrency?: number;
  /**
   * A call superseded while in the worker (latest wins) gives up its slot,
   * so the call that replaced it is posted at once rather than after the
   * superseded one's reply has been read on the main thread: the worker has
   * usually answered already, and its reply waits behind the page's task
   * (the keystroke, Monaco's frame) that asked for the new call. The worker
   * reads its messages in order, so the new call still runs after the old
   * one. One superseded call at a time gives up its slot: the worker never
   * holds more than one call nobody waits for ahead of the live ones.
   */
  releaseSuperseded?: boolean;
  /** Called when the worker is terminated (a crash, a timeout, `stop`): what it held is gone. */
  onWorkerStopped?: () => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call: it rejects with an `AbortError`. */
  signal?: AbortSignal;
  /**
   * A new call of the same method cancels this one if it has not been
   * answered yet; with a key, only a new call of the same method and key does
   * (each extra replaces only its own earlier calls).
   */
  latestWins?: boolean | string;
  /**
   * Posted at once, ahead of the queued calls and without taking one of the
   * `concurrency` slots: for a call the worker answers at once and that the
   * calls after it need (the stream handed over). The worker reads its
   * messages in order, so it has the stream before the run that names it;
   * waiting for its reply instead held the run behind whatever the main
   * thread did meanwhile (Monaco taking in a 1.8 MB file: 500 ms).
   */
  immediate?: boolean;
  /**
   * The reply's tables are built a row at a time as the page reads them
   * (`unpackReply`'s `rowsOnRead`): for a reply whose page reads only the
   * rows it draws. Such a reply cannot be posted on to another worker.
   */
  rowsOnRead?: boolean;
}

/** Typed calls into one worker. */
export interface Channel<A extends BridgeApi<A>> {
  /** Calls `method` in the worker; resolves with its value or rejects with a `WorkerError`. */
  call<K extends Method<A>>(
    method: K,
    args: MethodArgs<A, K>,
    options?: CallOptions,
  ): Promise<MethodResult<A, K>>;
  /** Terminates the worker; every pending call rejects with `error`. The channel can be used again after. */
  stop(error: WorkerError): void;
  /** Starts the worker now, before the first call, so its script loads while the page does other work. */
  start(): void;
}

interface Job<A extends BridgeApi<A>> {
  request: BridgeRequest<A>;
  /** The group a newer call replaces this one in (method and key), or null. */
  latestWins: string | null;
  resolve: (value: MethodResult<A, Method<A>>) => void;
  reject: (error: Error) => void;
  /** Set once the caller's promise has settled; a late answer is then dropped. */
  settled: boolean;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Posted without waiting for a slot ({@link CallOptions.immediate}). */
  immediate: boolean;
  /** Its reply's rows built as they are read ({@link CallOptions.rowsOnRead}). */
  rowsOnRead: boolean;
  /** Replaced by a newer call while in the worker: its answer will be dropped. */
  superseded: boolean;
  /**
   * Posted while a superseded call that gave up its slot was still in the
   * worker: should the worker fail (that call hung, or crashed it), this one
   * goes to the next worker as it would have from the queue.
   */
  behindReleased: boolean;
}

/** Creates a channel; no worker starts until the first call. */
export function createChannel<A extends BridgeApi<A>>(options: ChannelOptions<A>): Channel<A> {
  const { timeoutMs } = options;
  const concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
  const locks =
    options.locks === undefined
      ? (globalThis as { navigator?: { locks?: LifelineLocks } }).navigator?.locks
      : options.locks;
  let worker: BridgeWorker<A> | null = null;
  let nextId = 1;
  const queue: Job<A>[] = [];
  const inFlight = new Map<number, { job: Job<A>; timer: ReturnType<typeof setTimeout> }>();

  function settle(
    job: Job<A>,
    outcome: { value: MethodResult<A, Method<A>> } | { error: Error },
  ): void {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if ('error' in outcome) job.reject(outcome.error);
    else job.resolve(outcome.value);
  }

  function spawn(): BridgeWorker<A> {
    const created = options.createWorker(
      `compaction-playground-worker:${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
    );
    // Events from a worker already replaced must not touch the new one's calls.
    created.addEventListener('message', (event: MessageEvent<WorkerMessage<A>>) => {
      if (created !== worker) return;
      const data = event.data;
      if ('lifeline' in data) watchLifeline(created, data.lifeline);
      else onResponse(data);
    });
    const onCrash = (event: Event) => {
      if (created !== worker) return;
      const error = createCrashError(event);
      // With calls in it, each caller reports it; otherwise only the console can.
      if (inFlight.size === 0) console.warn(error, error.detail);
      // Even with no call in it, a worker that failed is not trusted with the next one.
      failWorker(error);
    };
    created.addEventListener('error', onCrash);
    created.addEventListener('messageerror', onCrash);
    return created;
  }

  /** The lock is granted when the worker that held it is gone: by our hand, or not. */
  function watchLifeline(created: BridgeWorker<A>, name: string): void {
    void locks?.request(name, async () => {
      if (created !== worker) return;
      const error = createStoppedError();
      if (inFlight.size === 0) console.warn(error);
      failWorker(error);
    });
  }

  /**
   * Terminates the worker and fails every call in it; queued calls go to a
   * new worker, and so do the calls posted behind a released superseded one.
   */
  function failWorker(error: WorkerError): void {
    worker?.terminate();
    worker = null;
    workerGeneration++;
    earlierRows.clear();
    receivedColumns.clear();
    options.onWorkerStopped?.();
    const failed = [...inFlight.values()];
    inFlight.clear();
    const retried: Job<A>[] = [];
    for (const { job, timer } of failed) {
      clearTimeout(timer);
      if (job.behindReleased && !job.settled) {
        job.behindReleased = false;
        retried.push(job);
      } else settle(job, { error });
    }
    queue.unshift(...retried);
    pump();
  }

  // Replies settle in the order they came. One with packed rows is built again in slices
  // (row-packing.ts), and the replies after it wait for it.
  let delivering: Promise<void> = Promise.resolve();
  let waitingDeliveries = 0;
  function deliver(step: () => void | Promise<void>): void {
    if (waitingDeliveries === 0) {
      const started = step();
      if (!started) return;
      waitingDeliveries++;
      delivering = started.finally(() => {
        waitingDeliveries--;
      });
      return;
    }
    waitingDeliveries++;
    delivering = delivering.then(step).finally(() => {
      waitingDeliveries--;
    });
  }

  /**
   * The rows each call group's last reply was built with (its latest-wins
   * group, else its method: each extra has its own), which the next reply of
   * the group takes where unchanged (`unpackReply`'s `earlier`). Only the
   * arrays are kept; a reply without packed rows, or a failed call, forgets
   * them, and so does a worker stopped.
   */
  const earlierRows = new Map<string, EarlierRows>();

  /**
   * The columns the worker has posted (row-packing.ts), taken in from every
   * reply as it arrives, a dropped one included: a later reply may name
   * them. Emptied with the worker, as the worker's own record is.
   */
  const receivedColumns: ReceivedColumns = new Map();
  /** Counts the workers replaced: a reply still being built for an earlier one keeps nothing. */
  let workerGeneration = 0;

  function onResponse(response: BridgeResponse<A>): void {
    if (response.ok && response.packed) {
      try {
        receiveColumns(response.value, response.packed, response.forget ?? [], receivedColumns);
      } catch (error) {
        // Out of step with the worker (a bug): a new worker starts both sides afresh, and the
        // calls in it fail as after a crash, which callers already retry or report.
        failWorker(
          new WorkerError('crashed', 'The worker stopped unexpectedly', {
            detail: error instanceof Error ? error.message : String(error),
          }),
        );
        return;
      }
    }
    const entry = inFlight.get(response.id);
    if (!entry) return;
    clearTimeout(entry.timer);
    inFlight.delete(response.id);
    const { job } = entry;
    const group = job.request.group;
    const builtFor = workerGeneration;
    if (!response.ok) {
      earlierRows.delete(group);
      const error = WorkerError.fromSerialized(response.error);
      deliver(() => settle(job, { error }));
    } else if (response.packed && response.packed.length > 0) {
      const packed = response.packed;
      deliver(async () => {
        try {
          const value = await unpackReply(
            response.value,
            packed,
            { rowsOnRead: job.rowsOnRead },
            earlierRows.get(group),
          );
          // Not for a worker stopped while these rows were built: the next worker starts afresh.
          if (builtFor === workerGeneration) earlierRows.set(group, builtRows(value, packed));
          settle(job, { value });
        } catch (error) {
          settle(job, { error: error instanceof Error ? error : new Error(String(error)) });
        }
      });
    } else {
      earlierRows.delete(group);
      deliver(() => settle(job, { value: response.value }));
    }
    pump();
  }

  /** The calls in the worker that hold a slot (see `releaseSuperseded`). */
  function slotsTaken(): number {
    let taken = 0;
    let superseded = 0;
    for (const { job } of inFlight.values()) {
      if (job.immediate) continue;
      if (job.superseded && options.releaseSuperseded) superseded++;
      else taken++;
    }
    return taken + Math.max(0, superseded - 1);
  }

  function pump(): void {
    while (slotsTaken() < concurrency) {
      const job = queue.shift();
      if (!job) return;
      post(job);
    }
  }

  function post(job: Job<A>): void {
    job.behindReleased = [...inFlight.values()].some(
      ({ job: ahead }) => ahead.superseded && options.releaseSuperseded === true,
    );
    worker ??= spawn();
    const current = worker;
    const timer = setTimeout(() => {
      failWorker(createTimeoutError(timeoutMs));
    }, timeoutMs);
    inFlight.set(job.request.id, { job, timer });
    try {
      current.postMessage(job.request);
    } catch (error) {
      // The arguments did not clone (a DataCloneError): this call fails, the worker is fine.
      clearTimeout(timer);
      inFlight.delete(job.request.id);
      settle(job, { error: WorkerError.fromSerialized(serializeError(error)) });
    }
  }

  function cancelEarlier(method: Method<A>, group: string): void {
    const reason = () => new WorkerError('aborted', `${method} was superseded`);
    for (let i = queue.length - 1; i >= 0; i--) {
      const queued = queue[i] as Job<A>;
      if (queued.latestWins === group) {
        queue.splice(i, 1);
        settle(queued, { error: reason() });
      }
    }
    // Still in the worker: its answer will be dropped, and its slot freed when it comes (or at
    // once, with `releaseSuperseded`).
    for (const { job } of inFlight.values()) {
      if (job.latestWins !== group) continue;
      job.superseded = true;
      settle(job, { error: reason() });
    }
  }

  return {
    call(method, args, callOptions = {}) {
      return new Promise((resolve, reject) => {
        const { signal } = callOptions;
        const key = callOptions.latestWins ?? false;
        const latestWins = key === false ? null : key === true ? method : `${method}\u0000${key}`;
        if (signal?.aborted) {
          reject(new WorkerError('aborted', `${method} was cancelled`));
          return;
        }
        if (latestWins !== null) cancelEarlier(method, latestWins);
        const job: Job<A> = {
          request: { id: nextId++, method, args, group: latestWins ?? method } as BridgeRequest<A>,
          latestWins,
          resolve: resolve as (value: MethodResult<A, Method<A>>) => void,
          reject,
          settled: false,
          signal,
          onAbort: undefined,
          immediate: callOptions.immediate === true,
          rowsOnRead: callOptions.rowsOnRead === true,
          superseded: false,
          behindReleased: false,
        };
        if (signal) {
          job.onAbort = () => {
            const index = queue.indexOf(job);
            if (index >= 0) queue.splice(index, 1);
            settle(job, { error: new WorkerError('aborted', `${method} was cancelled`) });
          };
          signal.addEventListener('abort', job.onAbort, { once: true });
        }
        if (job.immediate) post(job);
        else {
          queue.push(job);
          pump();
        }
      });
    },

    start() {
      worker ??= spawn();
    },

    stop(error) {
      const pending = [...queue.splice(0), ...[...inFlight.values()].map(({ job }) => job)];
      for (const { timer } of inFlight.values()) clearTimeout(timer);
      inFlight.clear();
      worker?.terminate();
      worker = null;
      workerGeneration++;
      earlierRows.clear();
      receivedColumns.clear();
      options.onWorkerStopped?.();
      for (const job of pending) settle(job, { error });
    },
  };
}
