/**
 * How a worker job fails, on both threads: the worker turns an exception into
 * a `SerializedError` (`serializeError`), and the page rebuilds it as one
 * error class with a stable code (`WorkerError`). The page itself detects the
 * two other failures: a crash and the time limit.
 */
import type { SerializedError, WorkerErrorCode } from './protocol.ts';

const CODES: ReadonlySet<string> = new Set<WorkerErrorCode>([
  'aborted',
  'timeout',
  'crashed',
  'internal',
  'unknown-method',
  'stream-missing',
  'outdated',
]);

/** A failed worker job; thrown in a worker, its code survives the trip to the page. */
export class WorkerError extends Error {
  readonly code: WorkerErrorCode;
  /**
   * What the browser or the worker reported (e.g. `Uncaught ReferenceError:
   * window is not defined`): for the console. The message stays short, for people.
   */
  readonly detail: string | undefined;

  constructor(
    code: WorkerErrorCode,
    message: string,
    options: { name?: string; detail?: string } = {},
  ) {
    super(message);
    this.code = code;
    this.detail = options.detail;
    // Cancellation keeps the conventional name so `isAbortError` and callers
    // that test `name === 'AbortError'` treat it like a DOM abort.
    this.name = code === 'aborted' ? 'AbortError' : (options.name ?? 'WorkerError');
  }

  /** Rebuilds an error that crossed `postMessage`. */
  static fromSerialized(error: SerializedError): WorkerError {
    return new WorkerError(error.code, error.message, { name: error.name });
  }
}

/** Whether a value is one of the error codes (a thrown error's `code` may be anything). */
function isWorkerErrorCode(value: unknown): value is WorkerErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/**
 * An exception as it crosses `postMessage`: its name and message, and its
 * code when it carries one of ours (a `WorkerError` thrown in the worker);
 * anything else is a bug, `internal`.
 */
export function serializeError(error: unknown): SerializedError {
  if (isOutdatedBuildError(error)) {
    return { name: 'Error', code: 'outdated', message: OUTDATED_BUILD_MESSAGE };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      code: isWorkerErrorCode(code) ? code : 'internal',
      message: error.message,
    };
  }
  return { name: 'Error', code: 'internal', message: String(error) };
}

/** What the page says when a part of its build is gone from the server. */
export const OUTDATED_BUILD_MESSAGE =
  'This tab is on an older version of the playground, and a part it needs is no longer on the server';

/**
 * The browsers' words for a lazy chunk (`import()`) that failed to load: after
 * a deploy, the hashed file names of the old build are gone. Chromium,
 * Firefox and Safari each word it differently; Vite's preload helper too.
 */
const CHUNK_LOAD_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** Whether an error is a lazy chunk that failed to load (see {@link CHUNK_LOAD_FAILURE}). */
export function isOutdatedBuildError(error: unknown): boolean {
  if (error instanceof WorkerError) return error.code === 'outdated';
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && CHUNK_LOAD_FAILURE.test(message);
}

/** Whether an error means "cancelled": callers stay silent about these. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error as { name: unknown }).name === 'AbortError'
  );
}

/**
 * The error a worker's `error` or `messageerror` event stands for. It also
 * cancels the event's default action, the browser's own report of it: the
 * caller reports the failure, with the browser's text as `detail`.
 */
export function createCrashError(event: Event): WorkerError {
  event.preventDefault();
  // Duck-typed: ErrorEvent is not a global outside browsers (tests run in Node).
  const message = (event as Partial<ErrorEvent>).message;
  return new WorkerError('crashed', 'The worker stopped unexpectedly', {
    ...(typeof message === 'string' && message ? { detail: message } : {}),
  });
}

/** The error of a worker that died without a word (it closed, or the browser tore it down). */
export function createStoppedError(): WorkerError {
  return new WorkerError('crashed', 'The worker stopped unexpectedly', {
    detail: 'The worker ended without an error event (its lifeline lock was released)',
  });
}

/** The error of a job that ran past the time limit (the worker is then replaced). */
export function createTimeoutError(timeoutMs: number): WorkerError {
  return new WorkerError('timeout', `The computation took longer than ${timeoutMs / 1000} s`);
}
