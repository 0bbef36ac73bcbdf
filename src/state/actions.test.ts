import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Diagnostic } from '../core/types.ts';
import { createFakeEngine, type FakeEngine, makeResult } from '../test/fake-engine.ts';
import {
  createCrashError,
  createTimeoutError,
  OUTDATED_BUILD_MESSAGE,
  WorkerError,
} from '../worker/shared/errors.ts';
import {
  compact,
  disposeActions,
  flushAnalysis,
  initActions,
  loadExample,
  openFile,
  reset,
  runAnalysis,
  setConfigText,
  setNow,
  setStreamText,
  setTokenizer,
} from './actions.ts';
import { selectInput, selectIsBusy, selectStatusMessage } from './selectors.ts';
import { initialState, resetStore, store } from './store.ts';

let engine: FakeEngine;

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
  resetStore();
  engine = createFakeEngine();
  initActions({
    engine,
    examples: [
      {
        id: 'tiny',
        title: 'Tiny',
        summary: 'The smallest example.',
        load: () => ({ configText: 'cfg', streamText: '[]', tokenizer: 'chars' }),
      },
    ],
    ownFileConfig: { replaces: 'cfg # about this example', configText: 'cfg # for any file' },
  });
});

afterEach(() => {
  disposeActions();
  vi.useRealTimers();
});

const invalid: Diagnostic = {
  line: 2,
  column: 14,
  severity: 'error',
  message: 'compaction: unknown hint "strip-response"',
  code: 'config/invalid-hint',
};

