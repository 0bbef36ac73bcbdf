/**
 * "Copy link": copies a link to the whole state and opens a small panel that
 * says so, with the link in a field to copy by hand when the browser did not
 * allow it, its length against what chat apps and browsers accept, and a
 * playground file to download instead when it is too long.
 */
import { useEffect, useState } from 'react';
import { getPlaygroundFileText, getShareLink, type ShareLink } from '../../state/share.ts';
import { useAppStore } from '../../state/store.ts';
import { onCopyLinkRequest } from '../shortcuts.ts';
import { copyText, downloadText } from './browser-io.ts';
import { Popover } from './Popover.tsx';

/** The file name a downloaded playground file gets. */
export const PLAYGROUND_FILE_NAME = 'compaction-playground.json';

/** Downloads the current state as a playground file. */
export function downloadPlaygroundFile(): void {
  downloadText(PLAYGROUND_FILE_NAME, getPlaygroundFileText(), 'application/json');
}

/** What the panel shows: the link and whether it reached the clipboard. */
interface Shown {
  link: ShareLink;
  copied: boolean;
}

function copyStatus({ link, copied }: Shown): string {
  if (link.kind === 'too-large' || link.fit === 'too-long') {
    return 'Not copied: this link is too long to be useful.';
  }
  return copied
    ? 'Copied to the clipboard.'
    : 'The browser did not let the page copy it: select the link below and copy it (Ctrl+C).';
}

/** The panel's content (exported for tests). */
export function ShareLinkPanel({ shown }: { shown: Shown }) {
  const { link } = shown;
  const address = useAppStore((s) => s.address);
  const tooLong = link.kind === 'too-large' || link.fit === 'too-long';
  return (
    <div className="cp-link-panel">
      <p className="cp-link-status" role="status">
        {copyStatus(shown)}
      </p>
      {link.kind === 'link' ? (
        <label className="cp-link-field">
          <span>Link</span>
          <input
            type="text"
            readOnly
            value={link.url}
            spellCheck={false}
            data-autofocus={!shown.copied && !tooLong ? true : undefined}
            onFocus={(event) => event.currentTarget.select()}
          />
        </label>
      ) : null}
      <p className="cp-link-length" data-fit={link.kind === 'link' ? link.fit : 'too-long'}>
        {link.message}
      </p>
      {tooLong ? (
        <button type="button" className="primary" data-autofocus onClick={downloadPlaygroundFile}>
          Download playground file
        </button>
      ) : null}
      <p className="cp-note">
        The link holds the config, the stream (or the name of its example), the settings and the
        selected tool. Nothing is uploaded: whoever opens it sees what you see now.
      </p>
      {address.kind === 'too-large' ? (
        <p className="cp-note">
          {tooLong
            ? 'The address bar does not hold this state either. Autosave and playground files keep it.'
            : 'The address bar does not follow this state (it is too large to update as you type); this link does.'}
        </p>
      ) : null}
    </div>
  );
}

/** Copies the current link when it is usable, then shows the panel for it. */
async function copyAndShow(setShown: (shown: Shown) => void): Promise<void> {
  const link = getShareLink();
  if (!link) return;
  const usable = link.kind === 'link' && link.fit !== 'too-long';
  const copied = usable ? await copyText(link.url) : false;
  setShown({ link, copied });
}

/** The header's Copy link button and its panel. */
export function CopyLinkButton() {
  const [shown, setShown] = useState<Shown | null>(null);
  const copy = () => (shown ? setShown(null) : void copyAndShow(setShown));
  // Ctrl+S copies afresh, open or not: the state may have changed since.
  useEffect(() => onCopyLinkRequest(() => void copyAndShow(setShown)), []);

  return (
    <Popover
      label="Copy link"
      align="end"
      title="Link to this state"
      open={shown !== null}
      onToggle={copy}
      onClose={() => setShown(null)}
      buttonTitle="Copy a link that opens the playground exactly as it is now"
    >
      {shown ? <ShareLinkPanel shown={shown} /> : null}
    </Popover>
  );
}
