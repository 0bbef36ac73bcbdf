/**
 * The main-thread side of the playground worker: the bridge's channel with
 * one job in the worker at a time, a 60 s timeout, and a crashed or timed-out
 * worker replaced for the next job. Callers only see typed promises that
 * reject with `WorkerError`s.
 *
 * - Latest wins per kind of call: a new run cancels the run still waiting,
 *   and a new request for an extra cancels the earlier request for that
 *   extra (not the other extras, nor the run).
 * - Figures before extras: an extra is posted only once no run is waiting
 *   or in the worker and none was asked for in the last `extrasQuietMs`
 *   (typing). The worker does one job at a time and cannot drop one it has
 *   begun, so an extra posted between two keystrokes (the transcripts of a
 *   large conversation, the what-if grid under reading 13.1 `apply`) would
 *   hold the next keystroke's run behind it: that is what took a hint edit
 *   from 43 ms to 146 ms once extras were asked per version.
 * - The stream crosses once per change: the client hands the worker each new
 *   stream text once (`setStream`) and names it by number in every call
 *   after; the worker that replaces a failed one is handed it again, and a
 *   call that reached a worker without it (`stream-missing`) is sent once
 *   more after the stream.
 */
import type { ExtraArgs, ExtraName } from '../../core/analyses/extras.ts';
import type { PlaygroundInput } from '../../core/playground/types.ts';
import { WorkerError } from '../shared/errors.ts';
import type {
  ExtraReply,
  PlaygroundApi,
  PlaygroundReply,
  WorkerInput,
} from '../shared/playground-protocol.ts';
import type { BridgeWorker, Method, MethodArgs } from '../shared/protocol.ts';
import { createChannel } from './channel.ts';

/** What the client needs of a Worker: lets tests pass a fake. */
export type WorkerLike = BridgeWorker<PlaygroundApi>;

