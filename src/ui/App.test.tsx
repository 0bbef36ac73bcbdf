import { describe, expect, it, vi } from 'vitest';
import { flushAnalysis, initActions, notify } from '../state/actions.ts';
import { store } from '../state/store.ts';
import { createFakeEngine, makeResult } from '../test/fake-engine.ts';
import { act, fireEvent, render, screen, within } from '../test/render.tsx';
import { App } from './App.tsx';

function setup() {
  const engine = createFakeEngine();
  initActions({
    engine,
    examples: [
      {
        id: 'demo',
        title: 'A demo',
        summary: 'What it shows.',
        load: () => ({ configText: 'demo config', streamText: '[]' }),
      },
    ],
    debounceMs: 0,
  });
  render(<App />);
  return engine;
}

/** Opens the header's Advanced settings, as a person clicks it. */
function openAdvanced(): void {
  const toggle = screen.getByRole('button', { name: /^Advanced/ });
  if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
}

describe('App shell', () => {
  it('labels both editors', () => {
    setup();
    expect(screen.getByLabelText('Config (TOML)')).toBeInTheDocument();
    expect(screen.getByLabelText('Event stream (JSON)')).toBeInTheDocument();
  });

  it('labels every control of the header, the expert ones under Advanced', () => {
    setup();
    // A newcomer's first screen: the expert settings are one closed control.
    const advanced = screen.getByRole('button', { name: /^Advanced/ });
    expect(advanced).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Compact' })).toBeNull();
    openAdvanced();
    expect(advanced).toHaveAttribute('aria-expanded', 'true');
    const tokenizer = screen.getByLabelText('Tokenizer');
    expect(
      within(tokenizer)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['o200k_base', 'cl100k_base', 'chars/4']);
    const encoding = screen.getByLabelText('Encoding');
    expect(
      within(encoding)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['auto', 'storage', 'plain']);
    expect(screen.getByLabelText('Now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use the default now' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Sanitized' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Bare' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Compact' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeInTheDocument();
    expect(screen.getByLabelText('Open events.json or transcript')).toHaveAttribute('type', 'file');
    expect(screen.getByRole('button', { name: 'Examples' })).toBeInTheDocument();
  });

  it('sends control changes to the store and runs again', async () => {
    const engine = setup();
    openAdvanced();
    fireEvent.change(screen.getByLabelText('Tokenizer'), { target: { value: 'cl100k' } });
    fireEvent.change(screen.getByLabelText('Encoding'), { target: { value: 'storage' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Bare' }));
    fireEvent.change(screen.getByLabelText('Now'), { target: { value: '2025-07-01 00:00:00.0' } });
    expect(store.getState()).toMatchObject({
      tokenizer: 'cl100k',
      encoding: 'storage',
      view: 'bare',
      now: '2025-07-01 00:00:00.0',
    });
    expect(screen.getByRole('region', { name: 'Results' })).toHaveAttribute('aria-busy', 'true');
    await act(() => vi.waitFor(() => expect(engine.runs).toHaveLength(1)));
    expect(engine.runs[0]?.input).toMatchObject({ tokenizer: 'cl100k', view: 'bare' });

    fireEvent.click(screen.getByRole('button', { name: 'Use the default now' }));
    expect(store.getState().now).toBeNull();
  });

  it('types into the config editor', () => {
    setup();
    fireEvent.change(screen.getByLabelText('Config (TOML)'), { target: { value: 'x = 1' } });
    expect(store.getState().configText).toBe('x = 1');
  });

  it('announces the saving once the run is done, and shows the encoding in use', async () => {
    const engine = setup();
    const results = screen.getByRole('region', { name: 'Results' });
    const run = act(() => flushAnalysis());
    engine.runs[0]?.resolve(makeResult({ before: 35_780, after: 23_435 }, { encoding: 'storage' }));
    await run;
    expect(results).toHaveAttribute('aria-busy', 'false');
    const status = within(results).getByTestId('status-line');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent(
      'Saved 12,345 tokens (34.5%) of the 35,780 tokens the next request would carry.',
    );
    openAdvanced();
    expect(screen.getByRole('option', { name: 'auto (storage)' })).toBeInTheDocument();
  });

  it('says the encoding of an imported transcript reads the events the import wrote', async () => {
    const engine = setup();
    act(() =>
      store.setState({
        importSummary: {
          format: 'claude-code',
          turns: 1,
          toolCalls: [],
          notes: [],
          errors: 0,
          account: '',
        },
      }),
    );
    const run = act(() => flushAnalysis());
    engine.runs[0]?.resolve(makeResult({ before: 100, after: 50 }, { encoding: 'storage' }));
    await run;
    openAdvanced();
    expect(screen.getByRole('option', { name: 'auto (storage, as imported)' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'auto (storage)' })).toBeNull();
  });

  it('renders a section for every pane', () => {
    setup();
    for (const id of ['pane-savings', 'pane-diff', 'pane-explain', 'pane-timeline']) {
      expect(document.getElementById(id)).toBeInTheDocument();
    }
  });

  it('lists problems with line and column, and says when there are none', async () => {
    const engine = setup();
    expect(screen.getByText('No problems in the config or the stream.')).toBeInTheDocument();
    const run = act(() => flushAnalysis());
    engine.runs[0]?.resolve(
      makeResult(
        { before: 0, after: 0 },
        {
          status: 'invalid',
          configDiagnostics: [
            { line: 2, column: 14, severity: 'error', message: 'unknown hint "strip-response"' },
          ],
        },
      ),
    );
    await run;
    const problem = screen.getByRole('button', { name: /Config 2:14/ });
    expect(problem).toHaveTextContent('unknown hint "strip-response"');
    expect(screen.getByRole('region', { name: 'Results' })).toHaveAttribute('aria-busy', 'false');
  });

  it('loads an example from the gallery', async () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Examples' }));
    const dialog = screen.getByRole('dialog', { name: 'Examples' });
    expect(within(dialog).getByText('What it shows.')).toBeInTheDocument();
    const item = within(dialog).getByRole('button', { name: /A demo/ });
    expect(item).toHaveFocus();
    await act(async () => {
      fireEvent.click(item);
    });
    expect(store.getState().configText).toBe('demo config');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('resizes the columns from the keyboard', () => {
    setup();
    const splitter = screen.getByRole('separator', { name: 'Resize inputs and results' });
    const before = Number(splitter.getAttribute('aria-valuenow'));
    fireEvent.keyDown(splitter, { key: 'ArrowRight' });
    expect(Number(splitter.getAttribute('aria-valuenow'))).toBe(before + 2);
    fireEvent.keyDown(splitter, { key: 'End' });
    expect(splitter).toHaveAttribute('aria-valuenow', '80');
  });

  it('shows unexpected failures in a polite live region', () => {
    setup();
    act(() => {
      notify('The worker stopped unexpectedly');
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('The worker stopped unexpectedly');
    fireEvent.click(within(region).getByRole('button', { name: 'Dismiss' }));
    expect(region).not.toHaveTextContent('The worker stopped unexpectedly');
  });
});