describe('runAnalysis', () => {
  it('waits for a quiet time of 150 ms after typing in the stream and runs once with the latest text', async () => {
    setStreamText('[');
    setStreamText('[]');
    expect(selectIsBusy(store.getState())).toBe(true);
    await vi.advanceTimersByTimeAsync(149);
    setStreamText('[ ]');
    await vi.advanceTimersByTimeAsync(149);
    expect(engine.runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.runs).toHaveLength(1);
    expect(engine.runs[0]?.input.streamText).toBe('[ ]');
  });

  it('runs a hint edit on the same stream at once, merging the setters of one event', async () => {
    setStreamText('[1]');
    await vi.advanceTimersByTimeAsync(150);
    expect(engine.runs).toHaveLength(1);
    setConfigText('a');
    setConfigText('ab');
    await settle();
    expect(engine.runs.map((run) => run.input.configText)).toEqual(['', 'ab']);
    // Typing a new stream is expensive again.
    setStreamText('[{}]');
    await settle();
    expect(engine.runs).toHaveLength(2);
  });

  it('opens a file at once, with no quiet time', async () => {
    openFile('[]', 'events.json');
    await settle();
    expect(engine.runs.map((run) => run.input.streamText)).toEqual(['[]']);
  });

  it('never shows an older input as settled: an edit drops the answer of the run under way', async () => {
    setConfigText('a');
    await settle();
    setConfigText('ab');
    // The answer for "a" arrives after the edit, before the run for "ab" answers.
    engine.runs[0]?.resolve(makeResult({ before: 100, after: 90 }));
    await settle();
    expect(engine.runs).toHaveLength(2);
    expect(store.getState().status).toBe('running');
    expect(store.getState().result).toBeNull();
    engine.runs[1]?.resolve(makeResult({ before: 100, after: 50 }));
    await settle();
    expect(store.getState().status).toBe('done');
    expect(store.getState().result?.report.totals.saved.tokens).toBe(50);
  });

  it('does not run when a setter leaves the input as it was', async () => {
    setTokenizer(initialState.tokenizer);
    await vi.advanceTimersByTimeAsync(500);
    expect(engine.runs).toHaveLength(0);
    expect(store.getState().status).toBe('idle');
  });

  it('stores an ok result, clears stale and settles the status', async () => {
    const done = flushAnalysis();
    engine.runs[0]?.resolve(makeResult({ before: 1000, after: 600 }));
    await done;
    const state = store.getState();
    expect(state.status).toBe('done');
    expect(state.isStale).toBe(false);
    expect(state.result?.report.totals.saved.tokens).toBe(400);
    expect(selectStatusMessage(state)).toBe(
      'Saved 400 tokens (40.0%) of the 1,000 tokens the next request would carry.',
    );
  });

  it('lets only the latest run write, and cancels the earlier one', async () => {
    void flushAnalysis();
    setConfigText('newer');
    void flushAnalysis();
    const [first, second] = engine.runs;
    expect(first?.signal?.aborted).toBe(true);
    second?.resolve(makeResult({ before: 100, after: 50 }));
    await settle();
    first?.resolve(makeResult({ before: 100, after: 90 }));
    await settle();
    expect(store.getState().result?.report.totals.saved.tokens).toBe(50);
    expect(store.getState().status).toBe('done');
  });

  it('keeps the last good figures when the input becomes invalid, marked stale', async () => {
    const first = flushAnalysis();
    engine.runs[0]?.resolve(makeResult({ before: 200, after: 100 }));
    await first;
    setConfigText('[conversation.tools.x]\ncompaction = "strip-response"');
    const second = flushAnalysis();
    engine.runs[1]?.resolve(
      makeResult({ before: 0, after: 0 }, { status: 'invalid', configDiagnostics: [invalid] }),
    );
    await second;
    const state = store.getState();
    expect(state.result?.report.totals.saved.tokens).toBe(100);
    expect(state.isStale).toBe(true);
    expect(state.status).toBe('done');
    expect(state.configDiagnostics).toEqual([invalid]);
    expect(selectIsBusy(state)).toBe(false);
    expect(selectStatusMessage(state)).toBe(
      '1 error in the input. Saved 100 tokens (50.0%) of the 200 tokens the next request would carry, with the last valid input.',
    );
  });

  describe('a large stream counted anew', () => {
    /** 500,000 characters: from here on, a run that counts the stream anew estimates first. */
    const large = `[${' '.repeat(499_998)}]`;
    const estimate = makeResult({ before: 1000, after: 400 }, { report: chars() });
    const counted = makeResult({ before: 900, after: 200 });
    function chars() {
      const report = makeResult({ before: 1000, after: 400 }).report;
      return { ...report, tokenizer: 'chars' as const };
    }

    it('shows the estimate first, still busy and said to be one, then the counted figures', async () => {
      openFile(large, 'big.json');
      await settle();
      expect(engine.estimates).toHaveLength(1);
      expect(engine.runs).toHaveLength(1);
      expect(engine.runs[0]?.input.tokenizer).toBe('o200k');
      engine.estimates[0]?.resolve(estimate);
      await settle();
      let state = store.getState();
      expect(state.result?.report.totals.saved.tokens).toBe(600);
      expect(state.estimatedWhile).toBe('o200k');
      expect(selectIsBusy(state)).toBe(true);
      expect(selectStatusMessage(state)).toBe(
        'Saved 600 tokens (60.0%) of the 1,000 tokens the next request would carry, estimated as characters ÷ 4 while the o200k tokenizer counts.',
      );
      engine.runs[0]?.resolve(counted);
      await settle();
      state = store.getState();
      expect(state.result?.report.totals.saved.tokens).toBe(700);
      expect(state.estimatedWhile).toBeNull();
      expect(selectIsBusy(state)).toBe(false);
    });

    it('is not asked for while typing in a large stream: the untouched payloads keep their counts', async () => {
      openFile(large, 'big.json');
      await settle();
      engine.estimates[0]?.resolve(estimate);
      engine.runs[0]?.resolve(counted);
      await settle();
      setStreamText(`${large} `);
      await vi.advanceTimersByTimeAsync(500);
      expect(engine.runs).toHaveLength(2);
      expect(engine.estimates).toHaveLength(1);
    });

    it('is not asked for below 500,000 characters, nor for a hint edit on the same stream', async () => {
      openFile(large.slice(1), 'just-under.json');
      await settle();
      expect(engine.estimates).toHaveLength(0);
      engine.runs[0]?.resolve(counted);
      await settle();
      openFile(large, 'big.json');
      await settle();
      engine.estimates[0]?.resolve(estimate);
      engine.runs[1]?.resolve(counted);
      await settle();
      setConfigText('edited');
      await vi.advanceTimersByTimeAsync(500);
      expect(engine.runs).toHaveLength(3);
      expect(engine.estimates).toHaveLength(1);
      // Another tokenizer counts the whole stream again.
      setTokenizer('cl100k');
      await vi.advanceTimersByTimeAsync(500);
      expect(engine.estimates).toHaveLength(2);
    });

    it('comes too late to replace the counted figures, and gives the last counted ones back on a failure', async () => {
      const first = flushAnalysis();
      engine.runs[0]?.resolve(makeResult({ before: 10, after: 5 }));
      await first;
      openFile(large, 'big.json');
      await settle();
      engine.estimates[0]?.resolve(estimate);
      await settle();
      engine.runs[1]?.reject(createTimeoutError(30_000));
      await settle();
      const state = store.getState();
      expect(state.estimatedWhile).toBeNull();
      expect(state.result?.report.totals.saved.tokens).toBe(5);

      openFile(`${large} `, 'other.json');
      await settle();
      engine.runs[2]?.resolve(counted);
      await settle();
      engine.estimates[1]?.resolve(estimate);
      await settle();
      expect(store.getState().result?.report.totals.saved.tokens).toBe(700);
      expect(store.getState().estimatedWhile).toBeNull();
    });
  });

  /** A crash as the worker client reports it, from the browser's `error` event. */
  function crash(message: string): WorkerError {
    return createCrashError(Object.assign(new Event('error', { cancelable: true }), { message }));
  }

  /** A first run that saves 5 of 10 tokens, then a second whose first attempt fails with `error`. */
  async function failSecondRun(error: WorkerError): Promise<{ second: Promise<void> }> {
    const first = flushAnalysis();
    engine.runs[0]?.resolve(makeResult({ before: 10, after: 5 }));
    await first;
    setNow('2025-07-02 00:00:00.0');
    const second = flushAnalysis();
    engine.runs[1]?.reject(error);
    return { second };
  }

  it('keeps the last good figures when a run times out, and says so in a toast', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { second } = await failSecondRun(createTimeoutError(60_000));
    await second;
    const state = store.getState();
    expect(state.status).toBe('error');
    expect(state.result?.report.totals.saved.tokens).toBe(5);
    expect(state.isStale).toBe(true);
    expect(selectStatusMessage(state)).toBe(
      'The computation took longer than 60 s and was stopped. Saved 5 tokens (50.0%) of the 10 tokens the next request would carry, with the last input that worked.',
    );
    expect(state.toasts.map((toast) => [toast.tone, toast.message])).toEqual([
      [
        'error',
        'The computation took longer than 60 s and was stopped. Change the input, or press Try again if the machine was busy.',
      ],
    ]);
    // Try again runs the same input once more, and a result clears the failure.
    const retry = flushAnalysis();
    expect(engine.runs[2]?.input).toEqual(engine.runs[1]?.input);
    engine.runs[2]?.resolve(makeResult({ before: 10, after: 4 }));
    await retry;
    expect(store.getState().error).toBeNull();
    expect(selectStatusMessage(store.getState())).toBe(
      'Saved 6 tokens (60.0%) of the 10 tokens the next request would carry.',
    );
  });

  it('asks for a reload when the tab is on an older build, never Try again (issue 43)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { second } = await failSecondRun(new WorkerError('outdated', OUTDATED_BUILD_MESSAGE));
    await second;
    const state = store.getState();
    expect(state.outdatedBuild).toBe(true);
    expect(state.toasts.map((toast) => [toast.tone, toast.message])).toEqual([
      [
        'error',
        `${OUTDATED_BUILD_MESSAGE}. Reload the page to use the current version; your work is kept.`,
      ],
    ]);
  });

  it('tries a run once more on a new worker after a crash', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { second } = await failSecondRun(crash('Uncaught Error: boom'));
    await vi.waitFor(() => expect(engine.runs).toHaveLength(3));
    expect(engine.runs[2]?.input).toEqual(engine.runs[1]?.input);
    expect(selectIsBusy(store.getState())).toBe(true);
    engine.runs[2]?.resolve(makeResult({ before: 10, after: 2 }));
    await second;
    const state = store.getState();
    expect(state.status).toBe('done');
    expect(state.isStale).toBe(false);
    expect(state.result?.report.totals.saved.tokens).toBe(8);
    expect(state.toasts.map((toast) => [toast.tone, toast.message])).toEqual([
      ['info', 'The worker stopped unexpectedly and was restarted; computing again.'],
    ]);
    // The browser's own words reach the console.
    expect(warn).toHaveBeenLastCalledWith(expect.any(WorkerError), 'Uncaught Error: boom');
  });

  it('gives up after a second crash, keeping the last good figures', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { second } = await failSecondRun(crash('Uncaught Error: boom'));
    await vi.waitFor(() => expect(engine.runs).toHaveLength(3));
    engine.runs[2]?.reject(crash('Uncaught Error: boom'));
    await second;
    const state = store.getState();
    expect(engine.runs).toHaveLength(3);
    expect(state.status).toBe('error');
    expect(state.result?.report.totals.saved.tokens).toBe(5);
    expect(selectStatusMessage(state)).toBe(
      'The worker stopped unexpectedly. Saved 5 tokens (50.0%) of the 10 tokens the next request would carry, with the last input that worked.',
    );
    expect(state.toasts.map((toast) => [toast.tone, toast.message])).toEqual([
      ['info', 'The worker stopped unexpectedly and was restarted; computing again.'],
      ['error', 'The worker stopped unexpectedly. Press Try again, or change the input.'],
    ]);
  });

  it('does not try a crashed run again when a newer run has replaced it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = flushAnalysis();
    engine.runs[0]?.resolve(makeResult({ before: 10, after: 5 }));
    await first;
    const second = flushAnalysis();
    // The crash and a newer edit arrive together, before the page reacts to either.
    engine.runs[1]?.reject(crash('Uncaught Error: boom'));
    setNow('2025-07-03 00:00:00.0');
    const third = flushAnalysis();
    await second;
    // Only the newer run is in flight: no retry of the old input, no notice.
    expect(engine.runs).toHaveLength(3);
    expect(engine.runs[2]?.input.now).toBe('2025-07-03 00:00:00.0');
    expect(store.getState().toasts).toEqual([]);
    engine.runs[2]?.resolve(makeResult({ before: 10, after: 3 }));
    await third;
    expect(store.getState().status).toBe('done');
  });

  it('stays silent when a run is cancelled', async () => {
    const run = flushAnalysis();
    engine.runs[0]?.reject(new WorkerError('aborted', 'run was superseded'));
    await run;
    expect(store.getState().toasts).toEqual([]);
    expect(store.getState().error).toBeNull();
  });

  it('does nothing without an engine', async () => {
    disposeActions();
    runAnalysis();
    await vi.advanceTimersByTimeAsync(1000);
    expect(engine.runs).toHaveLength(0);
  });
});

