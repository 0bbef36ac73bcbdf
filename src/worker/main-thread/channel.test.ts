import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rejection } from '../../test/rejection.ts';
import { createStoppedError, WorkerError } from '../shared/errors.ts';
import type { BridgeApi, BridgeResponse, BridgeWorker } from '../shared/protocol.ts';
import { createMessageHandler, holdLifeline } from '../worker-thread/serve.ts';
import { createChannel } from './channel.ts';

/** A small API with the failures a real worker can have. */
type TestApi = {
  echo: (text: string) => Promise<string>;
  /** Waits until the test releases it, then answers. */
  later: (label: string) => Promise<string>;
  fail: () => never;
  /** Returns a value `postMessage` cannot clone. */
  uncloneable: () => { callback: () => void };
  /** `count` rows of one shape: a reply that crosses packed (row-packing.ts). */
  rows: (count: number) => Promise<{ index: number; name: string }[]>;
};

type Listener = (event: never) => void;

interface FakeWorker<A extends BridgeApi<A>> extends BridgeWorker<A> {
  terminated: boolean;
  /** Delivers an event to the page's listeners, as the worker's thread would. */
  emit(type: string, event: unknown): void;
}

/**
 * A worker run in-thread through the real worker-side dispatch, cloning
 * requests and replies as `postMessage` does (and throwing `DataCloneError`
 * where it would).
 */
