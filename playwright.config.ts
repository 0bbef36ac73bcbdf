import { defineConfig } from '@playwright/test';

// Browser tests against the production build (`npm run test:e2e` builds
// first), in the system Chromium: no browser download, and no request may
// leave the page's origin.
/** Specs that must have the machine to themselves. */
// The README screenshot is a tool, not a test: it runs only when asked for
// (UPDATE_SCREENSHOT=1), so a normal run neither writes nor skips it.
// PW_PORT lets several checkouts run their browser tests side by side.
const PORT = Number(process.env.PW_PORT ?? 4173);
const ALONE = process.env.UPDATE_SCREENSHOT ? /(perf|screenshot)\.spec\.ts$/ : /perf\.spec\.ts$/;

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  workers: 2,
  // In CI a failed browser test runs once more: one flake would otherwise hold
  // back everything. A test that passes only on its retry is counted as
  // passed but named in CI's closing lines (.ci/summary.mjs) as flaky, to be
  // fixed; locally nothing is retried.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  // The JSON report feeds .ci/summary.mjs, which prints CI's closing line.
  reporter: [
    [process.env.CI ? 'line' : 'list'],
    ['json', { outputFile: 'test-reports/playwright.json' }],
  ],
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    // The service worker would precache the whole build in every test's new
    // context (load on a shared machine) and answer requests before page.route
    // sees them; offline.spec.ts allows it, as a person's browser does.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // The perf measure and the README screenshot run alone, after the rest:
  // another test in the second worker would share the CPU with them.
  projects: [
    { name: 'chromium', testIgnore: [ALONE, /screenshot\.spec\.ts$/] },
    // One worker: the perf specs must not share the CPU with each other either.
    { name: 'alone', testMatch: ALONE, dependencies: ['chromium'], workers: 1 },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
