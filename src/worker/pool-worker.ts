/**
 * A workspace worker (see `pool-protocol.ts`): a thin dispatch of messages
 * to one `createWorkspaceSession()`. As a pool worker it analyses one
 * conversation at a time and keeps nothing of it; as the session worker it
 * holds the hint tables and answers hint edits and recommendations.
 *
 * Boundary: no DOM and no app state here; only the core and the protocol.
 */
import type { PoolRequest, PoolResponse } from './pool-protocol.ts';
import { createWorkspaceSession } from './workspace-session.ts';

const answer = createWorkspaceSession();

self.addEventListener('message', (event: MessageEvent<PoolRequest>) => {
  const request = event.data;
  void answer(request).then(
    (value): void => self.postMessage({ id: request.id, ok: true, value } satisfies PoolResponse),
    (error: unknown): void => {
      // The core does not throw on user input, so this is a bug: keep its trace here.
      console.error(error);
      const message = error instanceof Error ? error.message : String(error);
      self.postMessage({ id: request.id, ok: false, message } satisfies PoolResponse);
    },
  );
});
