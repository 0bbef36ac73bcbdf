/**
 * The real playground client over the real worker handlers, in this thread:
 * a stand-in `Worker` that clones every message both ways (as `postMessage`
 * does) and answers through `serve`'s dispatch. Tests that want the whole
 * bridge (the stream handed over once, the extras by version) without a
 * browser use it.
 */

import {
  createWorkerClient,
  type WorkerClient,
  type WorkerLike,
} from '../worker/main-thread/playground-client.ts';
import type {
  PlaygroundRequest,
  PlaygroundResponse,
} from '../worker/shared/playground-protocol.ts';
import { createPlaygroundHandlers } from '../worker/worker-thread/playground-handlers.ts';
import { createMessageHandler } from '../worker/worker-thread/serve.ts';

/** The client, and every request its workers received (for tests that weigh them). */
export interface InThreadClient {
  client: WorkerClient;
  requests: PlaygroundRequest[];
}

/** Creates a client whose worker runs in this thread. */
export function createInThreadClient(): InThreadClient {
  const requests: PlaygroundRequest[] = [];
  const createWorker = (): WorkerLike => {
    const handle = createMessageHandler(createPlaygroundHandlers());
    const listeners: ((event: MessageEvent<PlaygroundResponse>) => void)[] = [];
    let terminated = false;
    const scope = {
      postMessage(reply: PlaygroundResponse) {
        const data = structuredClone(reply);
        setTimeout(() => {
          if (terminated) return;
          for (const listener of listeners) listener({ data } as MessageEvent<PlaygroundResponse>);
        }, 0);
      },
    };
    return {
      postMessage(request) {
        const copy = structuredClone(request);
        requests.push(copy);
        setTimeout(() => void handle(scope, copy), 0);
      },
      terminate() {
        terminated = true;
      },
      addEventListener(type: string, listener: (event: never) => void) {
        if (type === 'message')
          listeners.push(listener as (event: MessageEvent<PlaygroundResponse>) => void);
      },
    } as WorkerLike;
  };
  return { client: createWorkerClient({ createWorker }), requests };
}