function createFakeWorker<A extends BridgeApi<A>>(handlers: A): FakeWorker<A> {
  const handle = createMessageHandler(handlers);
  const listeners = new Map<string, Listener[]>();
  const fake: FakeWorker<A> = {
    terminated: false,
    postMessage(request) {
      const received = structuredClone(request);
      void handle(
        {
          postMessage(response: BridgeResponse<A>) {
            const data = structuredClone(response);
            if (fake.terminated) return;
            for (const listener of listeners.get('message') ?? []) listener({ data } as never);
          },
        },
        received,
      );
    },
    terminate() {
      fake.terminated = true;
    },
    addEventListener(type: string, listener: Listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    emit(type: string, event: unknown) {
      for (const listener of listeners.get(type) ?? []) listener(event as never);
    },
  };
  return fake;
}

let workers: FakeWorker<TestApi>[];
let release: Map<string, () => void>;

function createTestChannel(timeoutMs = 1000, concurrency?: number, releaseSuperseded = false) {
  return createChannel<TestApi>({
    timeoutMs,
    ...(concurrency === undefined ? {} : { concurrency }),
    releaseSuperseded,
    createWorker: () => {
      const worker = createFakeWorker<TestApi>({
        echo: async (text) => text,
        later: (label) =>
          new Promise((resolve) => {
            release.set(label, () => resolve(label));
          }),
        fail: () => {
          throw new RangeError('index 7 is out of range');
        },
        uncloneable: () => ({ callback: () => {} }),
        rows: async (count) =>
          Array.from({ length: count }, (_, index) => ({ index, name: `t${index}` })),
      });
      workers.push(worker);
      return worker;
    },
  });
}

/** Lets the fake worker's pending microtasks (its handlers) run. */
async function settleWorker(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  workers = [];
  release = new Map();
  vi.useFakeTimers();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('createChannel', () => {
  it('builds packed rows again and settles replies in the order they came', async () => {
    const channel = createTestChannel();
    const order: string[] = [];
    const rows = channel.call('rows', [20_000]).then((value) => {
      order.push('rows');
      return value;
    });
    const echo = channel.call('echo', ['after']).then((value) => {
      order.push(value);
      return value;
    });
    // The rows are built in slices with the page free between them (timers, faked here).
    await vi.runAllTimersAsync();
    const value = await rows;
    await echo;
    expect(value).toHaveLength(20_000);
    expect(value[19_999]).toEqual({ index: 19_999, name: 't19999' });
    expect(order).toEqual(['rows', 'after']);
  });

  it('gives a reply the rows of the same call’s last reply where they are unchanged, and forgets them with the worker', async () => {
    const channel = createTestChannel();
    const answer = async <T>(call: Promise<T>): Promise<T> => {
      await vi.runAllTimersAsync();
      return call;
    };
    const first = await answer(channel.call('rows', [100]));
    // Another call between them keeps its own rows, if any: the rows' call is unaffected.
    await answer(channel.call('echo', ['between']));
    expect(await answer(channel.call('rows', [100]))).toBe(first);
    const longer = await answer(channel.call('rows', [120]));
    expect(longer).not.toBe(first);
    expect(longer.slice(0, 100).every((row, i) => row === first[i])).toBe(true);
    expect(longer[119]).toEqual({ index: 119, name: 't119' });
    // A stopped worker takes them along: the next reply's rows are built anew.
    channel.stop(createStoppedError());
    const again = await answer(channel.call('rows', [120]));
    expect(again).toStrictEqual(longer);
    expect(again.some((row, i) => row === longer[i])).toBe(false);
  });

  it('takes in the columns of a reply it drops, since the next reply names them', async () => {
    const channel = createTestChannel();
    // The first call is superseded before its reply is read: its reply is dropped, yet the
    // worker has posted its columns and the next reply sends them by id only.
    const dropped = expect(channel.call('rows', [500], { latestWins: true })).rejects.toThrow(
      /superseded/,
    );
    const kept = channel.call('rows', [500], { latestWins: true });
    await vi.runAllTimersAsync();
    await dropped;
    const rows = await kept;
    expect(rows).toHaveLength(500);
    expect(rows[499]).toEqual({ index: 499, name: 't499' });
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(false);
  });

  it('pairs each answer with its call when several are in the worker and finish out of order', async () => {
    const channel = createTestChannel();
    const first = channel.call('later', ['first']);
    const second = channel.call('later', ['second']);
    await settleWorker();
    release.get('second')?.();
    await expect(second).resolves.toBe('second');
    release.get('first')?.();
    await expect(first).resolves.toBe('first');
    expect(workers).toHaveLength(1);
  });

  it('posts an immediate call while the only slot is taken, and keeps the queued call waiting for it', async () => {
    const channel = createTestChannel(1000, 1);
    const holding = channel.call('later', ['holding']);
    const queued = channel.call('echo', ['queued']);
    const immediate = channel.call('echo', ['immediate'], { immediate: true });
    let queuedDone = false;
    void queued.then(() => {
      queuedDone = true;
    });
    await expect(immediate).resolves.toBe('immediate');
    expect(queuedDone).toBe(false);
    release.get('holding')?.();
    await expect(holding).resolves.toBe('holding');
    await expect(queued).resolves.toBe('queued');
  });

  it('rebuilds an exception in a handler with its name, message and code', async () => {
    const channel = createTestChannel();
    const error = await rejection(channel.call('fail', []));
    expect(error).toBeInstanceOf(WorkerError);
    expect(error).toMatchObject({
      name: 'RangeError',
      code: 'internal',
      message: 'index 7 is out of range',
    });
  });

  it('says unknown-method when the worker lacks the method (page and worker out of step)', async () => {
    const channel = createChannel<TestApi & { forget: () => null }>({
      timeoutMs: 1000,
      createWorker: () =>
        createFakeWorker<TestApi>({
          echo: async (text) => text,
          later: async (label) => label,
          fail: () => {
            throw new Error('unused');
          },
          uncloneable: () => ({ callback: () => {} }),
          rows: async () => [],
        }) as BridgeWorker<TestApi & { forget: () => null }>,
    });
    const error = await rejection(channel.call('forget', []));
    expect(error).toMatchObject({ code: 'unknown-method', message: 'Unknown method: forget' });
  });

  it('answers a result that does not clone with an error, and the worker keeps serving', async () => {
    const channel = createTestChannel();
    const error = await rejection(channel.call('uncloneable', []));
    expect(error).toMatchObject({ name: 'DataCloneError', code: 'internal' });
    await expect(channel.call('echo', ['still here'])).resolves.toBe('still here');
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(false);
  });

  it('fails a call whose arguments do not clone, without touching the worker', async () => {
    const channel = createTestChannel();
    const error = await rejection(channel.call('echo', [(() => 'not text') as unknown as string]));
    expect(error).toMatchObject({ name: 'DataCloneError', code: 'internal' });
    await expect(channel.call('echo', ['next'])).resolves.toBe('next');
    expect(workers[0]?.terminated).toBe(false);
  });

  it('on a timeout fails every call in the worker and answers the next on a new one', async () => {
    const channel = createTestChannel(1000);
    const first = rejection(channel.call('later', ['a']));
    const second = rejection(channel.call('later', ['b']));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await first).code).toBe('timeout');
    expect((await second).code).toBe('timeout');
    expect(workers[0]?.terminated).toBe(true);
    await expect(channel.call('echo', ['again'])).resolves.toBe('again');
    expect(workers).toHaveLength(2);
  });

  it('posts a call that supersedes the one in the worker at once, one superseded call at a time', async () => {
    const channel = createTestChannel(1000, 1, true);
    const posted = () => {
      const worker = workers[0];
      if (!worker) return 0;
      return vi.mocked(worker.postMessage).mock.calls.length;
    };
    const first = rejection(channel.call('later', ['first'], { latestWins: true }));
    expect(workers).toHaveLength(1);
    vi.spyOn(workers[0] as FakeWorker<TestApi>, 'postMessage');
    const second = rejection(channel.call('later', ['second'], { latestWins: true }));
    // The first is superseded in the worker: the second goes now, not after the first's reply.
    expect(posted()).toBe(1);
    expect((await first).name).toBe('AbortError');
    const third = channel.call('later', ['third'], { latestWins: true });
    // Two superseded calls in the worker would be one too many: the third waits for a slot.
    expect(posted()).toBe(1);
    expect((await second).name).toBe('AbortError');
    await settleWorker();
    release.get('first')?.();
    await settleWorker();
    expect(posted()).toBe(2);
    await settleWorker();
    release.get('second')?.();
    release.get('third')?.();
    await expect(third).resolves.toBe('third');
  });

  it("keeps a superseded call's slot until its reply without releaseSuperseded", async () => {
    const channel = createTestChannel(1000, 1);
    const first = rejection(channel.call('later', ['first'], { latestWins: true }));
    vi.spyOn(workers[0] as FakeWorker<TestApi>, 'postMessage');
    const second = channel.call('later', ['second'], { latestWins: true });
    expect((await first).name).toBe('AbortError');
    expect(vi.mocked((workers[0] as FakeWorker<TestApi>).postMessage).mock.calls).toHaveLength(0);
    await settleWorker();
    release.get('first')?.();
    await settleWorker();
    release.get('second')?.();
    await expect(second).resolves.toBe('second');
  });

  it('gives the call posted behind a superseded one that hangs to a new worker, not a timeout', async () => {
    const channel = createTestChannel(100, 1, true);
    const hung = rejection(channel.call('later', ['hung'], { latestWins: true }));
    const live = channel.call('later', ['live'], { latestWins: true });
    expect((await hung).name).toBe('AbortError');
    // The superseded call never answers: its timeout replaces the worker.
    await vi.advanceTimersByTimeAsync(100);
    expect(workers).toHaveLength(2);
    expect(workers[0]?.terminated).toBe(true);
    release.get('live')?.();
    await expect(live).resolves.toBe('live');
  });

  it('lets the latest call win only when it asks to', async () => {
    const channel = createTestChannel();
    const kept = channel.call('later', ['kept']);
    const replaced = rejection(channel.call('later', ['replaced'], { latestWins: true }));
    const latest = channel.call('later', ['latest'], { latestWins: true });
    expect((await replaced).name).toBe('AbortError');
    await settleWorker();
    release.get('kept')?.();
    release.get('latest')?.();
    await expect(kept).resolves.toBe('kept');
    await expect(latest).resolves.toBe('latest');
  });
});

