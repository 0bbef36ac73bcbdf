import { afterEach, describe, expect, it } from 'vitest';
import codingSession from '../../examples/coding-session.json?raw';
import hintOmit from '../../examples/hint-omit.json?raw';
import hintStrip from '../../examples/hint-strip.json?raw';
import { initActions } from '../../state/actions.ts';
import { store } from '../../state/store.ts';
import { disposeWorkspace, initWorkspace } from '../../state/workspace.ts';
import type { PickedFile } from '../../state/workspace-files.ts';
import { disposeWorkspaceMoney } from '../../state/workspace-money.ts';
import { createFakeEngine } from '../../test/fake-engine.ts';
import { createInThreadPool } from '../../test/in-thread-pool.ts';
import { act, fireEvent, render, screen, waitFor, within } from '../../test/render.tsx';
import type { WorkspaceRequest } from '../../worker/main-thread/workspace-pool.ts';
import { App } from '../App.tsx';

const TEXTS: Record<string, string> = {
  'coding-session': codingSession,
  'hint-strip': hintStrip,
  'hint-omit': hintOmit,
};
const CONFIG = `[[conversation.compaction.rules]]
keep_last = 1
tool_calls = "strip"
`;

function folder(): PickedFile[] {
  return Object.entries(TEXTS).flatMap(([id, text], index) => {
    const dir = `conversations/${index + 1}-${id}`;
    const file = (content: string, name: string) =>
      Object.assign(new Blob([content]), { name, webkitRelativePath: `${dir}/${name}` });
    return [
      file(text, 'events.json'),
      file(JSON.stringify({ title: `About ${id}` }), 'metadata.json'),
    ];
  });
}

/** The app with the workspace on an in-thread pool; the conversation's engine never answers. */
function setup(gate?: (request: WorkspaceRequest) => Promise<void>) {
  initActions({ engine: createFakeEngine(), debounceMs: 0 });
  const pooled = createInThreadPool({ size: 2, ...(gate ? { gate } : {}) });
  initWorkspace({ pool: pooled.pool, debounceMs: 0, progressMs: 0 });
  store.setState({ configText: CONFIG, tokenizer: 'chars' });
  render(<App />);
  return pooled;
}

function pickFolder(): void {
  const input = screen.getByLabelText('Open folder') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: folder(), configurable: true });
  fireEvent.change(input);
}

function workspace(): HTMLElement {
  return screen.getByRole('region', { name: 'Workspace' });
}

async function waitUntilCounted(): Promise<void> {
  await waitFor(() => {
    expect(workspace()).toHaveAttribute('data-status', 'done');
    expect(workspace()).toHaveAttribute('aria-busy', 'false');
  });
}

afterEach(() => {
  disposeWorkspaceMoney();
  disposeWorkspace();
});

