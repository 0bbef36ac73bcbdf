/**
 * A modal dialog: `role="dialog"` with `aria-modal`, labelled by its title,
 * over a backdrop. Focus moves into it when it opens, stays inside while it
 * is open (Tab and Shift+Tab cycle, focus that strays is brought back),
 * Escape or the Close button closes it, and focus returns to where it was.
 * Rendered into `document.body`, above everything.
 */
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
} from 'react';
import { createPortal } from 'react-dom';
import './modal.css';

/** Props of {@link ModalDialog}. */
export interface ModalDialogProps {
  title: string;
  /** Called on Escape, on the Close button and on a click on the backdrop. */
  onClose: () => void;
  children: ReactNode;
  /** The element focused when the dialog opens; the first focusable element when absent. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** `wide` for reading (the About panel), `narrow` for a message. */
  size?: 'narrow' | 'wide';
  /** The id of the element that describes the dialog (its main sentence). */
  describedBy?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement | null): HTMLElement[] {
  return root ? [...root.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
}

/** The dialog. Mount it to open it; unmount it to close it. */
export function ModalDialog({
  title,
  onClose,
  children,
  initialFocus,
  size = 'narrow',
  describedBy,
}: ModalDialogProps) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const latestClose = useRef(onClose);
  latestClose.current = onClose;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? focusables(dialog.current)[0] ?? dialog.current)?.focus();
    // Focus that leaves the dialog (a click elsewhere, a script) comes back.
    const keepFocus = (event: FocusEvent) => {
      const root = dialog.current;
      if (root && event.target instanceof Node && !root.contains(event.target)) {
        (focusables(root)[0] ?? root).focus();
      }
    };
    document.addEventListener('focusin', keepFocus);
    return () => {
      document.removeEventListener('focusin', keepFocus);
      if (previous?.isConnected) previous.focus();
    };
  }, [initialFocus]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      latestClose.current();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = focusables(dialog.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog closes it; the keyboard has Escape and the Close button.
    <div
      className="cp-modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) latestClose.current();
      }}
    >
      <div
        ref={dialog}
        className={`cp-modal cp-modal-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="cp-modal-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="cp-modal-close" onClick={() => latestClose.current()}>
            Close
          </button>
        </div>
        <div className="cp-modal-body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
