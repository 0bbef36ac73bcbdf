import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../examples/index.ts';
import { disposePeerExports, initPeerExports } from '../../state/peer-exports.ts';
import { store } from '../../state/store.ts';
import { makeResult } from '../../test/fake-engine.ts';
import { createInThreadClient } from '../../test/in-thread-client.ts';
import { act, fireEvent, render, screen, waitFor, within } from '../../test/render.tsx';
import { ExportMenu } from './ExportMenu.tsx';

const example = EXAMPLES.find((candidate) => candidate.id === 'coding-session');
if (!example) throw new Error('no coding-session example');

/** The worker's method, through the real client and handlers in-thread (cloned as postMessage would). */
const engine = createInThreadClient().client;

beforeEach(() => {
  initPeerExports({ engine });
  store.setState({
    configText: example.configText,
    streamText: example.streamText,
    encoding: 'auto',
    tokenizer: 'chars',
  });
});

afterEach(() => {
  disposePeerExports();
});

async function openExport(title: string) {
  render(<ExportMenu />);
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  fireEvent.click(screen.getByRole('button', { name: title }));
  const dialog = screen.getByRole('dialog', { name: `Hints for ${title}` });
  await waitFor(() =>
    expect(dialog.querySelector('[data-status]')).toHaveAttribute('data-status', 'done'),
  );
  return dialog;
}

describe('PeerExportDialog', () => {
  it('shows the snippet, the per-tool flags, what it cannot express, and no figure without a replayed runtime', async () => {
    const dialog = await openExport('Vercel AI SDK pruneMessages');
    const snippet = within(dialog).getByLabelText('Config (TypeScript)');
    expect((snippet as HTMLTextAreaElement).value).toContain('tools: ["build_watch"]');

    const tools = within(dialog).getByTestId('peer-tools');
    const row = (name: string) => within(tools).getByText(name).closest('tr') as HTMLElement;
    expect(row('build_watch')).toHaveAttribute('data-expressible', 'true');
    expect(within(row('build_watch')).getByText(/^exported as /)).toBeVisible();
    expect(row('fs_read_file')).toHaveAttribute('data-expressible', 'false');
    expect(
      within(row('fs_read_file')).getByText(
        /^not expressible in Vercel AI SDK pruneMessages: nearest is keep/,
      ),
    ).toBeVisible();
    // run_tests has no hint of its own: the rule's strip is its hint in force.
    expect(within(row('run_tests')).getByText("(the rules' tool_calls)")).toBeVisible();

    // Vercel's pruneMessages has no replayed runtime: no figure, and no JP-rule figure in its place.
    expect(within(dialog).getByTestId('peer-replay-none')).toBeVisible();
    expect(within(dialog).queryByTestId('peer-replay')).toBeNull();
    expect(within(dialog).queryByTestId('peer-saving')).toBeNull();
    expect(within(dialog).getByTestId('peer-cannot')).toHaveTextContent(
      /cannot express: strips of any kind.*fs_read_file \(strip-responses → keep\)/,
    );
  });

  it('heads the Anthropic export with context editing replayed, with the config and at its defaults', async () => {
    const dialog = await openExport('Anthropic context editing');
    const replay = within(dialog).getByTestId('peer-replay');
    expect(within(replay).getByRole('rowheader', { name: 'With this config' })).toBeVisible();
    expect(within(replay).getByRole('rowheader', { name: /defaults$/ })).toBeVisible();
    expect(within(dialog).getByTestId('peer-replay-how')).toHaveTextContent(
      /replay --policy anthropic-context-editing .*exclude_tools=fs_modify_file/,
    );
  });

  it('keeps the last good export and says why when the inputs break', async () => {
    const dialog = await openExport('Anthropic context editing');
    act(() => {
      store.setState({
        configText: '[conversation.tools.x]\ncompaction = "stirp"\n',
        result: makeResult({ before: 1, after: 1 }),
      });
    });
    await waitFor(() => expect(within(dialog).getByRole('alert')).toBeVisible());
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      /Config line 2, column \d+: invalid tool compaction hint .*from the last inputs that worked/,
    );
    expect((within(dialog).getByTestId('peer-snippet') as HTMLTextAreaElement).value).toContain(
      'clear_tool_uses_20250919',
    );
  });

  it('shows a tool name as text, never as markup', async () => {
    const name = '<img src=x onerror=alert(1)>';
    store.setState({ configText: `[conversation.tools."${name}"]\ncompaction = "keep"\n` });
    const dialog = await openExport('LangChain ClearToolUsesEdit (JS)');
    expect(within(dialog).getByText(name)).toBeVisible();
    expect(dialog.querySelector('img')).toBeNull();
  });

  it('closes on Escape', async () => {
    const dialog = await openExport('OpenAI Agents SDK ToolOutputTrimmer');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: /^Hints for/ })).toBeNull();
  });
});
