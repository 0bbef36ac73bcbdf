/**
 * A button with a small non-modal panel under it (`role="dialog"`, labelled
 * by its title): the header's Copy link, File and Export menus. The panel
 * takes focus when it opens; Escape, the Close button or a click outside
 * closes it, and focus goes back to the button when it was inside.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import './share.css';

/** Props of {@link Popover}. */
export interface PopoverProps {
  /** The button's text. */
  label: string;
  /** The panel's heading (also its accessible name). */
  title: string;
  open: boolean;
  /** Called when the button is pressed; the caller opens (and may prepare) the panel. */
  onToggle: () => void;
  onClose: () => void;
  children: ReactNode;
  /** Which edge of the button the panel lines up with. */
  align?: 'start' | 'end';
  /** A longer description of the button, shown on hover. */
  buttonTitle?: string;
  /** The button's class (e.g. `primary`). */
  buttonClassName?: string;
}

/** The button and its panel. */
export function Popover({
  label,
  title,
  open,
  onToggle,
  onClose,
  children,
  align = 'start',
  buttonTitle,
  buttonClassName,
}: PopoverProps) {
  const titleId = useId();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const latestClose = useRef(onClose);
  latestClose.current = onClose;

  useEffect(() => {
    if (!open) return;
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus]');
    (first ?? panel.current)?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) {
        latestClose.current();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    const hadFocus = root.current?.contains(document.activeElement) ?? false;
    latestClose.current();
    if (hadFocus) trigger.current?.focus();
  };

  return (
    <div className="cp-popover" ref={root}>
      <button
        ref={trigger}
        type="button"
        className={buttonClassName}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        title={buttonTitle}
        onClick={onToggle}
      >
        {label}
      </button>
      {open ? (
        <div
          ref={panel}
          id={panelId}
          className={`cp-popover-panel cp-popover-${align}`}
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              close();
            }
          }}
        >
          <div className="cp-popover-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="small" onClick={close}>
              Close
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </div>
  );
}
