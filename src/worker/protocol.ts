/**
 * The messages between the page and the playground worker. Types only, and
 * derived from the core's session so that nothing is written twice: a change
 * to `PlaygroundSession` changes what the worker accepts and returns.
 */
import type { exportPeerForInput } from '../core/export/peer-export.ts';
import type { PlaygroundSession } from '../core/playground/playground.ts';

/** The methods the worker serves: the session's, and the peer exports. */
export type Api = {
  run: PlaygroundSession['run'];
  compact: PlaygroundSession['compact'];
  reset: PlaygroundSession['reset'];
  exportPeer: typeof exportPeerForInput;
};

/** A method name of the worker. */
export type Method = keyof Api;

/** What a method resolves to, once the worker's promise settles. */
export type MethodResult<K extends Method> = Awaited<ReturnType<Api[K]>>;

/** Why a job failed, as a stable code the page can branch on. */
export type WorkerErrorCode =
  /** The caller cancelled it, or a newer job of the same kind replaced it. Silent. */
  | 'aborted'
  /** It ran longer than the client's timeout; the worker was terminated and respawned. */
  | 'timeout'
  /** The worker died (an uncaught error, or its script failed to load). */
  | 'crashed'
  /** The core threw: a bug, never an error in the user's input (those are diagnostics). */
  | 'internal'
  /** The worker received a method it does not know (page and worker out of step). */
  | 'unknown-method';

/** An error as it crosses `postMessage`: class identity does not survive, so keep a code. */
export interface SerializedError {
  /** The original error's `name` (e.g. `TypeError`). */
  name: string;
  code: WorkerErrorCode;
  message: string;
}

/** A call from the page to the worker. */
export type Request = {
  [K in Method]: {
    /** Unique per client; pairs the response with its call. */
    id: number;
    method: K;
    args: Parameters<Api[K]>;
  };
}[Method];

/** The worker's answer to one request. */
export type Response =
  | {
      id: number;
      ok: true;
      /** The method's resolved value; the client knows its type from the request. */
      value: MethodResult<Method>;
    }
  | {
      id: number;
      ok: false;
      error: SerializedError;
    };
