import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXAMPLES } from '../../examples/index.ts';
import { disposeShare, initShare } from '../../state/share.ts';
import { store } from '../../state/store.ts';
import { act, fireEvent, render, screen } from '../../test/render.tsx';
import { PlaygroundFilePanel } from './PlaygroundFileButtons.tsx';
import { CopyLinkButton } from './ShareDialog.tsx';

const example = EXAMPLES[0];
if (!example) throw new Error('no examples');

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

beforeEach(() => {
  initShare({
    examples: EXAMPLES,
    defaultExampleId: example.id,
    env: {
      location: { hash: '', href: 'https://playground.test/' },
      history: null,
      autosave: null,
      storage: null,
      session: null,
    },
  });
  store.setState({
    configText: example.configText,
    streamText: example.streamText,
    encoding: example.encoding ?? 'auto',
    exampleId: example.id,
  });
});

afterEach(() => {
  disposeShare();
  Reflect.deleteProperty(navigator, 'clipboard');
});

async function press(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
}

describe('CopyLinkButton', () => {
  it('copies the link and says how long it is', async () => {
    const writeText = vi.fn(async () => {});
    stubClipboard(writeText);
    render(<CopyLinkButton />);
    await press('Copy link');
    const url = 'https://playground.test/#v2/N4Ig1iBcIHYGYAYBOA3ADiAvkA';
    expect(writeText).toHaveBeenCalledWith(url);
    const panel = screen.getByRole('dialog', { name: 'Link to this state' });
    expect(panel).toHaveTextContent('Copied to the clipboard.');
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue(url);
    expect(panel).toHaveTextContent(`${url.length} characters: short enough to paste in a chat.`);
    expect(screen.queryByRole('button', { name: 'Download playground file' })).toBeNull();

    fireEvent.keyDown(panel, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers the link to copy by hand when the browser refuses', async () => {
    stubClipboard(async () => {
      throw new Error('NotAllowedError');
    });
    render(<CopyLinkButton />);
    await press('Copy link');
    expect(screen.getByRole('dialog')).toHaveTextContent(/did not let the page copy it/);
    const field = screen.getByRole('textbox', { name: 'Link' });
    expect(field).toHaveFocus();
  });

  it('offers a playground file instead of a link past what browsers accept', async () => {
    const writeText = vi.fn(async () => {});
    stubClipboard(writeText);
    let seed = 7;
    const noise = Array.from({ length: 9000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed >>> 8).toString(36);
    }).join('');
    store.setState({ streamText: JSON.stringify([noise]) });
    render(<CopyLinkButton />);
    await press('Copy link');
    expect(writeText).not.toHaveBeenCalled();
    const panel = screen.getByRole('dialog');
    expect(panel).toHaveTextContent(/Not copied/);
    expect(panel).toHaveTextContent(/longer than browsers reliably accept/);
    expect(screen.getByRole('button', { name: 'Download playground file' })).toHaveFocus();
  });
});

describe('PlaygroundFilePanel', () => {
  it('says whether autosave is on', () => {
    render(<PlaygroundFilePanel onDone={() => {}} />);
    expect(screen.getByText(/Autosave is on/)).toBeVisible();
    act(() => store.setState({ autosave: { kind: 'too-large', chars: 2_300_000 } }));
    expect(screen.getByText(/Autosave could not keep this state: at 2.3 MB/)).toBeVisible();
  });

  it('asks before starting fresh', () => {
    render(<PlaygroundFilePanel onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Start fresh…' }));
    expect(screen.getByRole('group', { name: 'Start fresh?' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Start fresh' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Start fresh?' })).toBeNull();
  });
});
