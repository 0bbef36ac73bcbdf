import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkerError } from '../shared/errors.ts';
import type { PlaygroundRequest as Request } from '../shared/playground-protocol.ts';
import type { BridgeApi, BridgeRequest, BridgeResponse } from '../shared/protocol.ts';
import { createMessageHandler, type MessageHandler } from './serve.ts';
import type { WorkspaceApi } from './workspace-session.ts';

type WorkspaceRequest = BridgeRequest<WorkspaceApi>;

/** A worker global scope: records replies, and can refuse one as `postMessage` does. */
function createFakeSelf<R>(refuseFirst: boolean) {
  const posted: R[] = [];
  let refusals = refuseFirst ? 1 : 0;
  return {
    posted,
    addEventListener() {},
    postMessage(message: R) {
      if (refusals > 0) {
        refusals -= 1;
        throw new DOMException('#<Object> could not be cloned.', 'DataCloneError');
      }
      // Cloned, as the real postMessage does.
      posted.push(structuredClone(message));
    },
  };
}

/** Runs a worker entry as the browser would, on a fake `self`; returns its handler. */
async function loadEntry<A extends BridgeApi<A>>(
  entry: () => Promise<{ handleMessage: MessageHandler<A> }>,
  refuseFirst: boolean,
) {
  const fake = createFakeSelf<BridgeResponse<A>>(refuseFirst);
  vi.stubGlobal('self', fake);
  vi.resetModules();
  const { handleMessage } = await entry();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  return { fake, handleMessage };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the playground worker always answers', () => {
  const load = (refuseFirst: boolean) =>
    loadEntry(() => import('./playground-worker.ts'), refuseFirst);

  it('answers an exception in a handler with a typed error reply', async () => {
    const { fake, handleMessage } = await load(false);
    // A request no page would send: the session reads fields of a null input and throws.
    const request = { id: 7, method: 'run', args: [null] } as unknown as Request;
    await handleMessage(fake, request);
    expect(fake.posted).toHaveLength(1);
    expect(fake.posted[0]).toMatchObject({ id: 7, ok: false, error: { code: 'internal' } });
    const reply = fake.posted[0];
    expect(reply && !reply.ok && reply.error.name).toBe('TypeError');
  });

  it('answers a refused postMessage (DataCloneError) with an error reply', async () => {
    const { fake, handleMessage } = await load(true);
    const request = { id: 3, method: 'unknown', args: [] } as unknown as Request;
    await handleMessage(fake, request);
    expect(fake.posted).toEqual([
      {
        id: 3,
        ok: false,
        error: {
          name: 'DataCloneError',
          code: 'internal',
          message: '#<Object> could not be cloned.',
        },
      },
    ]);
  });
});

describe('the workspace worker always answers', () => {
  const load = (refuseFirst: boolean) =>
    loadEntry(() => import('./workspace-worker.ts'), refuseFirst);

  it('answers an exception in a handler with a typed error reply', async () => {
    const { fake, handleMessage } = await load(false);
    // No page sends this: the handler reads fields of null files and throws.
    const request = { id: 5, method: 'analyze', args: [null, null] } as unknown as WorkspaceRequest;
    await handleMessage(fake, request);
    expect(fake.posted).toHaveLength(1);
    expect(fake.posted[0]).toMatchObject({
      id: 5,
      ok: false,
      error: { name: 'TypeError', code: 'internal' },
    });
  });

  it('answers a refused postMessage with an error reply', async () => {
    const { fake, handleMessage } = await load(true);
    const request: WorkspaceRequest = { id: 9, method: 'clear', args: [], group: 'clear' };
    await handleMessage(fake, request);
    expect(fake.posted).toEqual([
      {
        id: 9,
        ok: false,
        error: {
          name: 'DataCloneError',
          code: 'internal',
          message: '#<Object> could not be cloned.',
        },
      },
    ]);
  });

  it("answers a method it does not have, even one of Object's, with unknown-method", async () => {
    const { fake, handleMessage } = await load(false);
    for (const [id, method] of [
      [1, 'forget'],
      [2, 'toString'],
      [3, 'constructor'],
      [4, '__proto__'],
    ] as const) {
      await handleMessage(fake, { id, method, args: [] } as unknown as WorkspaceRequest);
    }
    expect(fake.posted.map((reply) => [reply.id, !reply.ok && reply.error.code])).toEqual([
      [1, 'unknown-method'],
      [2, 'unknown-method'],
      [3, 'unknown-method'],
      [4, 'unknown-method'],
    ]);
  });
});

describe('createMessageHandler', () => {
  type Api = { fail: () => never; compute: (n: number) => Promise<{ doubled: number }> };

  it('keeps the code of an error a handler throws on purpose', async () => {
    const fake = createFakeSelf<BridgeResponse<Api>>(false);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const handle = createMessageHandler<Api>({
      fail: () => {
        throw new WorkerError('timeout', 'The tokenizer did not load in time');
      },
      compute: async (n) => ({ doubled: n * 2 }),
    });
    await handle(fake, { id: 1, method: 'fail', args: [], group: 'fail' });
    await handle(fake, { id: 2, method: 'compute', args: [21], group: 'compute' });
    expect(fake.posted).toEqual([
      {
        id: 1,
        ok: false,
        error: {
          name: 'WorkerError',
          code: 'timeout',
          message: 'The tokenizer did not load in time',
        },
      },
      { id: 2, ok: true, value: { doubled: 42 } },
    ]);
  });
  it('sends a column in full again when the reply that carried it could not be posted', async () => {
    type Rows = { rows: () => Promise<{ name: string }[]> };
    // The first reply is refused (a DataCloneError): the page never had its columns.
    const fake = createFakeSelf<BridgeResponse<Rows>>(true);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const rows = Array.from({ length: 100 }, (_, i) => ({ name: `tool_${i}` }));
    const handle = createMessageHandler<Rows>({ rows: async () => rows });
    for (const id of [1, 2, 3]) await handle(fake, { id, method: 'rows', args: [], group: 'rows' });
    const columnsOf = (reply: BridgeResponse<Rows> | undefined) =>
      reply?.ok ? (reply.value as unknown as { columns: unknown[] }).columns : null;
    // Reply 1 became an error reply; reply 2 carries the names; reply 3 names them by id.
    expect(fake.posted.map((reply) => reply.ok)).toEqual([false, true, true]);
    expect(columnsOf(fake.posted[1])?.[0]).toHaveLength(100);
    expect(columnsOf(fake.posted[2])?.[0]).toBeNull();
  });
});
