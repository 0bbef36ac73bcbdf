/**
 * The header: product name, examples, and every control of the run
 * (tokenizer, encoding, "now", view) plus Compact and Reset.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ViewMode } from '../core/playground.ts';
import { isTokenizerId, TOKENIZER_IDS, type TokenizerId } from '../core/tokens.ts';
import type { EncodingSetting } from '../core/types.ts';
import {
  compact,
  loadExample,
  reset,
  setEncoding,
  setNow,
  setTokenizer,
  setView,
} from '../state/actions.ts';
import { selectEncodingInUse } from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';

/** Short names for the select; the long labels go in its description. */
const TOKENIZER_OPTIONS: Record<TokenizerId, string> = {
  o200k: 'o200k_base',
  cl100k: 'cl100k_base',
  chars: 'chars/4 (estimate)',
};

const ENCODINGS: readonly EncodingSetting[] = ['auto', 'storage', 'plain'];

const VIEWS: readonly { value: ViewMode; label: string; title: string }[] = [
  {
    value: 'sanitized',
    label: 'Sanitized',
    title: 'What the provider receives: the stream repaired by sanitize, then projected',
  },
  { value: 'bare', label: 'Bare projection', title: 'The projection without sanitize' },
];

function TokenizerSelect() {
  const tokenizer = useAppStore((s) => s.tokenizer);
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Tokenizer</label>
      <select
        id={id}
        value={tokenizer}
        onChange={(event) => {
          if (isTokenizerId(event.target.value)) setTokenizer(event.target.value);
        }}
      >
        {TOKENIZER_IDS.map((tokenizerId) => (
          <option key={tokenizerId} value={tokenizerId}>
            {TOKENIZER_OPTIONS[tokenizerId]}
          </option>
        ))}
      </select>
    </div>
  );
}

function EncodingSelect() {
  const encoding = useAppStore((s) => s.encoding);
  const inUse = useAppStore(selectEncodingInUse);
  const id = useId();
  // The encoding in use shows in the "auto" option itself: "auto (storage)".
  return (
    <div className="field">
      <label htmlFor={id}>Encoding</label>
      <select
        id={id}
        value={encoding}
        title="How the stream's text is decoded: storage is JP's on-disk base64 form"
        onChange={(event) => {
          const value = event.target.value;
          if ((ENCODINGS as readonly string[]).includes(value)) {
            setEncoding(value as EncodingSetting);
          }
        }}
      >
        {ENCODINGS.map((value) => (
          <option key={value} value={value}>
            {value === 'auto' && encoding === 'auto' && inUse ? `auto (${inUse})` : value}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The id of the "Now" input, so the problems list can focus it. */
export const NOW_INPUT_ID = 'now-input';

function NowInput() {
  const now = useAppStore((s) => s.now);
  const defaultNow = useAppStore((s) => s.result?.now ?? null);
  const nowIsDefault = useAppStore((s) => s.result?.nowIsDefault ?? true);
  const nowError = useAppStore((s) => (s.now === null ? null : (s.result?.nowError ?? null)));
  return (
    <div className="field">
      <label htmlFor={NOW_INPUT_ID}>Now</label>
      <input
        id={NOW_INPUT_ID}
        type="text"
        className="now-input"
        spellCheck={false}
        aria-invalid={nowError ? 'true' : undefined}
        aria-describedby={nowError ? 'now-problem' : undefined}
        value={now ?? ''}
        placeholder={nowIsDefault && defaultNow ? defaultNow : 'YYYY-MM-DD HH:MM:SS.f'}
        title="The time new compactions are created at, and keep_last durations count back from. Empty: one second after the stream's latest event."
        onChange={(event) => setNow(event.target.value)}
      />
      <button
        type="button"
        className="small"
        disabled={now === null}
        onClick={() => setNow(null)}
        aria-label="Use the default now"
        title="One second after the stream's latest event"
      >
        Default
      </button>
    </div>
  );
}

function ViewToggle() {
  const view = useAppStore((s) => s.view);
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">View</legend>
      {VIEWS.map((option) => (
        <label key={option.value} title={option.title}>
          <input
            type="radio"
            name="view"
            value={option.value}
            checked={view === option.value}
            onChange={() => setView(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

function StreamActions() {
  const timeline = useAppStore((s) => s.result?.timeline);
  const canCompact = timeline?.some((entry) => entry.isNew) ?? false;
  const canReset = timeline?.some((entry) => !entry.isNew) ?? false;
  return (
    <div className="actions">
      <button
        type="button"
        className="primary"
        onClick={() => void compact()}
        disabled={!canCompact}
        title={
          canCompact
            ? 'Append the previewed compactions to the stream (their hints are then frozen)'
            : 'Nothing to compact: no rule covers any turn'
        }
      >
        Compact
      </button>
      <button
        type="button"
        onClick={() => void reset()}
        disabled={!canReset}
        title={
          canReset
            ? 'Remove every compaction from the stream'
            : 'The stream holds no compaction to remove'
        }
      >
        Reset
      </button>
    </div>
  );
}

/** A menu of examples. Renders nothing when none are provided. */
export function ExamplesMenu() {
  const examples = useAppStore((s) => s.examples);
  const current = useAppStore((s) => s.exampleId);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    // Put focus on the first item so arrow keys and Enter work at once.
    rootRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  if (examples.length === 0) return null;

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(
      event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="menuitem"]'),
    );
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    }
  };

  return (
    <div className="examples" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        Examples
      </button>
      {open ? (
        <div id={menuId} role="menu" aria-label="Examples" onKeyDown={onMenuKeyDown}>
          {examples.map((example) => (
            <button
              key={example.id}
              type="button"
              role="menuitem"
              aria-current={example.id === current ? 'true' : undefined}
              onClick={() => {
                setOpen(false);
                buttonRef.current?.focus();
                void loadExample(example.id);
              }}
            >
              <span className="example-title">{example.title}</span>
              {example.description ? (
                <span className="example-description">{example.description}</span>
              ) : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The app header. */
export function Header() {
  return (
    <header className="app-header">
      <h1>Compaction Playground</h1>
      <ExamplesMenu />
      <div className="controls">
        <TokenizerSelect />
        <EncodingSelect />
        <NowInput />
        <ViewToggle />
        <StreamActions />
      </div>
    </header>
  );
}
