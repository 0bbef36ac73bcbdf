/**
 * Unexpected failures (a worker crash or timeout, a file that cannot be read)
 * as a queue of toasts in a polite live region. Each one stays until closed
 * or for a while, long enough to be read.
 */
import { useEffect } from 'react';
import { dismissToast } from '../../state/actions.ts';
import type { Toast } from '../../state/app-state.ts';
import { useAppStore } from '../../state/store.ts';

const TOAST_MS = 10_000;

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast.id]);
  return (
    <li className="toast" data-tone={toast.tone}>
      <span>{toast.message}</span>
      <button type="button" className="toast-close" onClick={() => dismissToast(toast.id)}>
        <span aria-hidden="true">×</span>
        <span className="visually-hidden">Dismiss</span>
      </button>
    </li>
  );
}

/** The toast region; always in the DOM so screen readers pick up what is added. */
export function Toaster() {
  const toasts = useAppStore((s) => s.toasts);
  return (
    <section className="toasts" aria-live="polite" aria-label="Notifications">
      <ul>
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </ul>
    </section>
  );
}
