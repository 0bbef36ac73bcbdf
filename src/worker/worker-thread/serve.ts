/**
 * How every worker answers: one generic dispatch from `{ id, method, args }`
 * to the worker's handlers. Every request gets exactly one reply, even when
 * the method is unknown, the handler throws, or `postMessage` refuses the
 * value (a `DataCloneError` for a result that cannot be cloned). A page that
 * never hears back waits for its timeout with the status stuck on
 * "running", so silence is the worst failure.
 *
 * Boundary: runs in a worker; no DOM and no app state here.
 */
import { isOutdatedBuildError, serializeError, WorkerError } from '../shared/errors.ts';
import type {
  BridgeApi,
  BridgeRequest,
  BridgeResponse,
  LifelineLocks,
  LifelineMessage,
  SerializedError,
  WorkerMessage,
} from '../shared/protocol.ts';
import { createPostedColumns, type PostedColumns, packReply } from '../shared/row-packing.ts';

/** The part of a worker's global scope a reply needs (a fake `self` in tests). */
export interface ReplyScope<R> {
  postMessage(message: R): void;
}

/** The part of a worker's global scope `serve` needs. */
export interface ServeScope<R, Q> extends ReplyScope<R> {
  addEventListener(type: 'message', listener: (event: MessageEvent<Q>) => void): void;
  /** The worker's name: the page's lifeline lock when it gave one (see `LifelineMessage`). */
  readonly name?: string;
}

/** Answers one request in `scope`; resolves once the reply is posted. */
export type MessageHandler<A extends BridgeApi<A>> = (
  scope: ReplyScope<BridgeResponse<A>>,
  request: BridgeRequest<A>,
) => Promise<void>;

/** Calls the handler a request names; its value, or an error reply for an unknown method. */
async function dispatch<A extends BridgeApi<A>>(
  handlers: A,
  request: BridgeRequest<A>,
): Promise<{ value: unknown } | BridgeResponse<A>> {
  const { id, method } = request;
  // Own methods only: a page out of step must not reach `toString` or `constructor`.
  if (typeof method !== 'string' || !Object.hasOwn(handlers, method)) {
    return { id, ok: false, error: unknownMethod(String(method)) };
  }
  // The request's type pairs `args` with `method`; the call itself cannot see that.
  return { value: await Reflect.apply(handlers[method], handlers, request.args) };
}

/**
 * Posts a handler's value. Long arrays of rows cross as columns, and a
 * column the page already has by name (row-packing.ts). Packed, posted and
 * remembered in one step, with nothing awaited between: another call's
 * reply posted in between could replace a column this one names.
 */
function postValue<A extends BridgeApi<A>>(
  scope: ReplyScope<BridgeResponse<A>>,
  request: BridgeRequest<A>,
  value: unknown,
  columns: PostedColumns,
): void {
  const reply = packReply(value, { columns, group: request.group });
  scope.postMessage({
    id: request.id,
    ok: true,
    value: reply.value,
    ...(reply.packed.length > 0 ? { packed: reply.packed } : {}),
    ...(reply.forget.length > 0 ? { forget: reply.forget } : {}),
  } as BridgeResponse<A>);
  reply.commit();
}

function unknownMethod(method: string): SerializedError {
  return { name: 'Error', code: 'unknown-method', message: `Unknown method: ${method}` };
}

/** The message handler of a worker exposing `handlers`. */
export function createMessageHandler<A extends BridgeApi<A>>(handlers: A): MessageHandler<A> {
  // One worker, one page: what this handler has posted is what that page has received.
  const columns = createPostedColumns();
  return async (scope, request) => {
    try {
      const answer = await dispatch(handlers, request);
      if ('ok' in answer) scope.postMessage(answer);
      else postValue(scope, request, answer.value, columns);
    } catch (error) {
      // A typed WorkerError is an answer the page expects (a stream the worker no
      // longer holds is sent again); anything else is a bug: keep its trace here.
      // A lazy chunk gone from the server (an older build's tab) is no bug either.
      if (isOutdatedBuildError(error)) console.warn(error);
      else if (!(error instanceof WorkerError)) console.error(error);
      // A plain object of strings always clones; if even this fails, the page's timeout answers.
      scope.postMessage({ id: request.id, ok: false, error: serializeError(error) });
    }
  };
}

/**
 * Holds the lock the worker's name gives until the worker dies, and says so
 * once it is held (the page then waits for the same lock).
 */
export function holdLifeline(
  scope: ReplyScope<LifelineMessage> & { readonly name?: string },
  locks: LifelineLocks | undefined,
): void {
  const name = scope.name;
  if (!name || !locks) return;
  void locks.request(name, () => {
    scope.postMessage({ lifeline: name });
    return new Promise<void>(() => {});
  });
}

/** Serves `handlers` on the worker's global scope; returns the handler, for tests. */
export function serve<A extends BridgeApi<A>>(
  scope: ServeScope<WorkerMessage<A>, BridgeRequest<A>>,
  handlers: A,
): MessageHandler<A> {
  const handle = createMessageHandler(handlers);
  scope.addEventListener('message', (event) => {
    void handle(scope, event.data);
  });
  holdLifeline(scope, (globalThis as { navigator?: { locks?: LifelineLocks } }).navigator?.locks);
  return handle;
}
