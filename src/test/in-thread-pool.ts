/**
 * The workspace pool with its workers run in-thread: each fake worker answers
 * with a real `createWorkspaceSession()`, so tests see real figures through
 * the real pool and protocol, without Web Workers (jsdom and Node have none).
 * `gate` holds answers back until the test lets them through; `crashOn`
 * makes a worker die on a conversation, as an out-of-memory worker would.
 */

import { parseConfigToml } from '../core/config/config.ts';
import { addReports, type Report } from '../core/counting/report.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import { reportStream } from '../core/playground/playground.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { createWorkspacePool, type PoolWorkerLike, type WorkspacePool } from '../worker/pool.ts';
import type { PoolRequest, PoolResponse } from '../worker/pool-protocol.ts';
import { createWorkspaceSession } from '../worker/workspace-session.ts';

/** A fake worker and what it was asked. */
export interface InThreadWorker extends PoolWorkerLike {
  terminated: boolean;
  requests: PoolRequest[];
}

/** Options of {@link createInThreadPool}. */
export interface InThreadPoolOptions {
  size?: number;
  /** Awaited before each request is answered. */
  gate?: (request: PoolRequest) => Promise<void>;
  /** The index of a conversation whose worker crashes instead of answering. */
  crashOn?: number;
}

/** The pool, and every worker it created (pool and session workers alike). */
export interface InThreadPool {
  pool: WorkspacePool;
  workers: InThreadWorker[];
}

type Listener = (event: never) => void;

function createWorker(options: InThreadPoolOptions): InThreadWorker {
  const answer = createWorkspaceSession();
  const listeners: Record<'message' | 'error' | 'messageerror', Listener[]> = {
    message: [],
    error: [],
    messageerror: [],
  };
  const emit = (type: keyof typeof listeners, event: unknown) => {
    for (const listener of listeners[type]) (listener as (event: unknown) => void)(event);
  };
  const worker: InThreadWorker = {
    terminated: false,
    requests: [],
    postMessage(request) {
      worker.requests.push(request);
      void (async () => {
        await options.gate?.(request);
        if (worker.terminated) return;
        if (request.type === 'analyze' && request.files.index === options.crashOn) {
          emit('error', { message: 'out of memory', preventDefault() {} });
          return;
        }
        let response: PoolResponse;
        try {
          // Cloned, as postMessage would: the page must not share the worker's objects.
          response = { id: request.id, ok: true, value: structuredClone(await answer(request)) };
        } catch (error) {
          response = { id: request.id, ok: false, message: String(error) };
        }
        if (!worker.terminated) emit('message', { data: response });
      })();
    },
    terminate() {
      worker.terminated = true;
    },
    addEventListener(type: keyof typeof listeners, listener: Listener) {
      listeners[type].push(listener);
    },
  };
  return worker;
}

/** A pool of in-thread workers. */
export function createInThreadPool(options: InThreadPoolOptions = {}): InThreadPool {
  const workers: InThreadWorker[] = [];
  const pool = createWorkspacePool({
    size: options.size ?? 2,
    createWorker: () => {
      const worker = createWorker(options);
      workers.push(worker);
      return worker;
    },
  });
  return { pool, workers };
}

/** A picked file: a Blob with a name and, for a folder, its path inside it. */
export function pickedFile(
  text: string,
  path: string,
): Blob & { name: string; webkitRelativePath: string } {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return Object.assign(new Blob([text]), {
    name,
    webkitRelativePath: path.includes('/') ? path : '',
  });
}

/**
 * What `report` computes for these streams and config in one thread, under
 * chars/4: the figures a pool (or a workspace) counting them must equal.
 */
export async function reportInOneThread(
  texts: readonly string[],
  configText: string,
): Promise<Report> {
  const counter = await loadTokenCounter('chars');
  const config = parseConfigToml(configText);
  return addReports(
    texts.map(
      (text) =>
        reportStream(parseEventsText(text, 'auto').elements ?? [], config, {
          now: null,
          view: 'sanitized',
          counter,
        }).report,
    ),
    'chars',
  );
}
