/**
 * The only module that wires core, worker, state and UI together: it makes
 * the worker client, hands it to the actions, loads Monaco after the first
 * figures, follows the system colour scheme and renders the app.
 */

import firstFigures from 'virtual:first-figures';
import { createStore, del, get, set, update } from 'idb-keyval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DEFAULT_EXAMPLE_ID, EXAMPLES, getExample, OWN_FILE_CONFIG } from './examples/index.ts';
import { initActions, notify, setEditorsReady } from './state/actions.ts';
import type { KeyValueStore } from './state/autosave.ts';
import { initExports } from './state/exports.ts';
import { initExtras } from './state/extras.ts';
import { logFailure, reportOutdatedBuild } from './state/failures.ts';
import { initPeerExports } from './state/peer-exports.ts';
import { initShare, startPlayground } from './state/share.ts';
import { isFirstVisit } from './state/share-start.ts';
import { store } from './state/store.ts';
import { initWorkspace } from './state/workspace.ts';
import { App } from './ui/App.tsx';
import { startThemeFollowing } from './ui/theme-choice.ts';
import { createWorkerClient } from './worker/main-thread/playground-client.ts';
import { createWorkspacePool, getPoolSize } from './worker/main-thread/workspace-pool.ts';
import { isAbortError, isOutdatedBuildError } from './worker/shared/errors.ts';
import PlaygroundWorker from './worker/worker-thread/playground-worker.ts?worker';
import WorkspaceWorker from './worker/worker-thread/workspace-worker.ts?worker';

const client = createWorkerClient({
  // The name is the worker's lifeline (see worker/main-thread/channel.ts).
  createWorker: (lifeline) => new PlaygroundWorker({ name: lifeline }),
});
const shareEnv = {
  location: window.location,
  history: window.history,
  autosave: getAutosaveStore(),
  storage: getStorage('localStorage'),
  session: getStorage('sessionStorage'),
  locks: typeof navigator.locks === 'undefined' ? null : navigator.locks,
  reloaded: isReload(),
};
// A first visit's figures were computed when the page was built: the
// worker's script and the tokenizer's tables (about 400 ms of CPU) wait
// until they are painted, since on two cores they delayed that paint by as
// much (docs/speed.md). Any other start needs the worker for its figures:
// it loads while React renders and the autosave is read.
const firstVisit = isFirstVisit(shareEnv);
if (!firstVisit) client.start();

initActions({
  engine: client,
  // A first visit's figures, computed when the page was built: no wait for the worker.
  firstFigures,
  examples: EXAMPLES.map((example) => ({ ...example, load: () => example })),
  ownFileConfig: {
    replaces: getExample(DEFAULT_EXAMPLE_ID)?.configText ?? '',
    configText: OWN_FILE_CONFIG,
  },
});
initExports({ engine: client });
initExtras({ engine: client });
initPeerExports({ engine: client });
initShare({
  examples: EXAMPLES,
  defaultExampleId: DEFAULT_EXAMPLE_ID,
  env: shareEnv,
});

// Workspaces count over a pool sized to the machine; `?workers=N` sets it (the browser test compares 1 with the pool).
initWorkspace({
  pool: createWorkspacePool({
    createWorker: (lifeline) => new WorkspaceWorker({ name: lifeline }),
    size: getPoolSize(
      navigator.hardwareConcurrency,
      new URLSearchParams(location.search).get('workers'),
    ),
  }),
});

startThemeFollowing({
  storage: getStorage('localStorage'),
  systemDark: window.matchMedia('(prefers-color-scheme: dark)'),
});

// Monaco is several MB whose parse holds the main thread for about a second:
// it loads once the first figures are on screen (or the first run failed),
// so the worker's answer is never queued behind it. The bound keeps the
// editors coming on a machine where the first run takes very long.
const EDITORS_AT_LATEST_MS = 10_000;
let editorsRequested = false;
function loadEditors(): void {
  if (editorsRequested) return;
  editorsRequested = true;
  stopWaitingForFigures();
  clearTimeout(editorsBound);
  client.start();
  import('./ui/editor/monaco-setup.ts')
    .then(({ setupMonaco }) => {
      setupMonaco();
      setEditorsReady();
    })
    .catch((error: unknown) => {
      if (isOutdatedBuildError(error)) {
        logFailure(error);
        return;
      }
      console.error(error);
      notify('The editors could not be loaded. Reload the page to try again.', 'error');
    });
}
const editorsBound = setTimeout(loadEditors, EDITORS_AT_LATEST_MS);
let editorsScheduled = false;
const stopWaitingForFigures = store.subscribe((state) => {
  if (editorsScheduled || (state.status !== 'done' && state.status !== 'error')) return;
  editorsScheduled = true;
  // After the frame that paints the figures (the frame after it begins once it is shown),
  // and never before the page's first paint: Chromium holds that paint for a
  // stylesheet added before it, and Monaco's is (250 ms on a first visit).
  whenFirstPainted(() =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(loadEditors, 0))),
  );
});

// Vite's preload helper reports a lazy chunk's CSS or imports that failed to
// load (the import then fails too, and its caller says what could not load).
window.addEventListener('vite:preloadError', () => reportOutdatedBuild());

window.addEventListener('unhandledrejection', (event) => {
  // Cancellation is silent, ours (AbortError) and Monaco's (Canceled).
  const name = (event.reason as { name?: unknown } | null)?.name;
  if (isAbortError(event.reason) || name === 'Canceled') return;
  console.error(event.reason);
  notify('Something unexpected went wrong; details are in the browser console.', 'error');
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The link in the address, else the autosave, else the default example.
void startPlayground();

/** Calls `then` once the page has painted content (at once where the browser does not say). */
function whenFirstPainted(then: () => void): void {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  // A browser without paint timing ignores the observer silently: it would wait for the bound.
  const known =
    typeof PerformanceObserver === 'undefined'
      ? []
      : (PerformanceObserver.supportedEntryTypes ?? []);
  if (!known.includes('paint') || painted()) {
    then();
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (!painted()) return;
    observer.disconnect();
    then();
  });
  try {
    observer.observe({ type: 'paint' });
  } catch {
    then();
  }
}

/** The autosave's IndexedDB store; null where the browser has none (some privacy modes). */
function getAutosaveStore(): KeyValueStore | null {
  if (typeof indexedDB === 'undefined') return null;
  const db = createStore('compaction-playground', 'autosave');
  return {
    get: (key) => get(key, db),
    set: (key, value) => set(key, value, db),
    del: (key) => del(key, db),
    update: (key, updater) => update(key, updater, db),
  };
}

/** A storage the page may use; null where the browser refuses it (privacy settings, some frames). */
function getStorage(name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[name];
  } catch {
    return null;
  }
}

/** Whether this document reloads the tab (the Navigation Timing entry says so). */
function isReload(): boolean {
  const [entry] = performance.getEntriesByType('navigation');
  return entry instanceof PerformanceNavigationTiming && entry.type === 'reload';
}
