/**
 * The main-thread side of the playground worker: the bridge's channel with
 * one job in the worker at a time, every method latest-wins (a new run
 * cancels the run still waiting), a 60 s timeout, and a crashed or timed-out
 * worker replaced for the next job. Callers only see typed promises that
 * reject with `WorkerError`s.
 */
import { WorkerError } from '../shared/errors.ts';
import type { PlaygroundApi, PlaygroundResult } from '../shared/playground-protocol.ts';
import type { BridgeWorker, Method, MethodArgs } from '../shared/protocol.ts';
import { createChannel } from './channel.ts';

/** What the client needs of a Worker: lets tests pass a fake. */
export type WorkerLike = BridgeWorker<PlaygroundApi>;

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

type Args<K extends Method<PlaygroundApi>> = MethodArgs<PlaygroundApi, K>;

/** Typed calls into the worker. Each method mirrors the core session's. */
export interface WorkerClient {
  run(input: Args<'run'>[0], options?: CallOptions): Promise<PlaygroundResult<'run'>>;
  compact(input: Args<'compact'>[0], options?: CallOptions): Promise<PlaygroundResult<'compact'>>;
  reset(
    input: Args<'reset'>[0],
    position: Args<'reset'>[1],
    options?: CallOptions,
  ): Promise<PlaygroundResult<'reset'>>;
  exportPeer(
    input: Args<'exportPeer'>[0],
    target: Args<'exportPeer'>[1],
    options?: CallOptions,
  ): Promise<PlaygroundResult<'exportPeer'>>;
  /** Terminates the worker and cancels every job. The client can be used again after. */
  dispose(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Creates a client; no worker starts until the first call. */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  const channel = createChannel<PlaygroundApi>({
    createWorker: options.createWorker,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // One at a time: a queued run can still be superseded before it costs anything.
    concurrency: 1,
  });
  const call = <K extends Method<PlaygroundApi>>(
    method: K,
    args: Args<K>,
    callOptions: CallOptions | undefined,
  ) => channel.call(method, args, { ...callOptions, latestWins: true });

  return {
    run: (input, callOptions) => call('run', [input], callOptions),
    compact: (input, callOptions) => call('compact', [input], callOptions),
    reset: (input, position, callOptions) => call('reset', [input, position], callOptions),
    exportPeer: (input, target, callOptions) => call('exportPeer', [input, target], callOptions),
    dispose() {
      channel.stop(new WorkerError('aborted', 'The worker was disposed'));
    },
  };
}
