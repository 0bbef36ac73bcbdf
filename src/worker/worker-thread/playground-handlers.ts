/**
 * What the playground worker computes, as a handlers object over one
 * long-lived core session: `playground-worker.ts` serves it, tests call it
 * in-thread (and weigh its replies). Its type, `PlaygroundApi`, is what the
 * page's client may call.
 *
 * - The stream crosses once per change: `setStream` hands the worker a text
 *   under a number, and every other call names the stream by that number
 *   (`WorkerInput`), so a config keystroke posts the config, not megabytes.
 * - `run` answers the figures alone; `extra` answers one pane's extra for an
 *   input version, and keeps the last one computed per extra, so a pane that
 *   comes back into view for the same version costs nothing.
 * - The analyses behind the extras (and the peer exports) are a chunk of
 *   their own, loaded at the first `extra` or `exportPeer`: the worker's
 *   script for the first figures carries only the session.
 *
 * Boundary: runs in a worker; no DOM and no app state here, only the core.
 */

import type {
  ExtraArgs,
  ExtraName,
  ExtraOutcome,
  PlaygroundExtras,
} from '../../core/analyses/extras.ts';
import type { PeerTargetId } from '../../core/export/peer-export.ts';
import {
  createPlaygroundSession,
  type PlaygroundSession,
} from '../../core/playground/playground.ts';
import type { PlaygroundInput } from '../../core/playground/types.ts';
import { WorkerError } from '../shared/errors.ts';

/** The input as it crosses to the worker: the stream named by the number `setStream` gave it. */
export type WorkerInput = Omit<PlaygroundInput, 'streamText'> & {
  /** The number of a stream handed over with `setStream`. */
  stream: number;
};

/** One pane's request: which extra, for which input version, with its arguments. */
export interface ExtraRequest<K extends ExtraName = ExtraName> {
  name: K;
  /** The page's input version: the reply carries it, and the worker's cache is keyed by it. */
  version: number;
  input: WorkerInput;
  args: ExtraArgs<K>;
}

/** An extra's answer, with the version it belongs to. */
export type ExtraReply<K extends ExtraName = ExtraName> = ExtraOutcome<K> & { version: number };

/** The analyses' module, loaded on demand. */
type AnalysesModule = typeof import('../../core/analyses/extras.ts');

/** Streams kept: the newest, and the one before it for a call already queued behind the change. */
const STREAMS_KEPT = 2;

/** The playground worker's handlers over `session`. */
export function createPlaygroundHandlers(session: PlaygroundSession = createPlaygroundSession()) {
  // Loaded once, on the first call that needs it; a failed load is tried again next time.
  let analyses: Promise<{ module: AnalysesModule; extras: PlaygroundExtras }> | null = null;
  const loadAnalyses = () => {
    analyses ??= import('../../core/analyses/extras.ts').then(
      (module) => ({ module, extras: module.createPlaygroundExtras() }),
      (error: unknown) => {
        analyses = null;
        throw error;
      },
    );
    return analyses;
  };
  const streams = new Map<number, string>();
  const computed = new Map<ExtraName, { version: number; argsKey: string; reply: ExtraReply }>();

  const inputOf = (request: WorkerInput): PlaygroundInput => {
    const streamText = streams.get(request.stream);
    if (streamText === undefined) {
      throw new WorkerError('stream-missing', `The worker does not hold stream ${request.stream}`);
    }
    const { stream: _stream, ...rest } = request;
    return { ...rest, streamText };
  };

  return {
    /** Holds a stream's text under `id` for the calls that follow. */
    setStream(id: number, text: string): null {
      streams.set(id, text);
      for (const key of streams.keys()) {
        if (streams.size <= STREAMS_KEPT) break;
        streams.delete(key);
      }
      return null;
    },

    /** The figures of an input. */
    async run(input: WorkerInput) {
      return session.run(inputOf(input));
    },

    /** One extra for an input version; the last one per extra is kept. */
    async extra(request: ExtraRequest): Promise<ExtraReply> {
      const argsKey = JSON.stringify(request.args);
      const kept = computed.get(request.name);
      if (kept && kept.version === request.version && kept.argsKey === argsKey) return kept.reply;
      const { module, extras } = await loadAnalyses();
      const outcome = await module.computeExtra(
        session,
        extras,
        inputOf(request.input),
        request.name,
        request.args,
      );
      const reply = { ...outcome, version: request.version } as ExtraReply;
      computed.set(request.name, { version: request.version, argsKey, reply });
      return reply;
    },

    async compact(input: WorkerInput) {
      return session.compact(inputOf(input));
    },

    async reset(input: WorkerInput, position: number | null) {
      return session.reset(inputOf(input), position);
    },

    async exportPeer(input: WorkerInput, target: PeerTargetId, set: readonly string[]) {
      const { module, extras } = await loadAnalyses();
      return module.exportPeerThroughSession(session, extras, inputOf(input), target, set);
    },
  };
}

/** What the page may ask the playground worker: its handlers, method by method. */
export type PlaygroundApi = ReturnType<typeof createPlaygroundHandlers>;
