import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmptyFigures, type PlaygroundInput } from '../../core/playground/playground.ts';
import { rejection } from '../../test/rejection.ts';
import { isAbortError, WorkerError } from '../shared/errors.ts';
import type {
  PlaygroundRequest as Request,
  PlaygroundResponse as Response,
} from '../shared/playground-protocol.ts';
import { createWorkerClient, type WorkerLike } from './playground-client.ts';

/** A worker that answers only when the test says so. */
class FakeWorker implements WorkerLike {
  readonly posted: Request[] = [];
  terminated = false;
  /** Whether the client took over the last `error` event (the browser then does not print it). */
  crashHandled = false;
  private readonly listeners = new Map<string, ((event: never) => void)[]>();

  /** Every stream handed over, by number, answered at once as the real worker does. */
  readonly streams = new Map<number, string>();

  postMessage(message: Request): void {
    if (message.method === 'setStream') {
      const [id, text] = message.args;
      this.streams.set(id, text);
      queueMicrotask(() => this.respond({ id: message.id, ok: true, value: null }));
      return;
    }
    this.posted.push(message);
  }

  terminate(): void {
    this.terminated = true;
  }

  addEventListener(type: string, listener: (event: never) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** Delivers a response as the worker would. */
  respond(response: Response): void {
    for (const listener of this.listeners.get('message') ?? []) {
      listener({ data: response } as never);
    }
  }

  /** Fires an `error` event, as a worker whose script threw does. */
  crash(message: string): void {
    const event = Object.assign(new Event('error', { cancelable: true }), { message });
    for (const listener of this.listeners.get('error') ?? []) listener(event as never);
    this.crashHandled = event.defaultPrevented;
  }
}

const input: PlaygroundInput = {
  configText: '',
  streamText: '[]',
  encoding: 'auto',
  tokenizer: 'chars',
  now: null,
  view: 'sanitized',
};

let workers: FakeWorker[];

/** Lets the worker's answers to `setStream` arrive (they come in a microtask). */
const settle = () => vi.advanceTimersByTimeAsync(0);

/** The input as the worker receives it: the stream named by number. */
const { streamText: _text, ...inputFields } = input;

/** How long runs must be quiet before an extra goes (the client's option, set here to be explicit). */
const QUIET_MS = 200;

function createClient(timeoutMs = 1000) {
  return createWorkerClient({
    timeoutMs,
    extrasQuietMs: QUIET_MS,
    createWorker: () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
  });
}

beforeEach(() => {
  workers = [];
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createWorkerClient', () => {
  it('starts no worker until the first call', () => {
    createClient();
    expect(workers).toHaveLength(0);
  });

  it('starts its worker when asked, before the first call, and sends that call to it', async () => {
    const client = createClient();
    client.start();
    expect(workers).toHaveLength(1);
    const run = client.run(input);
    await settle();
    expect(workers).toHaveLength(1);
    expect(workers[0]?.posted.map((r) => r.method)).toEqual(['run']);
    workers[0]?.respond({ id: 2, ok: true, value: createEmptyFigures() });
    await expect(run).resolves.toBeDefined();
  });

  it('pairs a response with its call by id', async () => {
    const client = createClient();
    const run = client.run(input);
    await settle();
    const [worker] = workers;
    // The stream went first, as stream 1 (request 1); the run names it.
    expect(worker?.streams).toEqual(new Map([[1, '[]']]));
    expect(worker?.posted).toEqual([
      { id: 2, method: 'run', args: [{ ...inputFields, stream: 1 }], group: 'run' },
    ]);
    const value = { ...createEmptyFigures(), turnCount: 3 };
    worker?.respond({ id: 99, ok: true, value: createEmptyFigures() });
    worker?.respond({ id: 2, ok: true, value });
    await expect(run).resolves.toEqual(value);
  });

  it('hands the stream over once per change, not with every call', async () => {
    const client = createClient();
    const worker = () => workers[0] as FakeWorker;
    const answer = async (turnCount: number) => {
      await settle();
      const last = worker().posted.at(-1) as Request;
      worker().respond({ id: last.id, ok: true, value: { ...createEmptyFigures(), turnCount } });
    };
    const first = client.run({ ...input, configText: 'a' });
    await answer(1);
    await first;
    const second = client.run({ ...input, configText: 'b' });
    await answer(2);
    await second;
    expect(worker().streams.size).toBe(1);
    const third = client.run({ ...input, streamText: '[ ]' });
    await answer(3);
    await third;
    expect([...worker().streams.values()]).toEqual(['[]', '[ ]']);
    expect(worker().posted.map((r) => (r.args[0] as { stream: number }).stream)).toEqual([1, 1, 2]);
  });

  it('lets each extra replace only its own earlier request', async () => {
    const client = createClient();
    const extra = (name: 'whatIf' | 'timeline', version: number) =>
      client.extra({ name, version, input, args: null });
    const run = client.run(input);
    const oldGrid = rejection(extra('whatIf', 1));
    const timeline = extra('timeline', 1);
    const grid = extra('whatIf', 2);
    expect((await oldGrid).code).toBe('aborted');
    const worker = workers[0] as FakeWorker;
    // One job at a time: answer each as it arrives (the extras once runs are quiet).
    for (let answered = 0; answered < 3; answered++) {
      await vi.advanceTimersByTimeAsync(QUIET_MS);
      const request = worker.posted[answered] as Request;
      worker.respond({
        id: request.id,
        ok: true,
        value: { status: 'invalid', version: 0 },
      } as never);
    }
    expect(worker.posted.map((r) => r.method)).toEqual(['run', 'extra', 'extra']);
    await expect(run).resolves.toBeDefined();
    await expect(timeline).resolves.toBeDefined();
    await expect(grid).resolves.toBeDefined();
  });

  it("posts no extra while runs come, so a keystroke's run never waits behind one", async () => {
    const client = createClient();
    const worker = () => workers[0] as FakeWorker;
    const answerLast = async () => {
      await settle();
      const last = worker().posted.at(-1) as Request;
      worker().respond({ id: last.id, ok: true, value: createEmptyFigures() });
    };
    // Three keystrokes 50 ms apart, each with its run and the diff pane's request for its version.
    const extras: Promise<unknown>[] = [];
    for (let key = 1; key <= 3; key++) {
      const run = client.run({ ...input, configText: `k${key}` });
      extras.push(
        rejection(client.extra({ name: 'transcripts', version: key, input, args: null } as never)),
      );
      await answerLast();
      await run;
      await vi.advanceTimersByTimeAsync(50);
    }
    // Every run went straight to the worker; no extra was posted between them.
    expect(worker().posted.map((r) => r.method)).toEqual(['run', 'run', 'run']);
    // The older versions' requests were dropped without reaching the worker.
    expect((await extras[0]) as WorkerError).toMatchObject({ code: 'aborted' });
    expect((await extras[1]) as WorkerError).toMatchObject({ code: 'aborted' });
    // Once the runs are quiet, the latest version's extra goes, once.
    await vi.advanceTimersByTimeAsync(QUIET_MS);
    expect(worker().posted.map((r) => r.method)).toEqual(['run', 'run', 'run', 'extra']);
    expect(worker().posted[3]?.args[0]).toMatchObject({ name: 'transcripts', version: 3 });
  });

  it('hands the stream over again when the worker lost it', async () => {
    const client = createClient();
    const run = client.run(input);
    await settle();
    const worker = workers[0] as FakeWorker;
    worker.respond({
      id: 2,
      ok: false,
      error: { name: 'WorkerError', code: 'stream-missing', message: 'no stream 1' },
    });
    await settle();
    expect(worker.streams).toEqual(
      new Map([
        [1, '[]'],
        [2, '[]'],
      ]),
    );
    const retry = worker.posted.at(-1) as Request;
    expect(retry.args[0]).toMatchObject({ stream: 2 });
    worker.respond({ id: retry.id, ok: true, value: createEmptyFigures() });
    await expect(run).resolves.toBeDefined();
  });

  it('sends one job at a time and lets the latest call of a method win', async () => {
    const client = createClient();
    const first = rejection(client.run({ ...input, configText: 'a' }));
    const second = rejection(client.run({ ...input, configText: 'b' }));
    const third = client.run({ ...input, configText: 'c' });
    const worker = workers[0] as FakeWorker;
    // The stream goes ahead of the runs without waiting for its reply, so the first run is in
    // the worker at once. The second supersedes it there and goes at once too (the first's
    // answer, dropped, need not be read first); the third waits: one superseded run at a time.
    expect(isAbortError(await first)).toBe(true);
    expect((await second).code).toBe('aborted');
    await settle();
    expect(worker.posted.map((request) => request.id)).toEqual([2, 3]);
    expect(worker.posted[1]?.args[0]).toMatchObject({ configText: 'b' });
    // The first run's answer is dropped; its slot goes to the last run.
    worker.respond({ id: 2, ok: true, value: { ...createEmptyFigures(), turnCount: 1 } });
    await settle();
    expect(worker.posted.map((request) => request.id)).toEqual([2, 3, 4]);
    expect(worker.posted[2]?.args[0]).toMatchObject({ configText: 'c' });
    worker.respond({ id: 3, ok: true, value: { ...createEmptyFigures(), turnCount: 2 } });
    worker.respond({ id: 4, ok: true, value: { ...createEmptyFigures(), turnCount: 7 } });
    await expect(third).resolves.toMatchObject({ turnCount: 7 });
    expect(worker.terminated).toBe(false);
  });

  it("posts a new stream's run at once, without waiting for the stream's reply", () => {
    const client = createClient();
    void client.run({ ...input, streamText: '[1]' });
    const worker = workers[0] as FakeWorker;
    // No await: the stream's reply (a microtask away, a main-thread task in a browser) has not come.
    expect([...worker.streams.values()]).toEqual(['[1]']);
    expect(worker.posted.map((request) => request.method)).toEqual(['run']);
  });

  it('does not cancel a different method', async () => {
    const client = createClient();
    const run = client.run(input);
    const compact = client.compact(input);
    const worker = workers[0] as FakeWorker;
    await settle();
    worker.respond({ id: 2, ok: true, value: createEmptyFigures() });
    worker.respond({ id: 3, ok: true, value: { ok: true, streamText: '[1]' } });
    await expect(run).resolves.toBeDefined();
    await expect(compact).resolves.toEqual({ ok: true, streamText: '[1]' });
  });

  it('cancels on an abort signal', async () => {
    const client = createClient();
    const controller = new AbortController();
    const run = rejection(client.run(input, { signal: controller.signal }));
    controller.abort();
    expect(isAbortError(await run)).toBe(true);

    const already = client.reset(input, null, { signal: controller.signal });
    expect(isAbortError(await rejection(already))).toBe(true);
  });

  it('rebuilds errors from the worker with their code', async () => {
    const client = createClient();
    const run = rejection(client.run(input));
    await settle();
    workers[0]?.respond({
      id: 2,
      ok: false,
      error: { name: 'TypeError', code: 'internal', message: 'x is undefined' },
    });
    const error = await run;
    expect(error).toBeInstanceOf(WorkerError);
    expect(error).toMatchObject({ name: 'TypeError', code: 'internal', message: 'x is undefined' });
    expect(isAbortError(error)).toBe(false);
  });

  it('terminates a worker that runs too long and continues on a new one', async () => {
    const client = createClient(1000);
    const compact = rejection(client.compact(input));
    const run = client.run(input);
    const first = workers[0] as FakeWorker;
    await vi.advanceTimersByTimeAsync(1000);
    const timedOut = await compact;
    expect(timedOut.code).toBe('timeout');
    expect(timedOut.message).toBe('The computation took longer than 1 s');
    expect(first.terminated).toBe(true);
    // The queued run goes to a fresh worker, which lacks the stream: it is handed over again.
    const second = workers[1] as FakeWorker;
    expect(second.posted.map((request) => request.method)).toEqual(['run']);
    first.respond({ id: 3, ok: true, value: { ...createEmptyFigures(), turnCount: 1 } });
    second.respond({
      id: 3,
      ok: false,
      error: { name: 'WorkerError', code: 'stream-missing', message: 'no stream 1' },
    });
    await settle();
    expect([...second.streams.values()]).toEqual(['[]']);
    const retry = second.posted.at(-1) as Request;
    second.respond({ id: retry.id, ok: true, value: { ...createEmptyFigures(), turnCount: 2 } });
    await expect(run).resolves.toMatchObject({ turnCount: 2 });
  });

  it('reports a crashed worker and replaces it', async () => {
    const client = createClient();
    const run = rejection(client.run(input));
    await settle();
    workers[0]?.crash('Uncaught ReferenceError: window is not defined');
    const error = await run;
    expect(error.code).toBe('crashed');
    expect(error.message).toBe('The worker stopped unexpectedly');
    expect(error.detail).toBe('Uncaught ReferenceError: window is not defined');
    expect(workers[0]?.crashHandled).toBe(true);
    expect(workers[0]?.terminated).toBe(true);
    const next = client.run(input);
    await settle();
    // The new worker is handed the stream before the run.
    expect(workers[1]?.streams.size).toBe(1);
    const request = workers[1]?.posted.at(-1) as Request;
    workers[1]?.respond({ id: request.id, ok: true, value: createEmptyFigures() });
    await expect(next).resolves.toBeDefined();
  });

  it('replaces a worker that fails while idle before giving it the next job', async () => {
    const client = createClient();
    const first = client.run(input);
    await settle();
    workers[0]?.respond({ id: 2, ok: true, value: createEmptyFigures() });
    await first;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    workers[0]?.crash('Uncaught Error: late failure');
    expect(workers[0]?.terminated).toBe(true);
    // No caller to tell: the console keeps what the browser said.
    expect(warn).toHaveBeenCalledWith(expect.any(WorkerError), 'Uncaught Error: late failure');
    warn.mockRestore();
    const next = client.run(input);
    await settle();
    expect(workers[0]?.posted).toHaveLength(1);
    expect(workers[1]?.posted.map((request) => request.method)).toEqual(['run']);
    const request = workers[1]?.posted.at(-1) as Request;
    workers[1]?.respond({ id: request.id, ok: true, value: createEmptyFigures() });
    await expect(next).resolves.toBeDefined();
  });

  it('cancels everything on dispose', async () => {
    const client = createClient();
    const run = rejection(client.run(input));
    const compact = rejection(client.compact(input));
    client.dispose();
    expect(isAbortError(await run)).toBe(true);
    expect(isAbortError(await compact)).toBe(true);
    expect(workers[0]?.terminated).toBe(true);
  });
});
