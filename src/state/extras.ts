/**
 * The panes' extras: what a pane shows beyond the figures (the transcripts,
 * the what-if grid, the recommendations…), asked for by the pane while it is
 * in view, for the input version of the latest run (`runVersion`).
 *
 * - Latest wins per extra: the engine cancels an earlier request for the
 *   same extra, and an answer for another version is dropped.
 * - What was computed is kept in the store by version and arguments, so a
 *   pane that comes back into view for the same input asks nothing.
 * - A pane shows an extra only for the latest version (`selectExtra`):
 *   while it is computing, the pane is busy and shows no older one.
 *
 * Adding an extra: a handler in `core/analyses/extras.ts`, and a pane
 * that calls `useExtra(name, args)`; nothing here changes.
 */
import type { ExtraArgs, ExtraName } from '../core/analyses/extras.ts';
import type { PlaygroundInput } from '../core/playground/types.ts';
import { isAbortError } from '../worker/shared/errors.ts';
import type { ExtraReply } from '../worker/shared/playground-protocol.ts';
import type { AppState, ExtraEntry, ExtrasState } from './app-state.ts';
import { describeFailure, logFailure } from './failures.ts';
import { store } from './store.ts';

/** What computes extras: the worker client's method, so a fake can stand in. */
export interface ExtrasEngine {
  extra<K extends ExtraName>(request: {
    name: K;
    version: number;
    input: PlaygroundInput;
    args: ExtraArgs<K>;
  }): Promise<ExtraReply<K>>;
}

let engine: ExtrasEngine | null = null;

/** Connects the extras to the engine; call once at start-up. */
export function initExtras(deps: { engine: ExtrasEngine }): void {
  engine = deps.engine;
}

/** Forgets the engine (tests). */
export function disposeExtras(): void {
  engine = null;
}

function setEntry<K extends ExtraName>(name: K, entry: ExtraEntry<K>): void {
  store.setState((state) => ({ extras: { ...state.extras, [name]: entry } as ExtrasState }));
}

/** The arguments as the key they are kept under. */
function keyOf(args: unknown): string {
  return JSON.stringify(args) ?? 'null';
}

/**
 * Asks for an extra of the latest run's input (`version`), unless the store
 * already holds it (or it is on its way) for that version and these
 * arguments. A request for an older version is dropped: a newer run started.
 */
export function requestExtra<K extends ExtraName>(
  name: K,
  args: ExtraArgs<K>,
  version: number,
): void {
  const { runVersion, runInput: input, extras } = store.getState();
  if (!engine || !input || version !== runVersion) return;
  const argsKey = keyOf(args);
  const held = extras[name];
  if (held && held.version === version && held.argsKey === argsKey && held.status !== 'error') {
    return;
  }
  const base = { version, argsKey, value: null, message: null };
  setEntry(name, { ...base, status: 'running' });
  const isCurrent = () => {
    const now = store.getState().extras[name];
    return now?.version === version && now.argsKey === argsKey;
  };
  engine.extra({ name, version, input, args }).then(
    (reply) => {
      if (!isCurrent()) return;
      setEntry(
        name,
        reply.status === 'ok'
          ? { ...base, status: 'done', value: reply.value }
          : { ...base, status: 'invalid' },
      );
    },
    (error: unknown) => {
      // Superseded: the newer request owns the entry.
      if (isAbortError(error) || !isCurrent()) return;
      logFailure(error);
      setEntry(name, { ...base, status: 'error', message: describeFailure(error, 'Computing it') });
    },
  );
}

/** Where an extra stands for the latest run: busy, its value, or why there is none. */
export interface ExtraView<K extends ExtraName> {
  /** True until the extra of the latest version has arrived: drives the pane's `aria-busy`. */
  busy: boolean;
  /** The value for the latest version, or null. */
  value: ExtraEntry<K>['value'];
  /** Set when there is no value and will be none: the input has errors, or it failed. */
  problem: 'invalid' | 'error' | null;
  message: string | null;
}

const NOT_YET = { busy: true, value: null, problem: null, message: null } as const;
const views = new WeakMap<ExtraEntry, ExtraView<ExtraName>>();

/**
 * An extra for the latest run and these arguments; never one of another
 * version. The same object while nothing changed (for `useAppStore`).
 */
export function selectExtra<K extends ExtraName>(
  state: AppState,
  name: K,
  args: ExtraArgs<K>,
): ExtraView<K> {
  const entry = state.extras[name] as ExtraEntry<K> | undefined;
  if (!entry || entry.version !== state.runVersion || entry.argsKey !== keyOf(args)) {
    return NOT_YET;
  }
  let view = views.get(entry as ExtraEntry) as ExtraView<K> | undefined;
  if (!view) {
    view = {
      busy: entry.status === 'running',
      value: entry.status === 'done' ? entry.value : null,
      problem: entry.status === 'invalid' || entry.status === 'error' ? entry.status : null,
      message: entry.message,
    };
    views.set(entry as ExtraEntry, view as ExtraView<ExtraName>);
  }
  return view;
}
