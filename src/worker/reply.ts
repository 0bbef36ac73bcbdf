/**
 * How both workers answer: every request gets exactly one reply, even when the
 * handler throws or `postMessage` refuses the value (a `DataCloneError` for a
 * result that cannot be cloned). A page that never hears back waits for its
 * timeout with the status stuck on "running", so silence is the worst failure.
 *
 * Boundary: runs in a worker; no DOM and no app state here.
 */
import type { SerializedError } from './protocol.ts';

/** The part of a worker's global scope a reply needs (a fake `self` in tests). */
export interface ReplyScope<R> {
  postMessage(message: R): void;
}

/** An unexpected exception as it crosses `postMessage`. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    return { name: error.name, code: 'internal', message: error.message };
  }
  return { name: 'Error', code: 'internal', message: String(error) };
}

/**
 * Posts `answer()`'s reply, or `fail(error)` when computing or posting it
 * throws. A failure to post the error reply itself is left to the client's
 * timeout: it is a plain object of strings, so it always clones.
 */
export async function replySafely<R>(
  scope: ReplyScope<R>,
  answer: () => Promise<R>,
  fail: (error: SerializedError) => R,
): Promise<void> {
  try {
    scope.postMessage(await answer());
  } catch (error) {
    // The core does not throw on user input, so this is a bug: keep its trace here.
    console.error(error);
    scope.postMessage(fail(serializeError(error)));
  }
}
