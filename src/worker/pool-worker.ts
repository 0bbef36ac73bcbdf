/**
 * A workspace worker (see `pool-protocol.ts`): a thin dispatch of messages
 * to one `createWorkspaceSession()`. As a pool worker it analyses one
 * conversation at a time and keeps nothing of it; as the session worker it
 * holds the hint tables and answers hint edits and recommendations.
 *
 * Boundary: no DOM and no app state here; only the core and the protocol.
 */
import type { PoolRequest, PoolResponse } from './pool-protocol.ts';
import { type ReplyScope, replySafely } from './reply.ts';
import { createWorkspaceSession } from './workspace-session.ts';

const answer = createWorkspaceSession();

/** Answers one message: a value, or an error reply, never silence. */
export function handleMessage(
  scope: ReplyScope<PoolResponse>,
  request: PoolRequest,
): Promise<void> {
  return replySafely(
    scope,
    async (): Promise<PoolResponse> => ({ id: request.id, ok: true, value: await answer(request) }),
    (error): PoolResponse => ({ id: request.id, ok: false, message: error.message }),
  );
}

self.addEventListener('message', (event: MessageEvent<PoolRequest>) => {
  void handleMessage(self, event.data);
});