/**
 * Web Locks as the browser keeps them: one holder per name, the next request
 * granted when the holder's promise settles or its owner (a worker) dies.
 */
function createFakeLocks() {
  const holders = new Map<string, { release: () => void; waiting: (() => void)[] }>();
  const locks = {
    request(name: string, callback: () => Promise<void>): Promise<unknown> {
      const grant = () => {
        let release = () => {};
        const done = new Promise<void>((resolve) => {
          release = resolve;
        });
        holders.set(name, { release, waiting: holders.get(name)?.waiting ?? [] });
        void Promise.race([callback(), done]).then(() => {
          const next = holders.get(name)?.waiting.shift();
          if (next) next();
          else holders.delete(name);
        });
      };
      const held = holders.get(name);
      if (held) held.waiting.push(grant);
      else grant();
      return Promise.resolve();
    },
    /** The owner of `name` died: its lock is released. */
    die(name: string) {
      holders.get(name)?.release();
    },
  };
  return locks;
}

describe('a worker that dies without an error event', () => {
  it('fails its call at once through its lifeline, and the next call gets a new worker', async () => {
    const locks = createFakeLocks();
    const names: string[] = [];
    const channel = createChannel<TestApi>({
      timeoutMs: 60_000,
      locks,
      createWorker: (lifeline) => {
        names.push(lifeline);
        const worker = createFakeWorker<TestApi>({
          echo: async (text) => text,
          later: () => new Promise(() => {}),
          fail: () => {
            throw new Error('unused');
          },
          uncloneable: () => ({ callback: () => {} }),
          rows: async () => [],
        });
        // The worker takes its lifeline as the real one does, and says so.
        holdLifeline(
          {
            name: lifeline,
            postMessage: (data) => queueMicrotask(() => worker.emit('message', { data })),
          },
          locks,
        );
        workers.push(worker);
        return worker;
      },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failure = rejection(channel.call('later', ['never answered']));
    await settleWorker();
    expect(names).toHaveLength(1);
    // The worker closes itself: no event, only its lock goes.
    locks.die(names[0] as string);
    await settleWorker();
    const error = await failure;
    expect(error).toMatchObject({ code: 'crashed', message: 'The worker stopped unexpectedly' });
    // Long before the 60 s limit.
    expect(vi.getTimerCount()).toBe(0);
    await expect(channel.call('echo', ['again'])).resolves.toBe('again');
    expect(workers).toHaveLength(2);
    expect(workers[0]?.terminated).toBe(true);
  });
});
