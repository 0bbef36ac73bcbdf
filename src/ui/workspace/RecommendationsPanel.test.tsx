import type { ComponentProps } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type HintRecommendations,
  RECOMMENDATION_NOTE,
  recommendForStreams,
  renderHintsToml,
} from '../../core/analyses/recommend.ts';
import { parseConfigToml } from '../../core/config/config.ts';
import { loadTokenCounter } from '../../core/counting/tokens.ts';
import { parseEventsText } from '../../core/stream/codec.ts';
import codingSession from '../../examples/coding-session.json?raw';
import { flushAnalysis, initActions } from '../../state/actions.ts';
import type { RecommendationState } from '../../state/app-state.ts';
import { initExtras } from '../../state/extras.ts';
import { store } from '../../state/store.ts';
import { disposeWorkspace, initWorkspace } from '../../state/workspace.ts';
import { createInThreadClient } from '../../test/in-thread-client.ts';
import { createInThreadPool } from '../../test/in-thread-pool.ts';
import { act, fireEvent, render, screen, waitFor, within } from '../../test/render.tsx';
import { RecommendationsPanel } from './RecommendationsPanel.tsx';
import { RecommendPane } from './RecommendPane.tsx';

const CONFIG = `[[conversation.compaction.rules]]
keep_last = 1
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "strip-responses"
`;

async function recommendations(): Promise<HintRecommendations> {
  const counter = await loadTokenCounter('chars');
  return recommendForStreams(
    [parseEventsText(codingSession, 'auto').elements ?? []],
    parseConfigToml(CONFIG),
    { now: null, view: 'sanitized', counter },
  );
}

function done(result: HintRecommendations): RecommendationState {
  return { status: 'done', result, message: null };
}

afterEach(() => {
  disposeWorkspace();
});

type PanelProps = ComponentProps<typeof RecommendationsPanel>;

/** The panel for "this conversation", its onApply a mock unless `props` give one. */
function renderPanel(props: Pick<PanelProps, 'state'> & Partial<PanelProps>) {
  return render(<RecommendationsPanel subject="this conversation" onApply={vi.fn()} {...props} />);
}

