/**
 * The playground worker: a thin dispatch over one long-lived core session, so
 * the session's caches (parsed streams, token counts, the tokenizer itself)
 * survive from one edit to the next.
 *
 * Boundary: no DOM and no app state here; only the core and the protocol.
 */
import { exportPeerForInput } from '../core/export/peer-export.ts';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import type { Api, Request, Response } from './protocol.ts';
import { type ReplyScope, replySafely } from './reply.ts';

const session = createPlaygroundSession();

const api: Api = {
  run: (input) => session.run(input),
  compact: (input) => session.compact(input),
  reset: (input, position) => session.reset(input, position),
  exportPeer: (input, target) => exportPeerForInput(input, target),
};

async function dispatch(request: Request): Promise<Response> {
  switch (request.method) {
    case 'run':
      return { id: request.id, ok: true, value: await api.run(...request.args) };
    case 'compact':
      return { id: request.id, ok: true, value: await api.compact(...request.args) };
    case 'reset':
      return { id: request.id, ok: true, value: await api.reset(...request.args) };
    case 'exportPeer':
      return { id: request.id, ok: true, value: await api.exportPeer(...request.args) };
    default: {
      const unknown: { id: number; method: string } = request;
      return {
        id: unknown.id,
        ok: false,
        error: {
          name: 'Error',
          code: 'unknown-method',
          message: `Unknown method: ${unknown.method}`,
        },
      };
    }
  }
}

/** Answers one message: a value, or a typed error reply, never silence. */
export function handleMessage(scope: ReplyScope<Response>, request: Request): Promise<void> {
  return replySafely(
    scope,
    () => dispatch(request),
    (error): Response => ({ id: request.id, ok: false, error }),
  );
}

self.addEventListener('message', (event: MessageEvent<Request>) => {
  void handleMessage(self, event.data);
});
