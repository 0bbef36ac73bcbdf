/**
 * The File menu: the whole state as a playground file (download, open), how
 * autosave stands, the recent work of other tabs, and Start fresh, which forgets the autosave and loads the
 * default example. Long states go here when a link would be too long.
 */
import { useEffect, useState } from 'react';
import { formatSize } from '../../core/counting/format.ts';
import type { AutosaveStatus } from '../../state/app-state.ts';
import { readUserFile } from '../../state/read-file.ts';
import {
  getRecentStates,
  openPlaygroundFile,
  openRecentState,
  type RecentState,
  startFresh,
} from '../../state/share.ts';
import { useAppStore } from '../../state/store.ts';
import { FilePickerButton } from '../FilePickerButton.tsx';
import { Popover, usePopoverState } from './Popover.tsx';
import { downloadPlaygroundFile } from './ShareDialog.tsx';

function describeAutosave(status: AutosaveStatus): string {
  switch (status.kind) {
    case 'on':
      return 'Autosave is on: this browser keeps the last states of this tab, and they come back after a reload.';
    case 'too-large':
      return `Autosave could not keep this state: at ${formatSize(status.chars, 'MB', 'characters')} it is more than this browser lets the page store. The previous save is kept; download a playground file to keep this one.`;
    case 'unavailable':
      return 'Autosave is off: this browser does not let the page store anything. Download a playground file to keep your work.';
  }
}

async function openFile(file: File): Promise<void> {
  const text = await readUserFile(file, file.name);
  if (text !== undefined) openPlaygroundFile(text, file.name);
}

/**
 * The states this browser keeps besides this tab's: other tabs' and those
 * whose slots made room for newer ones. Opening one offers this tab's work
 * back, like a link does.
 */
function RecentWork({ onDone }: { onDone: () => void }) {
  const [recent, setRecent] = useState<RecentState[] | null>(null);
  useEffect(() => {
    let live = true;
    void getRecentStates().then((states) => {
      if (live) setRecent(states);
    });
    return () => {
      live = false;
    };
  }, []);
  if (recent === null || recent.length === 0) return null;
  return (
    <section className="cp-recent" aria-labelledby="cp-recent-title">
      <h3 id="cp-recent-title">Recent work in this browser</h3>
      <ul>
        {recent.map((item) => (
          <li key={`${item.savedAt}`}>
            <button
              type="button"
              onClick={() => {
                openRecentState(item);
                onDone();
              }}
            >
              <span className="cp-recent-what">{item.summary}</span>
              <time dateTime={new Date(item.savedAt).toISOString()}>
                {new Date(item.savedAt).toLocaleString()}
              </time>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The File menu's content (exported for tests). */
export function PlaygroundFilePanel({ onDone }: { onDone: () => void }) {
  const autosave = useAppStore((s) => s.autosave);
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="cp-file-menu">
      <div className="cp-menu-actions">
        <button
          type="button"
          data-autofocus
          onClick={() => {
            downloadPlaygroundFile();
            onDone();
          }}
        >
          Download playground file
        </button>
        <FilePickerButton
          onPick={([file]) => {
            if (!file) return;
            onDone();
            void openFile(file);
          }}
        >
          Open playground file
        </FilePickerButton>
      </div>
      <p className="cp-note">
        A playground file (.json) holds the same state as a link: the config, the stream, the
        settings. Use it for states too large for a link.
      </p>
      <p className="cp-note" data-autosave={autosave.kind}>
        {describeAutosave(autosave)}
      </p>
      <RecentWork onDone={onDone} />
      {confirming ? (
        <fieldset className="cp-confirm">
          <legend className="visually-hidden">Start fresh?</legend>
          <p>
            Start fresh replaces the config and the stream with the default example and forgets the
            autosaved state. Download a playground file first to keep this one.
          </p>
          <div className="cp-menu-actions">
            <button
              type="button"
              className="primary"
              // biome-ignore lint/a11y/noAutofocus: the confirmation replaces the button that had focus
              autoFocus
              onClick={() => {
                void startFresh();
                onDone();
              }}
            >
              Start fresh
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Start fresh…
        </button>
      )}
    </div>
  );
}

/** The header's File menu. */
export function PlaygroundFileButtons() {
  const menu = usePopoverState();
  return (
    <Popover
      label="File"
      align="end"
      title="Playground file"
      {...menu}
      buttonTitle="Download or open the whole state as a file; start fresh"
    >
      <PlaygroundFilePanel onDone={menu.onClose} />
    </Popover>
  );
}
