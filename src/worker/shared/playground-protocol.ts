/**
 * What the playground worker serves. Types only, used on both threads, and
 * derived from the core's session so that nothing is written twice: a change
 * to `PlaygroundSession` changes what the worker accepts and returns. The
 * messages are the bridge's (`protocol.ts`) over this API.
 */
import type { exportPeerForInput } from '../../core/export/peer-export.ts';
import type { PlaygroundSession } from '../../core/playground/playground.ts';
import type { BridgeRequest, BridgeResponse, MethodResult } from './protocol.ts';

/** The methods the playground worker serves: the session's, and the peer exports. */
export type PlaygroundApi = {
  run: PlaygroundSession['run'];
  compact: PlaygroundSession['compact'];
  reset: PlaygroundSession['reset'];
  exportPeer: typeof exportPeerForInput;
};

/** What a playground method resolves to. */
export type PlaygroundResult<K extends keyof PlaygroundApi> = MethodResult<PlaygroundApi, K>;

/** A call from the page to the playground worker. */
export type PlaygroundRequest = BridgeRequest<PlaygroundApi>;

/** The playground worker's answer to one request. */
export type PlaygroundResponse = BridgeResponse<PlaygroundApi>;