describe('RecommendationsPanel', () => {
  it('offers to recommend when nothing is computed yet', () => {
    const onRecommend = vi.fn();
    renderPanel({ state: { status: 'idle', result: null, message: null }, onRecommend });
    fireEvent.click(screen.getByRole('button', { name: 'Recommend hints' }));
    expect(onRecommend).toHaveBeenCalledOnce();
  });

  it('keeps the button disabled, saying why, until there is a result to measure on', () => {
    const onRecommend = vi.fn();
    renderPanel({
      state: { status: 'idle', result: null, message: null },
      onRecommend,
      canRecommend: false,
    });
    const button = screen.getByRole('button', { name: 'Recommend hints' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Available once the first result is in.');
    fireEvent.click(button);
    expect(onRecommend).not.toHaveBeenCalled();
  });

  it('shows each suggestion with its reason and measured saving, and the note, before applying', async () => {
    const result = await recommendations();
    renderPanel({ state: done(result) });
    expect(screen.getByRole('note')).toHaveTextContent(RECOMMENDATION_NOTE);
    const table = screen.getByRole('table', { name: 'Suggested hints' });
    for (const rec of result.recommendations) {
      const row = within(table).getByRole('rowheader', { name: rec.tool }).closest('tr');
      expect(row).toHaveTextContent(rec.hint);
      expect(row).toHaveTextContent(rec.reason);
      expect(row).toHaveTextContent(rec.expectedSaved.tokens.toLocaleString('en-US'));
    }
    // fs_read_file already has its suggested hint: nothing to tick.
    const own = within(table).getByRole('rowheader', { name: 'fs_read_file' }).closest('tr');
    expect(own).toHaveTextContent('already in force');
    expect(within(own as HTMLElement).queryByRole('checkbox')).toBeNull();
    const total = result.total;
    expect(screen.getByText(/^With every suggestion applied:/)).toHaveTextContent(
      `${total.before.tokens.toLocaleString('en-US')} → ${total.after.tokens.toLocaleString('en-US')} tokens`,
    );
  });

  it('shows a size threshold suggestion with its TOML and measured saving', async () => {
    const result = await recommendations();
    const threshold = {
      tool: 'fs_read_file',
      over: '1KB',
      toolCalls: 'tool_calls = { policy = "strip-responses", over = "1KB" }',
      large: 2,
      small: 6,
      reason: 'Its responses split into 2 large and 6 small.',
      expectedSaved: { tokens: 3982, chars: 15_934 },
    };
    renderPanel({ state: done({ ...result, thresholds: [threshold] }) });
    const section = screen.getByRole('region', { name: 'Size thresholds' });
    expect(section).toHaveTextContent(
      'fs_read_file: tool_calls = { policy = "strip-responses", over = "1KB" } on the rule saves 3,982 tokens.',
    );
    expect(section).toHaveTextContent(threshold.reason);
  });

  it('shows no threshold section when there is none (base 2026-08, or no split)', async () => {
    renderPanel({ state: done({ ...(await recommendations()), thresholds: [] }) });
    expect(screen.queryByRole('region', { name: 'Size thresholds' })).toBeNull();
  });

  it('never pre-ticks a suggestion that saves less than now, says why, and shows the effect before Apply', async () => {
    const result = await recommendations();
    const onApply = vi.fn();
    render(<RecommendationsPanel subject="these" state={done(result)} onApply={onApply} />);
    const changes = result.recommendations.filter((rec) => rec.hint !== rec.currentHint);
    const less = changes.filter((rec) => rec.expectedSaved.tokens < rec.currentSaved.tokens);
    expect(less.length).toBeGreaterThan(0);
    for (const rec of changes) {
      const box = screen.getByRole('checkbox', { name: `Apply ${rec.hint} to ${rec.tool}` });
      expect(box, rec.tool).toHaveProperty('checked', !less.includes(rec));
    }
    for (const rec of less) {
      const row = screen.getByRole('rowheader', { name: rec.tool }).closest('tr');
      const fewer = rec.currentSaved.tokens - rec.expectedSaved.tokens;
      expect(row).toHaveTextContent(`Not ticked: it saves ${fewer.toLocaleString('en-US')}`);
    }
    // Ticking one that saves less says so before the click.
    const [first] = less;
    fireEvent.click(
      screen.getByRole('checkbox', { name: `Apply ${first?.hint} to ${first?.tool}` }),
    );
    expect(screen.getByTestId('apply-effect')).toHaveTextContent(/: lower than now\.$/);
    const ticked = changes.filter((rec) => !less.includes(rec) || rec === first);
    const apply = screen.getByRole('button', { name: /^Apply \d+ hints? to the config$/ });
    expect(apply).toHaveTextContent(`Apply ${ticked.length}`);
    fireEvent.click(apply);
    expect(onApply).toHaveBeenCalledWith(ticked);
  });

  it('keeps the last suggestions, marked, when the input has errors', async () => {
    const result = await recommendations();
    renderPanel({
      state: { status: 'invalid', result, message: 'The config has an error at line 1' },
    });
    expect(screen.getByText('Not current: The config has an error at line 1')).toBeVisible();
    expect(screen.getByRole('table', { name: 'Suggested hints' })).toBeVisible();
  });
});

describe('RecommendPane', () => {
  it("recommends for the editor's conversation, and Apply writes TOML into the store's config", async () => {
    const { client } = createInThreadClient();
    initActions({ engine: client, debounceMs: 0 });
    initExtras({ engine: client });
    initWorkspace({ pool: createInThreadPool().pool, debounceMs: 0 });
    store.setState({ configText: CONFIG, streamText: codingSession, tokenizer: 'chars' });
    render(<RecommendPane />);
    // Before the editor's first result the button waits.
    expect(screen.getByRole('button', { name: 'Recommend hints' })).toBeDisabled();
    await act(() => flushAnalysis());
    fireEvent.click(screen.getByRole('button', { name: 'Recommend hints' }));
    await screen.findByRole('table', { name: 'Suggested hints' });
    const shown = store.getState().extras.recommend?.value;
    expect(shown).toEqual(await recommendations());

    for (const box of screen.getAllByRole('checkbox')) {
      if (!(box as HTMLInputElement).checked) fireEvent.click(box);
    }
    fireEvent.click(screen.getByRole('button', { name: /^Apply \d+ hints? to the config$/ }));
    const expected = renderHintsToml(shown?.recommendations ?? [], CONFIG);
    await waitFor(() => expect(store.getState().configText).toBe(expected));
    expect(expected).toContain('[conversation.tools.');
    // Measured again for the new config: every tool now has its suggested hint.
    await screen.findByText('Every tool already has the suggested hint.');
  });
});