describe('the workspace panel', () => {
  it('offers a folder picker and a multi-file picker beside the stream editor', () => {
    setup();
    const folderInput = screen.getByLabelText('Open folder');
    expect(folderInput).toHaveAttribute('type', 'file');
    expect(folderInput).toHaveAttribute('webkitdirectory');
    expect(folderInput).toHaveAttribute('multiple');
    expect(screen.getByLabelText('Open files')).toHaveAttribute('multiple');
    // No workspace yet: no switch, the conversation's results as before.
    expect(screen.queryByRole('group', { name: 'Results to show' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Results' })).toBeVisible();
  });

  it('shows progress while counting, then the figures added up over the conversations', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    setup((request) =>
      request.method === 'analyze' && request.args[0].index > 0 ? held : Promise.resolve(),
    );
    pickFolder();

    const progress = await screen.findByRole('progressbar', { name: 'Counting conversations' });
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '1'));
    expect(progress).toHaveAttribute('aria-valuemax', '3');
    expect(progress).toHaveAttribute('aria-valuetext', '1 of 3 conversations');
    expect(within(workspace()).getByText('1 of 3 conversations')).toBeVisible();
    expect(workspace()).toHaveAttribute('aria-busy', 'true');
    expect(within(workspace()).getByText('Partial: still counting')).toBeVisible();
    // The conversation's own region is kept, hidden.
    expect(screen.queryByRole('region', { name: 'Results' })).toBeNull();

    await act(async () => release?.());
    await waitUntilCounted();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(within(workspace()).getByRole('status')).toHaveTextContent(
      /^Saved [\d,]+ tokens \(.+\) of the [\d,]+ tokens the conversations' next requests would carry, across 3 conversations\.$/,
    );
    const table = within(workspace()).getByRole('table', { name: 'Savings per tool' });
    expect(within(table).getAllByRole('row').length).toBeGreaterThan(2);
    const list = within(workspace()).getByRole('table', { name: 'Conversations by tokens saved' });
    expect(
      within(list)
        .getAllByRole('rowheader')
        .map((cell) => cell.querySelector('.ws-title')?.textContent)
        .sort(),
    ).toEqual(['About coding-session', 'About hint-omit', 'About hint-strip']);
  });

  it('lists, for the selected tool, the conversations its hint saves most in', async () => {
    setup();
    pickFolder();
    await waitUntilCounted();
    const table = within(workspace()).getByRole('table', { name: 'Savings per tool' });
    fireEvent.click(within(table).getByRole('rowheader', { name: 'fs_read_file' }));
    const list = within(workspace()).getByRole('table', {
      name: "Which conversations gain most from fs_read_file's hint",
    });
    const figures = store
      .getState()
      .workspaceConversations.filter(
        (c) => c.figures && Object.hasOwn(c.figures.tools, 'fs_read_file'),
      );
    const rows = within(list).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(figures.length);
    const saved = rows.map((row) =>
      Number(row.querySelector('td span')?.textContent?.replaceAll(',', '')),
    );
    expect(saved).toEqual([...saved].sort((a, b) => b - a));
  });

  it('cancels counting: no partial figures, and the count can start again', async () => {
    setup((request) =>
      request.method === 'analyze' && request.args[0].index > 0
        ? new Promise(() => {})
        : Promise.resolve(),
    );
    pickFolder();
    await screen.findByRole('progressbar', { name: 'Counting conversations' });
    fireEvent.click(within(workspace()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(workspace()).toHaveAttribute('data-status', 'cancelled'));
    expect(workspace()).toHaveAttribute('aria-busy', 'false');
    expect(within(workspace()).queryByRole('table', { name: 'Savings per tool' })).toBeNull();
    expect(within(workspace()).getByRole('status')).toHaveTextContent('Counting was cancelled.');
    expect(
      within(workspace()).getByText(/^Counting was cancelled after \d of 3 conversations/),
    ).toBeVisible();
    expect(within(workspace()).getByRole('button', { name: 'Count again' })).toBeEnabled();
  });

  it('opens a conversation in the editors and switches back to the workspace', async () => {
    setup();
    pickFolder();
    await waitUntilCounted();
    fireEvent.click(
      within(workspace()).getByRole('button', { name: 'Open “About hint-strip” in the editors' }),
    );
    await waitFor(() => expect(screen.getByRole('region', { name: 'Results' })).toBeVisible());
    expect(screen.getByLabelText('Event stream (JSON)')).toHaveValue(hintStrip);
    const conversation = screen.getByRole('button', { name: /^Conversation/ });
    expect(conversation).toHaveAttribute('aria-pressed', 'true');
    expect(conversation).toHaveTextContent('About hint-strip');
    fireEvent.click(screen.getByRole('button', { name: /^Workspace/ }));
    expect(workspace()).toBeVisible();
  });

  it('compares each conversation with the context window', async () => {
    setup();
    pickFolder();
    await waitUntilCounted();
    const field = within(workspace()).getByLabelText('Context window (tokens)');
    fireEvent.change(field, { target: { value: '200' } });
    expect(store.getState().contextBudget).toBe(200);
    const list = within(workspace()).getByRole('table', { name: 'Conversations by tokens saved' });
    // The examples are a few thousand tokens: every one is over a 200-token window.
    expect(within(list).getAllByText('over budget').length).toBe(3);
    fireEvent.change(field, { target: { value: 'a lot' } });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(store.getState().contextBudget).toBe(200);
    fireEvent.change(field, { target: { value: '' } });
    expect(store.getState().contextBudget).toBeNull();
    expect(within(list).queryAllByText('over budget')).toHaveLength(0);
  });
  it('prices each conversation once the figures are in, and says what the cost stands on', async () => {
    const pooled = setup();
    pickFolder();
    await waitUntilCounted();
    const cost = within(workspace()).getByTestId('workspace-cost');
    await waitFor(() => expect(cost).toHaveAttribute('data-status', 'done'));
    expect(cost).toHaveAttribute('aria-busy', 'false');
    // One replay per counted conversation, asked only once the count was done.
    const methods = pooled.workers.flatMap((w) => w.requests.map((r) => r.method));
    expect(methods.filter((m) => m === 'price')).toHaveLength(3);
    const table = within(cost).getByRole('table', { name: 'What each conversation cost' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'About coding-session',
      'About hint-strip',
      'About hint-omit',
    ]);
    // JP's examples record no usage: each cost is modelled, labelled so.
    for (const row of rows) expect(row).toHaveAttribute('data-basis', 'modelled');
    expect(within(cost).getByTestId('workspace-total-cost')).toHaveTextContent(
      /^These 3 conversations cost about \$[\d.]+ \(every one modelled\)\.$/,
    );
    expect(within(cost).getByTestId('workspace-cheapest')).toHaveTextContent(
      /against the session as it ran|No schedule is cheaper/,
    );
    expect(within(cost).getByRole('table', { name: /^Cost per day/ })).toBeVisible();
  });
});
