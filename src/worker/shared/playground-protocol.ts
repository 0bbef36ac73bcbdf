/**
 * What the playground worker serves. Types only, used on both threads, and
 * derived from the worker's handlers (`worker-thread/playground-handlers.ts`)
 * so that nothing is written twice: a change to a handler changes what the
 * worker accepts and returns. The messages are the bridge's (`protocol.ts`)
 * over this API.
 */
import type { PlaygroundApi } from '../worker-thread/playground-handlers.ts';
import type { BridgeRequest, BridgeResponse, MethodResult } from './protocol.ts';

export type {
  ExtraReply,
  ExtraRequest,
  PlaygroundApi,
  WorkerInput,
} from '../worker-thread/playground-handlers.ts';

/** What a playground method resolves to (a reply's value, not the core's figures). */
export type PlaygroundReply<K extends keyof PlaygroundApi> = MethodResult<PlaygroundApi, K>;

/** A call from the page to the playground worker. */
export type PlaygroundRequest = BridgeRequest<PlaygroundApi>;

/** The playground worker's answer to one request. */
export type PlaygroundResponse = BridgeResponse<PlaygroundApi>;
