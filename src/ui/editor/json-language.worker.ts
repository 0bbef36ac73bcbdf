/**
 * The stream editor's JSON language worker: Monaco's own, with the nesting
 * guard of `nesting-guarded-json-worker.ts`.
 */
import { initialize } from 'monaco-editor/internal/common/initialize';
import { NestingGuardedJsonWorker } from './nesting-guarded-json-worker.ts';

// As Monaco's own json.worker: the first message carries the worker's set-up.
self.onmessage = () => {
  initialize((context, createData) => new NestingGuardedJsonWorker(context, createData));
};
