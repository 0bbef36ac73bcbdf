/**
 * A button with a small non-modal panel under it (`role="dialog"`, labelled
 * by its title): the header's Copy link, File and Export menus. The panel
 * takes focus when it opens; Escape, the Close button or a click outside
 * closes it, and focus goes back to the button when it was inside.
 */
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import './share.css';

/** The least room between a panel and the viewport's edge, in px. */
const VIEWPORT_MARGIN = 8;

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

/** A panel's open state as {@link Popover} takes it, for a menu with nothing to prepare on opening. */
export function usePopoverState(): Pick<PopoverProps, 'open' | 'onToggle' | 'onClose'> {
  const [open, setOpen] = useState(false);
  return { open, onToggle: () => setOpen((was) => !was), onClose: () => setOpen(false) };
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

  // A panel lined up with its button can run past the viewport's edge (the
  // header wraps differently at each width): shift it back inside.
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const element = panel.current;
      if (!element) return;
      element.style.translate = '';
      const rect = element.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      let shift = 0;
      if (rect.right > width - VIEWPORT_MARGIN) shift = width - VIEWPORT_MARGIN - rect.right;
      if (rect.left + shift < VIEWPORT_MARGIN) shift = VIEWPORT_MARGIN - rect.left;
      element.style.translate = shift === 0 ? '' : `${Math.round(shift)}px 0`;
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
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
