import type { WorkerError } from '../worker/shared/errors.ts';

/** The error a worker call rejects with; fails the test if it resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<WorkerError> {
  try {
    await promise;
  } catch (error) {
    return error as WorkerError;
  }
  throw new Error('expected a rejection');
}