describe('inputs', () => {
  it('treats a blank "now" as the default', () => {
    setNow('  ');
    expect(store.getState().now).toBeNull();
    setNow('2025-07-01 00:00:00.0');
    expect(selectInput(store.getState()).now).toBe('2025-07-01 00:00:00.0');
  });

  it('opens a file as is, with the encoding detected', async () => {
    store.setState({ encoding: 'plain' });
    openFile('[{"type":"turn_start"}]', 'events.json');
    const state = store.getState();
    expect(state.streamText).toBe('[{"type":"turn_start"}]');
    expect(state.streamFileName).toBe('events.json');
    expect(state.encoding).toBe('auto');
    await vi.advanceTimersByTimeAsync(150);
    expect(engine.runs).toHaveLength(1);
  });

  it("swaps the default example's config for the neutral one on opening a file, unless it was edited", () => {
    store.setState({ configText: 'cfg # about this example' });
    openFile('[]', 'events.json');
    expect(store.getState().configText).toBe('cfg # for any file');

    store.setState({ configText: 'cfg # about this example, edited' });
    openFile('[]', 'events.json');
    expect(store.getState().configText).toBe('cfg # about this example, edited');
  });

  it('loads an example and runs it', async () => {
    expect(await loadExample('tiny')).toBe(true);
    expect(store.getState()).toMatchObject({
      configText: 'cfg',
      streamText: '[]',
      tokenizer: 'chars',
      exampleId: 'tiny',
    });
    await vi.advanceTimersByTimeAsync(150);
    expect(engine.runs).toHaveLength(1);
    expect(await loadExample('missing')).toBe(false);
  });

  it('lists the examples for the gallery without their loaders', () => {
    expect(store.getState().examples).toEqual([
      { id: 'tiny', title: 'Tiny', summary: 'The smallest example.' },
    ]);
  });
});

describe('compact and reset', () => {
  it('puts the compacted stream in the editor', async () => {
    const done = compact();
    engine.compacts[0]?.resolve({ ok: true, streamText: '[compacted]' });
    expect(await done).toBe(true);
    expect(store.getState().streamText).toBe('[compacted]');
    expect(store.getState().status).toBe('running');
  });

  it('tells the user when there is nothing to do', async () => {
    const done = reset(2);
    expect(engine.resets[0]?.position).toBe(2);
    engine.resets[0]?.resolve({ ok: false, message: 'the stream has no compaction #2' });
    expect(await done).toBe(false);
    expect(store.getState().toasts[0]).toMatchObject({
      tone: 'info',
      message: 'Reset: the stream has no compaction #2',
    });
  });
});
