import { describe, expect, it, vi } from 'vitest';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import { createReplaySettings, replayStream } from '../core/replay/replay.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { flushAnalysis, initActions } from '../state/actions.ts';
import { initExtras } from '../state/extras.ts';
import { store } from '../state/store.ts';
import { createFakeEngine, type FakeEngine } from '../test/fake-engine.ts';
import { lastDiffEditor } from '../test/monaco-stub.tsx';
import { act, fireEvent, render, screen, within } from '../test/render.tsx';
import type { ExtraReply } from '../worker/shared/playground-protocol.ts';
import { ConversationResults } from './ConversationResults.tsx';
import { FIXTURE_AFTER, FIXTURE_RESULT } from './panes/test-fixture.ts';

// uPlot needs a real canvas and matchMedia, which jsdom has not; the chart is the browser tests'.
vi.mock('./panes/cost/CostChart.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./panes/cost/CostChart.tsx')>()),
  CostChart: () => null,
}));

/** The fixture's value of each extra. */
const FIXTURE_EXTRAS: Record<string, unknown> = {
  transcripts: {
    before: FIXTURE_RESULT.before,
    after: FIXTURE_RESULT.after,
    removedBySanitize: FIXTURE_RESULT.removedBySanitize,
    readingDiff: null,
  },
  timeline: { jpDryRun: FIXTURE_RESULT.jpDryRun },
  whatIf: null,
};

/** Answers every extra asked for so far, for the version it was asked (invalid where `values` has none). */
async function answerExtras(engine: FakeEngine, values: Record<string, unknown> = FIXTURE_EXTRAS) {
  await act(async () => {
    for (const pending of engine.extras.splice(0)) {
      const value = values[pending.name];
      pending.resolve(
        (value === null || value === undefined
          ? { status: 'invalid', version: pending.version }
          : { status: 'ok', value, version: pending.version }) as ExtraReply,
      );
    }
  });
}

/** The results region with one finished run of the fixture result; its extras still pending. */
async function renderWithRun() {
  const engine = createFakeEngine();
  initActions({ engine, debounceMs: 0 });
  initExtras({ engine });
  render(<ConversationResults id="results" />);
  const run = act(() => flushAnalysis());
  engine.runs[0]?.resolve(FIXTURE_RESULT);
  await run;
  return engine;
}

/** The results region with one finished run of the fixture result, and its extras. */
async function renderWithResult() {
  const engine = await renderWithRun();
  await answerExtras(engine);
  return engine;
}

describe('the result panes', () => {
  it('say so before anything is computed', () => {
    initActions({ engine: createFakeEngine() });
    render(<ConversationResults id="results" />);
    // Savings, what-if, diff, explain, compactions and cost each say so;
    // Recommend shows its (disabled) button instead.
    const empty = [...document.querySelectorAll('.pane .empty')];
    expect(empty).toHaveLength(6);
    for (const note of empty) expect(note).toHaveTextContent('Nothing computed yet.');
  });

  it('moves focus out of a pane whose value goes stale, to the pane', async () => {
    const engine = await renderWithResult();
    const explain = document.querySelector('#pane-explain') as HTMLElement;
    const option = within(explain).getAllByRole('option')[0] as HTMLElement;
    option.focus();
    expect(document.activeElement).toBe(option);
    const next = act(() => flushAnalysis());
    engine.runs[1]?.resolve(FIXTURE_RESULT);
    await next;
    // Hidden now: focus is on the pane, which says it is busy, not on a control no one sees.
    const frame = explain.querySelector('.extra-pane');
    expect(document.activeElement).toBe(frame);
    expect(frame?.getAttribute('aria-busy')).toBe('true');
  });

  it('ask for the extras of the panes in view, for the version just run, and show only those', async () => {
    const engine = await renderWithRun();
    // Every pane is in view here (no IntersectionObserver): diff and explain share one request.
    expect(engine.extras.map((e) => e.name).sort()).toEqual([
      'replay',
      'timeline',
      'transcripts',
      'whatIf',
    ]);
    const version = store.getState().runVersion;
    expect(engine.extras.every((e) => e.version === version)).toBe(true);
    // Busy until they arrive, and nothing of another version meanwhile.
    expect(document.querySelector('#pane-diff .extra-pane')).toHaveAttribute('aria-busy', 'true');
    await answerExtras(engine);
    expect(document.querySelector('#pane-diff .extra-pane')).toHaveAttribute('aria-busy', 'false');
    // A new input: the panes go busy, and the older diff is hidden until the new extras come.
    const next = act(() => flushAnalysis());
    engine.runs[1]?.resolve(FIXTURE_RESULT);
    await next;
    expect(document.querySelector('#pane-diff .extra-pane')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('diff-modified').closest('.extra-stale')).toHaveAttribute(
      'aria-hidden',
      'true',
    );
    expect(engine.extras.every((e) => e.version === version + 1)).toBe(true);
    await answerExtras(engine);
    expect(screen.getByTestId('diff-modified')).toHaveTextContent('fs_read_file');
  });

  it('show the result in every pane, the diff and the rest once React gets to them', async () => {
    await renderWithResult();
    const table = screen.getByRole('table', { name: 'Savings per tool' });
    expect(within(table).getByRole('rowheader', { name: 'fs_read_file' })).toBeInTheDocument();
    expect(screen.getByTestId('diff-modified')).toHaveTextContent('fs_read_file');
    for (const pane of document.querySelectorAll('.deferred-pane')) {
      expect(pane).toHaveAttribute('data-current', 'true');
    }
    expect(screen.getByRole('listbox', { name: 'Events' })).toBeInTheDocument();
    expect(screen.getByText('Compaction events')).toBeInTheDocument();
  });

  it('select a tool from the table, which filters the diff', async () => {
    await renderWithResult();
    const row = screen.getByRole('rowheader', { name: 'fs_modify_file' }).closest('tr');
    fireEvent.click(row as HTMLElement);
    expect(store.getState().selectedTool).toBe('fs_modify_file');
    expect(screen.getByLabelText('Filter by tool')).toHaveValue('fs_modify_file');
    expect(screen.getByTestId('diff-modified')).not.toHaveTextContent('chat_request');
  });

  it('select an event from the list, explain it, and highlight it in the diff', async () => {
    await renderWithResult();
    const list = screen.getByRole('listbox', { name: 'Events' });
    const option = within(list).getAllByRole('option')[1] as HTMLElement;
    fireEvent.click(option);
    expect(store.getState().selectedEventKey).toBe(FIXTURE_AFTER[1]?.key);
    expect(screen.getByRole('article')).toBeInTheDocument();
    // The diff highlights the same event.
    expect(lastDiffEditor().modified.revealed.length).toBeGreaterThan(0);
  });

  it('reset one stored compaction through the engine', async () => {
    const engine = await renderWithResult();
    fireEvent.click(screen.getByRole('button', { name: 'Reset compaction #1' }));
    expect(engine.resets).toHaveLength(1);
    expect(engine.resets[0]?.position).toBe(1);
  });
});