/** How the client is set up. */
export interface WorkerClientOptions {
  /** Makes a new worker; called lazily, and again after a timeout or a crash. */
  createWorker: (lifeline: string) => WorkerLike;
  /** How long one job may run before the worker is replaced. Default 60 s. */
  timeoutMs?: number;
  /** How long runs must have been quiet before an extra is posted. Default 200 ms. */
  extrasQuietMs?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call: it rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/** Typed calls into the worker, with the stream as text: the client hands it over once. */
export interface WorkerClient {
  /** The figures of an input. */
  run(input: PlaygroundInput, options?: CallOptions): Promise<PlaygroundReply<'run'>>;
  /** The same figures counted as characters ÷ 4: asked for just before a run that counts a large stream. */
  estimate(input: PlaygroundInput, options?: CallOptions): Promise<PlaygroundReply<'run'>>;
  /** One extra of an input version (see `core/analyses/extras.ts`). */
  extra<K extends ExtraName>(
    request: { name: K; version: number; input: PlaygroundInput; args: ExtraArgs<K> },
    options?: CallOptions,
  ): Promise<ExtraReply<K>>;
  compact(input: PlaygroundInput, options?: CallOptions): Promise<PlaygroundReply<'compact'>>;
  reset(
    input: PlaygroundInput,
    position: number | null,
    options?: CallOptions,
  ): Promise<PlaygroundReply<'reset'>>;
  exportPeer(
    input: PlaygroundInput,
    target: MethodArgs<PlaygroundApi, 'exportPeer'>[1],
    set: MethodArgs<PlaygroundApi, 'exportPeer'>[2],
    options?: CallOptions,
  ): Promise<PlaygroundReply<'exportPeer'>>;
  /**
   * Starts the worker now rather than at the first call: its script and the
   * tokenizer's tables (the worker loads them as it starts) then come while
   * the page's own script runs and the first screen renders.
   */
  start(): void;
  /** Terminates the worker and cancels every job. The client can be used again after. */
  dispose(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** Longer than the pause between two keystrokes of someone typing, short enough to go unnoticed. */
const DEFAULT_EXTRAS_QUIET_MS = 200;

/**
 * The extras whose pane reads only the rows it draws (the what-if grid, a
 * virtual list): their rows are built as they are read (`CallOptions.rowsOnRead`
 * of the channel), not all when the reply comes.
 */
const EXTRAS_READ_AS_DRAWN: ReadonlySet<ExtraName> = new Set<ExtraName>(['whatIf']);

/** Creates a client; no worker starts until the first call. */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  /** The stream the current worker holds (or has queued), and its number. */
  let handed: { text: string; id: number } | null = null;
  let nextStreamId = 1;
  const channel = createChannel<PlaygroundApi>({
    createWorker: options.createWorker,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // One at a time: a queued run can still be superseded before it costs anything.
    concurrency: 1,
    // A keystroke's run is posted at once when it supersedes the run in the worker: that run has
    // usually answered, its reply still queued behind the keystroke's task (about 20 ms of a
    // hint edit, measured).
    releaseSuperseded: true,
    // The next worker holds no stream: hand it over again.
    onWorkerStopped: () => {
      handed = null;
    },
  });

  const quiet = createRunsQuiet(options.extrasQuietMs ?? DEFAULT_EXTRAS_QUIET_MS);

  /** The input with its stream named by number, handing the text over first when it is new. */
  const toWorkerInput = (input: PlaygroundInput): WorkerInput => {
    if (handed?.text !== input.streamText) {
      handed = { text: input.streamText, id: nextStreamId++ };
      // Never superseded: the calls queued behind it need it. A failure shows as `stream-missing`.
      // Posted at once: the worker reads it before the run that names it, and the run need not
      // wait for its reply (on a busy main thread, behind Monaco taking in the same text).
      channel.call('setStream', [handed.id, handed.text], { immediate: true }).catch(() => {});
    }
    const { streamText: _text, ...rest } = input;
    return { ...rest, stream: handed.id };
  };

  /** Calls `method` with the input converted; once more if the worker lost the stream. */
  const call = async <K extends Method<PlaygroundApi>>(
    method: K,
    input: PlaygroundInput,
    args: (worker: WorkerInput) => MethodArgs<PlaygroundApi, K>,
    callOptions: CallOptions | undefined,
    latestWins: boolean | string,
    rowsOnRead = false,
  ): Promise<PlaygroundReply<K>> => {
    const once = () =>
      channel.call(method, args(toWorkerInput(input)), {
        ...callOptions,
        latestWins,
        rowsOnRead,
      });
    try {
      return await once();
    } catch (error) {
      if (!(error instanceof WorkerError) || error.code !== 'stream-missing') throw error;
      handed = null;
      return once();
    }
  };

  return {
    run: (input, callOptions) => quiet.track(call('run', input, (w) => [w], callOptions, true)),
    // Its own latest-wins group: the counted run posted right after it must not cancel it.
    estimate: (input, callOptions) =>
      quiet.track(
        call('run', { ...input, tokenizer: 'chars' }, (w) => [w], callOptions, 'estimate'),
      ),
    async extra(request, callOptions) {
      const { input, ...rest } = request;
      await quiet.wait(request.name, callOptions?.signal);
      const reply = await call(
        'extra',
        input,
        (w) => [{ ...rest, input: w }],
        callOptions,
        request.name,
        EXTRAS_READ_AS_DRAWN.has(request.name),
      );
      return reply as ExtraReply<typeof request.name>;
    },
    compact: (input, callOptions) => call('compact', input, (w) => [w], callOptions, true),
    reset: (input, position, callOptions) =>
      call('reset', input, (w) => [w, position], callOptions, true),
    exportPeer: (input, target, set, callOptions) =>
      call('exportPeer', input, (w) => [w, target, set], callOptions, true),
    start: () => channel.start(),
    dispose() {
      handed = null;
      quiet.cancelAll();
      channel.stop(new WorkerError('aborted', 'The worker was disposed'));
    },
  };
}

/**
 * When runs have been quiet: none waiting or in the worker, and none asked
 * for in the last `quietMs`. Extras wait for it; a newer wait for the same
 * extra replaces the older one (it rejects with an `AbortError`).
 */
function createRunsQuiet(quietMs: number) {
  let pending = 0;
  let lastRunAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();

  const release = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending > 0 || waiting.size === 0) return;
    const left = lastRunAt + quietMs - Date.now();
    if (left > 0) {
      timer = setTimeout(release, left);
      return;
    }
    const ready = [...waiting.values()];
    waiting.clear();
    for (const waiter of ready) waiter.resolve();
  };

  return {
    /** Counts a run from its call until it settles. */
    track<T>(run: Promise<T>): Promise<T> {
      pending++;
      lastRunAt = Date.now();
      const done = () => {
        pending--;
        release();
      };
      run.then(done, done);
      return run;
    },
    /** Resolves once runs are quiet; rejects when `signal` aborts or a newer wait for `key` comes. */
    wait(key: string, signal: AbortSignal | undefined): Promise<void> {
      waiting.get(key)?.reject(new WorkerError('aborted', `extra ${key} was superseded`));
      if (signal?.aborted)
        return Promise.reject(new WorkerError('aborted', `extra ${key} was cancelled`));
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          if (waiting.get(key)?.reject !== fail) return;
          waiting.delete(key);
          reject(new WorkerError('aborted', `extra ${key} was cancelled`));
        };
        const fail = (error: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        };
        waiting.set(key, {
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject: fail,
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        release();
      });
    },
    /** Rejects every wait (the client was disposed). */
    cancelAll(): void {
      for (const [key, waiter] of waiting) {
        waiter.reject(new WorkerError('aborted', `extra ${key} was cancelled`));
      }
      waiting.clear();
    },
  };
}
