/**
 * The playground worker's entry: the bridge's `serve` over the handlers of
 * one long-lived core session, so the session's caches (parsed streams,
 * token counts, the tokenizer itself, the extras computed) survive from one
 * edit to the next.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */
import { createPlaygroundHandlers } from './playground-handlers.ts';
import { serve } from './serve.ts';

/** Answers one message: a value, or a typed error reply, never silence. */
export const handleMessage = serve(self, createPlaygroundHandlers());
