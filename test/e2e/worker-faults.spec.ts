/**
 * Faults in the playground's worker, made for real in the browser: the test
 * reaches into the running worker (Playwright evaluates code in it) and makes
 * it fail on the next run it receives, the way a bug in the core or a worker
 * the browser tore down would. The page must keep the last good result, say
 * what happened, and recover.
 */
import type { Page, Worker } from '@playwright/test';
import {
  expect,
  openPlayground,
  readToolRows,
  results,
  statusLine,
  test,
  waitForResults,
} from './helpers.ts';

/** The playground workers the page starts, in order (not Monaco's, not the workspace pool's). */
function trackPlaygroundWorkers(page: Page): Worker[] {
  const workers: Worker[] = [];
  page.on('worker', (worker) => {
    if (/\/assets\/playground-worker-[^/]+\.js$/.test(worker.url())) workers.push(worker);
  });
  return workers;
}

async function onlyWorker(workers: Worker[]): Promise<Worker> {
  await expect.poll(() => workers.length).toBe(1);
  return workers[0] as Worker;
}

/** A change that needs a new run: the other tokenizer. */
async function changeTokenizer(page: Page): Promise<void> {
  await page.getByLabel('Tokenizer').selectOption('chars');
}

test('a worker that crashes in the middle of a run is replaced, and the run completes', async ({
  page,
}) => {
  const workers = trackPlaygroundWorkers(page);
  await openPlayground(page);
  const before = (await statusLine(page).textContent()) ?? '';
  const worker = await onlyWorker(workers);
  // The worker computes the next run, then fails before it answers: an
  // uncaught error, reported to the page as the worker's `error` event.
  await worker.evaluate(() => {
    const scope = self as unknown as { postMessage(message: unknown): void };
    const post = scope.postMessage;
    scope.postMessage = () => {
      scope.postMessage = post;
      setTimeout(() => {
        throw new Error('simulated crash');
      });
    };
  });

  await changeTokenizer(page);
  await expect(
    page.getByText('The worker stopped unexpectedly and was restarted; computing again.'),
  ).toBeVisible();
  await waitForResults(page);
  await expect(statusLine(page)).toHaveText(/^Saved/);
  await expect(statusLine(page)).not.toHaveText(before);
  await expect(results(page)).toHaveAttribute('data-stale', 'false');
  await expect(page.getByText(/chars\/4 \(an estimate\)/)).toBeVisible();
  // The run was done by a second worker; the crashed one is gone.
  expect(workers).toHaveLength(2);
});

test('a worker that closes in the middle of a run is seen at once, not after the time limit: it is replaced and the run completes', async ({
  page,
}) => {
  // The page's clock is the test's and never moves: nothing here waits for the 60 s limit.
  await page.clock.install();
  const workers = trackPlaygroundWorkers(page);
  await openPlayground(page);
  const worker = await onlyWorker(workers);
  // The worker computes the next run, then closes instead of answering: no
  // error event reaches the page, as with a worker the browser tore down.
  await worker.evaluate(() => {
    const scope = self as unknown as { postMessage(message: unknown): void; close(): void };
    scope.postMessage = () => scope.close();
  });

  await changeTokenizer(page);
  await expect(
    page.getByText('The worker stopped unexpectedly and was restarted; computing again.'),
  ).toBeVisible();
  await waitForResults(page);
  await expect(results(page)).toHaveAttribute('data-stale', 'false');
  await expect(statusLine(page)).toHaveText(/^Saved/);
  await expect(page.getByText(/chars\/4 \(an estimate\)/)).toBeVisible();
  await expect(page.getByText(/took longer than 60 s/)).toHaveCount(0);
  expect(workers).toHaveLength(2);
});

test('a worker stuck in the middle of a run is stopped at the time limit; the last good result stays, and Try again recovers', async ({
  page,
}) => {
  // The page's clock is the test's: the 60 s limit passes on request.
  await page.clock.install();
  const workers = trackPlaygroundWorkers(page);
  await openPlayground(page);
  const good = (await statusLine(page).textContent()) ?? '';
  const goodRows = await readToolRows(page);
  const worker = await onlyWorker(workers);
  // The worker computes the next run, then never answers (alive, and busy).
  await worker.evaluate(() => {
    const scope = self as unknown as { postMessage(message: unknown): void };
    scope.postMessage = () => {
      for (;;) {
        // Stuck.
      }
    };
  });

  await changeTokenizer(page);
  await expect(results(page)).toHaveAttribute('aria-busy', 'true');
  // The run is in the worker, which never answers; a minute later the page gives up on it.
  await page.clock.fastForward(60_000);
  await waitForResults(page);
  await expect(results(page)).toHaveAttribute('data-status', 'error');
  await expect(statusLine(page)).toHaveText(
    `The computation took longer than 60 s and was stopped. ${good.replace(/\.$/, '')}, with the last input that worked.`,
  );
  await expect(page.getByText('Last valid results')).toBeVisible();
  expect(await readToolRows(page)).toEqual(goodRows);
  await expect(
    page
      .getByRole('region', { name: 'Notifications' })
      .getByText(
        'The computation took longer than 60 s and was stopped. Change the input, or press Try again if the machine was busy.',
      ),
  ).toBeVisible();

  // From the keyboard, as anyone can.
  await page.getByRole('button', { name: 'Try again' }).focus();
  await page.keyboard.press('Enter');
  await waitForResults(page);
  await expect(results(page)).toHaveAttribute('data-stale', 'false');
  await expect(statusLine(page)).toHaveText(/^Saved/);
  await expect(page.getByText(/chars\/4 \(an estimate\)/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(workers).toHaveLength(2);
});
