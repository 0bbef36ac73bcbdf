/**
 * The service worker (built by vite-plugin-pwa, see vite.config.ts) keeps the
 * page working offline. A new build deployed meanwhile is installed in the
 * background and waits: this notice says so, and the new version takes over
 * only when the person chooses to reload, never under an open session.
 * Only in the production build: the dev server has no service worker.
 */
import { useEffect, useState } from 'react';
import { Workbox } from 'workbox-window';
import { reloadKeepingWork } from '../../state/share.ts';
import { useAppStore } from '../../state/store.ts';
import { OUTDATED_BUILD_MESSAGE } from '../../worker/shared/errors.ts';
import './update-notice.css';

let workbox: Workbox | undefined;

/** Registers the service worker once per page, however often the notice mounts. */
function getWorkbox(): Workbox | undefined {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return undefined;
  if (!workbox) {
    workbox = new Workbox(`${import.meta.env.BASE_URL}sw.js`, {
      scope: import.meta.env.BASE_URL,
    });
    workbox.register().catch((error: unknown) => {
      // The page works without it (only not offline), so a warning, not an error.
      console.warn('The service worker could not be registered:', error);
    });
  }
  return workbox;
}

/**
 * A polite notice with a Reload button when a new version is waiting, or
 * when this tab is on an older version whose lazy parts the server no longer
 * has (a reload keeps the work: the autosave is written when the page hides).
 */
export function UpdateNotice() {
  const outdated = useAppStore((s) => s.outdatedBuild);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    const wb = getWorkbox();
    if (!wb) return;
    const onWaiting = () => setWaiting(true);
    wb.addEventListener('waiting', onWaiting);
    return () => wb.removeEventListener('waiting', onWaiting);
  }, []);

  if (outdated) {
    return (
      <div className="update-notice" role="alert" data-testid="outdated-notice">
        <span>{OUTDATED_BUILD_MESSAGE}. Reload to use the new version; your work is kept.</span>
        <button type="button" onClick={reloadKeepingWork}>
          Reload
        </button>
      </div>
    );
  }
  if (!waiting) return null;
  const reload = () => {
    const wb = getWorkbox();
    if (!wb) return;
    wb.addEventListener('controlling', reloadKeepingWork);
    wb.messageSkipWaiting();
  };
  return (
    <div className="update-notice" role="status" data-testid="update-notice">
      <span>A new version of the playground is available.</span>
      <button type="button" onClick={reload}>
        Reload
      </button>
      <button type="button" onClick={() => setWaiting(false)}>
        Later
      </button>
    </div>
  );
}
