/**
 * The playground worker: a thin dispatch over one long-lived core session, so
 * the session's caches (parsed streams, token counts, the tokenizer itself)
 * survive from one edit to the next.
 *
 * Boundary: no DOM and no app state here; only the core and the protocol.
 */
import { exportPeerForInput } from '../core/export/peer-export.ts';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import type { Api, Request, Response, SerializedError } from './protocol.ts';

const session = createPlaygroundSession();

const api: Api = {
  run: (input) => session.run(input),
  compact: (input) => session.compact(input),
  reset: (input, position) => session.reset(input, position),
  exportPeer: (input, target) => exportPeerForInput(input, target),
};

function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    return { name: error.name, code: 'internal', message: error.message };
  }
  return { name: 'Error', code: 'internal', message: String(error) };
}

async function dispatch(request: Request): Promise<Response> {
  try {
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
  } catch (error) {
    // The core does not throw on user input, so this is a bug: keep its trace here.
    console.error(error);
    return { id: request.id, ok: false, error: serializeError(error) };
  }
}

self.addEventListener('message', (event: MessageEvent<Request>) => {
  void dispatch(event.data).then((response) => self.postMessage(response));
});
