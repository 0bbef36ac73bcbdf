/**
 * The examples gallery: a button that opens a dialog listing every example
 * with its one-sentence story. Keyboard: the dialog opens with focus on the
 * current (or first) example, arrow keys move, Enter or a click loads,
 * Escape closes and returns focus to the button.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ExampleSummary } from '../../state/app-state.ts';
import './panes.css';

/** Props of {@link ExamplesGallery}. */
export interface ExamplesGalleryProps {
  /** The examples to list, in order. */
  examples: readonly ExampleSummary[];
  /** The example currently loaded, marked in the list, or null. */
  currentId?: string | null;
  /** Called with an example's id when the user picks it; the dialog then closes. */
  onLoad: (id: string) => void;
}

/** The examples button and its dialog. */
export function ExamplesGallery({ examples, currentId = null, onLoad }: ExamplesGalleryProps) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const dialogId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const buttons = () => [...(list.current?.querySelectorAll('button') ?? [])];

  useEffect(() => {
    if (!open) return;
    const all = [...(list.current?.querySelectorAll('button') ?? [])];
    const current = all.find((button) => button.dataset.exampleId === currentId);
    (current ?? all[0])?.focus();
  }, [open, currentId]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    const all = buttons();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    const target =
      event.key === 'ArrowDown'
        ? all[Math.min(index + 1, all.length - 1)]
        : event.key === 'ArrowUp'
          ? all[Math.max(index - 1, 0)]
          : event.key === 'Home'
            ? all[0]
            : event.key === 'End'
              ? all[all.length - 1]
              : undefined;
    if (target) {
      event.preventDefault();
      target.focus();
    }
  };

  return (
    <div className="cp-gallery">
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? dialogId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Examples
      </button>
      {open ? (
        <div
          id={dialogId}
          className="cp-gallery-dialog"
          role="dialog"
          aria-labelledby={titleId}
          onKeyDown={onKeyDown}
          onBlur={(event) => {
            // Close when focus leaves both the dialog and its button.
            const next = event.relatedTarget;
            if (
              next instanceof Node &&
              !event.currentTarget.contains(next) &&
              next !== trigger.current
            ) {
              setOpen(false);
            }
          }}
        >
          <div className="cp-gallery-head">
            <h2 id={titleId} className="cp-section-title">
              Examples
            </h2>
            <button type="button" onClick={close}>
              Close
            </button>
          </div>
          <p className="cp-note">
            Loading an example replaces the config and the conversation in the editors.
          </p>
          <ul ref={list} className="cp-gallery-list">
            {examples.map((example) => {
              const current = example.id === currentId;
              return (
                <li key={example.id}>
                  <button
                    type="button"
                    className="cp-gallery-item"
                    data-example-id={example.id}
                    aria-current={current ? 'true' : undefined}
                    onClick={() => {
                      onLoad(example.id);
                      close();
                    }}
                  >
                    <span className="cp-gallery-title">
                      {example.title}
                      {current ? <span className="cp-badge">loaded</span> : null}
                    </span>
                    <span className="cp-secondary">{example.summary}</span>
                    {example.credit ? (
                      <span className="cp-secondary cp-credit">Credit: {example.credit}</span>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
