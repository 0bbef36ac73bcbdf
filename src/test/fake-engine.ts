/**
 * A scripted stand-in for the worker client: every call is recorded and
 * answered when the test says so, which makes ordering (debounce, latest
 * wins, a slow run finishing after a fast one) explicit in tests.
 */
import type { ExtraArgs, ExtraName } from '../core/analyses/extras.ts';
import {
  createEmptyFigures,
  type PlaygroundFigures,
  type PlaygroundInput,
  type StreamEdit,
} from '../core/playground/playground.ts';
import type { Engine } from '../state/actions.ts';
import type { ExtrasEngine } from '../state/extras.ts';
import type { ExtraReply } from '../worker/shared/playground-protocol.ts';

/** A call waiting for its answer. */
export interface PendingCall<T> {
  input: PlaygroundInput;
  signal: AbortSignal | undefined;
  resolve(value: T): void;
  reject(error: Error): void;
}

/** A pending request for an extra. */
export interface PendingExtra extends PendingCall<ExtraReply> {
  name: ExtraName;
  version: number;
  args: ExtraArgs<ExtraName>;
}

/** The fake engine and its recorded calls. */
export interface FakeEngine extends Engine, ExtrasEngine {
  runs: PendingCall<PlaygroundFigures>[];
  estimates: PendingCall<PlaygroundFigures>[];
  extras: PendingExtra[];
  compacts: PendingCall<StreamEdit>[];
  resets: (PendingCall<StreamEdit> & { position: number | null })[];
}

/**
 * Answers with a copy, as the real bridge does: every answer crosses
 * `postMessage`, so the caller never gets the object the test made, and a
 * value that cannot be cloned fails here as it would in the browser.
 */
function cloned<T>(resolve: (value: T) => void): (value: T) => void {
  return (value) => resolve(structuredClone(value));
}

/** Creates a fake engine whose calls stay pending until resolved by the test. */
export function createFakeEngine(): FakeEngine {
  const engine: FakeEngine = {
    runs: [],
    estimates: [],
    extras: [],
    compacts: [],
    resets: [],
    run(input, options) {
      return new Promise((resolve, reject) => {
        engine.runs.push({ input, signal: options?.signal, resolve: cloned(resolve), reject });
      });
    },
    estimate(input, options) {
      return new Promise((resolve, reject) => {
        engine.estimates.push({ input, signal: options?.signal, resolve: cloned(resolve), reject });
      });
    },
    extra(request) {
      return new Promise((resolve, reject) => {
        engine.extras.push({
          input: request.input,
          signal: undefined,
          name: request.name,
          version: request.version,
          args: request.args,
          resolve: cloned(resolve as (value: ExtraReply) => void),
          reject,
        });
      });
    },
    compact(input) {
      return new Promise((resolve, reject) => {
        engine.compacts.push({ input, signal: undefined, resolve: cloned(resolve), reject });
      });
    },
    reset(input, position) {
      return new Promise((resolve, reject) => {
        engine.resets.push({
          input,
          signal: undefined,
          resolve: cloned(resolve),
          reject,
          position,
        });
      });
    },
  };
  return engine;
}

/** Figures with given totals (and anything else overridden). */
export function makeResult(
  saved: { before: number; after: number },
  overrides: Partial<PlaygroundFigures> = {},
): PlaygroundFigures {
  const result = createEmptyFigures();
  const amount = (tokens: number) => ({ tokens, chars: tokens * 4 });
  result.report.totals = {
    before: amount(saved.before),
    after: amount(saved.after),
    saved: amount(saved.before - saved.after),
  };
  return { ...result, ...overrides };
}
