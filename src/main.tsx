/**
 * The only module that wires core, worker, state and UI together: it makes
 * the worker client, hands it to the actions, loads Monaco, follows the
 * system colour scheme and renders the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from './examples/index.ts';
import {
  initActions,
  loadExample,
  notify,
  runAnalysis,
  setEditorsReady,
  setTheme,
} from './state/actions.ts';
import { App } from './ui/App.tsx';
import { createWorkerClient, isAbortError } from './worker/client.ts';
import PlaygroundWorker from './worker/worker.ts?worker';

const client = createWorkerClient({
  createWorker: () => new PlaygroundWorker({ name: 'compaction-playground' }),
});

initActions({
  engine: client,
  examples: EXAMPLES.map((example) => ({ ...example, load: () => example })),
});

const darkScheme = window.matchMedia('(prefers-color-scheme: dark)');
const followScheme = () => setTheme(darkScheme.matches ? 'dark' : 'light');
followScheme();
darkScheme.addEventListener('change', followScheme);

// Monaco is several MB: load it after the shell so the page paints and the
// first results compute meanwhile.
import('./ui/editor/monaco-setup.ts')
  .then(({ setupMonaco }) => {
    setupMonaco();
    setEditorsReady();
  })
  .catch((error: unknown) => {
    console.error(error);
    notify('The editors could not be loaded. Reload the page to try again.', 'error');
  });

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

void loadExample(DEFAULT_EXAMPLE_ID).then((loaded) => {
  if (!loaded) runAnalysis();
});
