/**
 * The playground worker's entry: the bridge's `serve` over one long-lived
 * core session, so the session's caches (parsed streams, token counts, the
 * tokenizer itself) survive from one edit to the next.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */
import { exportPeerForInput } from '../../core/export/peer-export.ts';
import { createPlaygroundSession } from '../../core/playground/playground.ts';
import type { PlaygroundApi } from '../shared/playground-protocol.ts';
import { serve } from './serve.ts';

const session = createPlaygroundSession();

const handlers: PlaygroundApi = {
  run: (input) => session.run(input),
  compact: (input) => session.compact(input),
  reset: (input, position) => session.reset(input, position),
  exportPeer: (input, target) => exportPeerForInput(input, target),
};

/** Answers one message: a value, or a typed error reply, never silence. */
export const handleMessage = serve(self, handlers);
