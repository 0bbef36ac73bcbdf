/**
 * The workspace's e2e vocabulary, shared by `workspace.spec.ts` and
 * `workspace-perf.spec.ts`: the region, waiting for it, opening the corpus
 * folder, and timing a count from inside the page.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { CORPUS_DIR } from '../../src/test/conformance.ts';

/** The workspace's results region. */
export function workspace(page: Page): Locator {
  return page.getByRole('region', { name: 'Workspace' });
}

/** Waits until the workspace's figures describe the current input. */
export async function waitForWorkspace(page: Page): Promise<void> {
  await expect(workspace(page)).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(workspace(page)).toHaveAttribute('aria-busy', 'false');
}

/**
 * Starts watching, in the page, for the next workspace count: its start (the
 * folder input's change), its end (the region done and not busy) and every
 * long task in between. Watching from the page: polling locators from the
 * test would run queries on the main thread, long tasks of their own.
 */
export function watchCounting(): void {
  const win = window as unknown as {
    counting?: { start: number; end: number | null; tasks: number[] };
    countingObserver?: PerformanceObserver;
  };
  const counting = { start: 0, end: null as number | null, tasks: [] as number[] };
  win.counting = counting;
  win.countingObserver?.disconnect();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (counting.end === null) counting.tasks.push(entry.duration);
    }
  });
  observer.observe({ type: 'longtask' });
  win.countingObserver = observer;
  document.addEventListener(
    'change',
    () => {
      counting.start = performance.now();
    },
    { capture: true, once: true },
  );
}

/** What a count took, and how it ended (`done`, or `failed`). */
export interface CountingFigures {
  status: string;
  ms: number;
  longestTask: number;
  longTasks: number;
}

/**
 * Resolves with the count's figures once the workspace has finished (done,
 * or failed: the caller checks which). Runs in the page.
 */
export function countingDone(): Promise<CountingFigures> {
  const counting = (
    window as unknown as { counting: { start: number; end: number | null; tasks: number[] } }
  ).counting;
  const status = () =>
    document.querySelector('section[aria-label="Workspace"]')?.getAttribute('data-status') ?? '';
  const done = () => {
    const region = document.querySelector('section[aria-label="Workspace"]');
    return (
      (status() === 'done' || status() === 'failed') &&
      region?.getAttribute('aria-busy') === 'false'
    );
  };
  const result = () => ({
    status: status(),
    ms: (counting.end ?? performance.now()) - counting.start,
    longestTask: Math.max(0, ...counting.tasks),
    longTasks: counting.tasks.length,
  });
  return new Promise((resolve) => {
    const finish = () => {
      counting.end = performance.now();
      // Let the last frame draw, so its task is observed too.
      requestAnimationFrame(() => setTimeout(() => resolve(result()), 50));
    };
    if (done()) return finish();
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      finish();
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status', 'aria-busy'],
    });
  });
}

/** Opens the corpus folder through "Open folder" (Chromium accepts a directory for a webkitdirectory input). */
export async function openCorpusFolder(page: Page): Promise<void> {
  await page.getByLabel('Open folder').setInputFiles(CORPUS_DIR);
}
