/**
 * The one message shape between the page and any of our workers. Types only,
 * used on both threads. A worker exposes an API: an object of functions. The
 * requests and replies are derived from it, so a change to a function
 * changes what the worker accepts and returns, and nothing is written twice:
 *
 * - a request is `{ id, method, args }`, with `args: Parameters<Api[method]>`;
 * - a reply is `{ id, ok: true, value }` with the method's awaited result, or
 *   `{ id, ok: false, error }` with a serialised, typed error.
 */
import type { PackedPath } from './row-packing.ts';

/** Any worker API: methods that take cloneable arguments and return (a promise of) a value. */
export type BridgeApi<A> = {
  [K in keyof A]: (...args: never[]) => unknown;
};

/** A method name of a worker API. */
export type Method<A> = keyof A & string;

/** What a method takes. */
export type MethodArgs<A extends BridgeApi<A>, K extends Method<A>> = Parameters<A[K]>;

/** What a method resolves to, once the worker's promise settles. */
export type MethodResult<A extends BridgeApi<A>, K extends Method<A>> = Awaited<ReturnType<A[K]>>;

/** Why a job failed, as a stable code the page can branch on. */
export type WorkerErrorCode =
  /** The caller cancelled it, or a newer job of the same kind replaced it. Silent. */
  | 'aborted'
  /** It ran longer than the client's timeout; the worker was terminated and respawned. */
  | 'timeout'
  /** The worker died (an uncaught error, or its script failed to load). */
  | 'crashed'
  /** The worker threw: a bug, never an error in the user's input (those are diagnostics). */
  | 'internal'
  /** The worker received a method it does not know (page and worker out of step). */
  | 'unknown-method'
  /** The worker does not hold the stream a call names (a new worker): the client sends it again. */
  | 'stream-missing'
  /** A part of this build (a lazy chunk) is no longer on the server: the tab is on an older version. */
  | 'outdated';

/** An error as it crosses `postMessage`: class identity does not survive, so keep a code. */
export interface SerializedError {
  /** The original error's `name` (e.g. `TypeError`, `DataCloneError`). */
  name: string;
  /** What kind of failure it is; the page branches on this, never on the message. */
  code: WorkerErrorCode;
  /** A short sentence for people. */
  message: string;
}

/** A call from the page to a worker serving `A`. */
export type BridgeRequest<A extends BridgeApi<A>> = {
  [K in Method<A>]: {
    /** Unique per channel; pairs the reply with its call. */
    id: number;
    method: K;
    args: MethodArgs<A, K>;
    /**
     * The call's group: its latest-wins group, else its method. The page
     * keeps each group's last rows, and the worker compares a reply's
     * columns with the last ones of its group (`row-packing.ts`).
     */
    group: string;
  };
}[Method<A>];

/** A worker's answer to one request. */
export type BridgeResponse<A extends BridgeApi<A>> =
  | {
      id: number;
      ok: true;
      /** The method's resolved value; the channel knows its type from the request. */
      value: MethodResult<A, Method<A>>;
      /** Where `value` holds rows packed as columns for the crossing (`row-packing.ts`). */
      packed?: PackedPath[];
      /** Column ids the page may drop once it has taken in this reply (`receiveColumns`). */
      forget?: number[];
    }
  | {
      id: number;
      ok: false;
      error: SerializedError;
    };

/**
 * A worker's first message when the page gave it a lifeline (its `name`):
 * the worker now holds the Web Lock of that name until it dies, so the page,
 * asking for the same lock, learns of its death at once (a worker that
 * closes or is torn down fires no event).
 */
export interface LifelineMessage {
  lifeline: string;
}

/** The part of the Web Locks API a lifeline needs (absent in Node and old browsers). */
export interface LifelineLocks {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

/** What a worker sends the page: replies, and once its lifeline message. */
export type WorkerMessage<A extends BridgeApi<A>> = BridgeResponse<A> | LifelineMessage;

/**
 * What the page needs of a Worker serving `A` (a real `Worker`, or a fake in
 * tests).
 */
export interface BridgeWorker<A extends BridgeApi<A>> {
  postMessage(message: BridgeRequest<A>): void;
  terminate(): void;
  addEventListener(
    type: 'message',
    listener: (event: MessageEvent<WorkerMessage<A>>) => void,
  ): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
}
