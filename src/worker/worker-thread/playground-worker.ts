/**
 * The playground worker's entry: the bridge's `serve` over the handlers of
 * one long-lived core session, so the session's caches (parsed streams,
 * token counts, the tokenizer itself, the extras computed) survive from one
 * edit to the next.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */
import { DEFAULT_TOKENIZER } from '../../core/counting/tokens.ts';
import { createPlaygroundSession } from '../../core/playground/playground.ts';
import { createPlaygroundHandlers } from './playground-handlers.ts';
import { serve } from './serve.ts';

const session = createPlaygroundSession();
// The page starts this worker as it loads (main.tsx): the default tokenizer's
// tables (2 MB of script to fetch and compile) load meanwhile, not after the
// first run asks for them.
session.preload(DEFAULT_TOKENIZER);

/** Answers one message: a value, or a typed error reply, never silence. */
export const handleMessage = serve(self, createPlaygroundHandlers(session));
