/**
 * A computation that failed, said for people and logged for developers, in
 * the same words wherever the page reports one (the status line, toasts, the
 * workspace's messages).
 */
import { isOutdatedBuildError, WorkerError } from '../worker/shared/errors.ts';
import { store } from './store.ts';

/**
 * The failure as the start of a sentence, without its final period: "The
 * computation took longer than 60 s and was stopped", "The worker stopped
 * unexpectedly", or "<subject> failed (<message>)" for anything else.
 */
export function describeFailure(error: unknown, subject: string): string {
  if (error instanceof WorkerError && error.code === 'timeout') {
    return `${error.message} and was stopped`;
  }
  if (error instanceof WorkerError && (error.code === 'crashed' || error.code === 'outdated')) {
    return error.message;
  }
  return `${subject} failed (${error instanceof Error ? error.message : String(error)})`;
}

/**
 * What helps after a failure, as a sentence: for a tab on an older build a
 * reload, since trying again, or another input, asks the server for the same
 * part it no longer has; otherwise `advice`, the caller's own.
 */
export function getFailureAdvice(error: unknown, advice: string): string {
  return isOutdatedBuildError(error)
    ? 'Reload the page to use the current version; your work is kept.'
    : advice;
}

/**
 * Logs a failure: a worker crash or the time limit as a warning (the page
 * says what happened), with the browser's own text; anything else is a bug.
 * A part of the build gone from the server raises the reload notice.
 */
export function logFailure(error: unknown): void {
  if (isOutdatedBuildError(error)) {
    console.warn(error);
    reportOutdatedBuild();
  } else if (isWorkerFailure(error, 'crashed') || isWorkerFailure(error, 'timeout')) {
    console.warn(error, (error as WorkerError).detail ?? '');
  } else {
    console.error(error);
  }
}

/** Shows the notice that this tab is on an older version, with its Reload button. */
export function reportOutdatedBuild(): void {
  if (!store.getState().outdatedBuild) store.setState({ outdatedBuild: true });
}

/** Whether `error` is a worker failure with this code. */
export function isWorkerFailure(error: unknown, code: WorkerError['code']): boolean {
  return error instanceof WorkerError && error.code === code;
}
