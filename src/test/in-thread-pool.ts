/**
 * The workspace pool with its workers run in-thread: each fake worker answers
 * through the real bridge (`createMessageHandler` over a real
 * `createWorkspaceHandlers()`), and clones requests and replies as
 * `postMessage` does, so tests see real figures through the real pool and
 * protocol, without Web Workers (jsdom and Node have none).
 * `gate` holds answers back until the test lets them through; `crashOn`
 * makes a worker die on a conversation, as an out-of-memory worker would.
 */

import { parseConfigToml } from '../core/config/config.ts';
import { addReports, type Report } from '../core/counting/report.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import { setOwn } from '../core/json/values.ts';
import { reportStream } from '../core/playground/playground.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import {
  createWorkspacePool,
  type PoolWorkerLike,
  type WorkspacePool,
  type WorkspaceRequest,
  type WorkspaceResponse,
} from '../worker/main-thread/workspace-pool.ts';
import { createMessageHandler } from '../worker/worker-thread/serve.ts';
import { createWorkspaceHandlers } from '../worker/worker-thread/workspace-session.ts';

/** A fake worker and what it was asked. */
export interface InThreadWorker extends PoolWorkerLike {
  terminated: boolean;
  requests: WorkspaceRequest[];
}

/** Options of {@link createInThreadPool}. */
export interface InThreadPoolOptions {
  size?: number;
  /** Awaited before each request is answered. */
  gate?: (request: WorkspaceRequest) => Promise<void>;
  /** The index of a conversation whose worker crashes instead of answering. */
  crashOn?: number;
}

/** The pool, and every worker it created (pool and session workers alike). */
export interface InThreadPool {
  pool: WorkspacePool;
  workers: InThreadWorker[];
}

type Listener = (event: never) => void;

/**
 * `structuredClone`, except that Blobs pass as they are: jsdom's Blob is not
 * one Node's `structuredClone` knows, and a Blob is immutable, so sharing it
 * gives what a clone would.
 */
function cloneRequest<T>(value: T): T {
  if (value instanceof Blob) return value;
  if (Array.isArray(value)) return value.map(cloneRequest) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) setOwn(copy, key, cloneRequest(field));
    return copy as T;
  }
  return structuredClone(value);
}

function createWorker(options: InThreadPoolOptions): InThreadWorker {
  const handle = createMessageHandler(createWorkspaceHandlers());
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
      // Cloned both ways, as postMessage does: the worker and the page share no
      // objects, and a value that does not clone fails as it would in the browser.
      const received = cloneRequest(request);
      void (async () => {
        await options.gate?.(request);
        if (worker.terminated) return;
        if (request.method === 'analyze' && request.args[0].index === options.crashOn) {
          emit('error', { message: 'out of memory', preventDefault() {} });
          return;
        }
        await handle(
          {
            postMessage(response: WorkspaceResponse) {
              const data = structuredClone(response);
              if (!worker.terminated) emit('message', { data });
            },
          },
          received,
        );
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