describe('the cost pane', () => {
  /** A replay of a small stream, as the worker would answer the `replay` extra. */
  async function makeReplay() {
    const counter = await loadTokenCounter('chars');
    const stream = parseEventsText(
      JSON.stringify([
        { timestamp: '2026-03-01 10:00:00.0', type: 'turn_start' },
        { timestamp: '2026-03-01 10:00:00.0', type: 'chat_request', content: 'qqqqqqqq' },
        { timestamp: '2026-03-01 10:00:05.0', type: 'chat_response', message: 'mmmmmmmm' },
      ]),
      'auto',
    ).elements;
    return replayStream(stream ?? [], createReplaySettings(counter), {
      series: true,
      tools: false,
    });
  }

  /** The names of the extras asked for so far and not yet answered. */
  const asked = (engine: FakeEngine) => engine.extras.map((e) => e.name);

  /** Opens a section of the cost pane by its heading, as a click on its summary does. */
  function openSection(title: string) {
    const pane = document.querySelector('#pane-cost') as HTMLElement;
    const details = within(pane).getByRole('heading', { name: title }).closest('details');
    if (!details) throw new Error(`no section ${title}`);
    details.open = true;
    fireEvent(details, new Event('toggle'));
  }

  it('asks for the policies side by side and the per-tool what-if only once their sections are opened, after the figures', async () => {
    const engine = await renderWithRun();
    expect(asked(engine)).toContain('replay');
    // The figures' extra arrives; nothing else of the pane was asked for.
    await answerExtras(engine, {
      ...FIXTURE_EXTRAS,
      replay: { status: 'ok', replay: await makeReplay() },
    });
    expect(screen.getByTestId('cost-headline')).toHaveTextContent('over 1 requests');
    expect(asked(engine)).toEqual([]);

    act(() => openSection('Policies side by side'));
    expect(asked(engine)).toEqual(['replayPolicies']);
    expect(engine.extras[0]?.args).toEqual({
      model: null,
      price: null,
      calibration: 'auto',
      prefixTokens: null,
    });
    act(() => openSection('Per tool, in money'));
    expect(asked(engine)).toEqual(['replayPolicies', 'replayTools']);
    expect(engine.extras[1]?.args).toEqual({
      model: null,
      price: null,
      calibration: 'auto',
      prefixTokens: null,
      schedule: 'stored',
    });
  });

  it('asks again for the figures alone when the schedule changes, then for the open sections', async () => {
    const engine = await renderWithRun();
    const values = {
      replay: { status: 'ok', replay: await makeReplay() },
      replayTools: { status: 'ok', tools: [] },
      replayPolicies: { status: 'ok', comparison: [] },
    };
    const answer = () => answerExtras(engine, values);
    await answer();
    act(() => openSection('Per tool, in money'));
    await answer();
    act(() => {
      fireEvent.change(screen.getByLabelText('Schedule', { exact: true }), {
        target: { value: 'idle' },
      });
    });
    // The figures first: the what-if waits for them (the policies do not depend on the schedule).
    expect(asked(engine)).toEqual(['replay']);
    await answer();
    expect(asked(engine)).toEqual(['replayTools']);
  });
});
