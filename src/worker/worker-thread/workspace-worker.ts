/**
 * A workspace worker's entry (see `workspace-protocol.ts`): the bridge's
 * `serve` over one `createWorkspaceHandlers()`. As a pool worker it analyses
 * one conversation at a time and keeps nothing of it; as the session worker
 * it holds the hint tables and answers hint edits and recommendations.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */
import { serve } from './serve.ts';
import { createWorkspaceHandlers } from './workspace-session.ts';

/** Answers one message: a value, or a typed error reply, never silence. */
export const handleMessage = serve(self, createWorkspaceHandlers());
