import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PoolRequest, PoolResponse } from './pool-protocol.ts';
import type { Request, Response } from './protocol.ts';

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

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the playground worker always answers', () => {
  async function load(refuseFirst: boolean) {
    const fake = createFakeSelf<Response>(refuseFirst);
    vi.stubGlobal('self', fake);
    vi.resetModules();
    const module = await import('./worker.ts');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    return { fake, handleMessage: module.handleMessage };
  }

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

describe('the workspace pool worker always answers', () => {
  it('answers an exception in a handler with an error reply', async () => {
    const fake = createFakeSelf<PoolResponse>(false);
    vi.stubGlobal('self', fake);
    vi.resetModules();
    const { handleMessage } = await import('./pool-worker.ts');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const request = { id: 5, type: 'analyze', files: null } as unknown as PoolRequest;
    await handleMessage(fake, request);
    expect(fake.posted).toHaveLength(1);
    expect(fake.posted[0]).toMatchObject({ id: 5, ok: false });
  });

  it('answers a refused postMessage with an error reply', async () => {
    const fake = createFakeSelf<PoolResponse>(true);
    vi.stubGlobal('self', fake);
    vi.resetModules();
    const { handleMessage } = await import('./pool-worker.ts');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const request = { id: 9, type: 'clear' } as unknown as PoolRequest;
    await handleMessage(fake, request);
    expect(fake.posted).toEqual([{ id: 9, ok: false, message: '#<Object> could not be cloned.' }]);
  });
});
