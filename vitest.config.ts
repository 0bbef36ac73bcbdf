import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { embedFirstFigures } from './tools/build/first-figures-plugin.ts';

// Two environments: the pure core, CLI and worker run in Node; components and
// the store run in jsdom. Playwright specs (test/e2e) stay out of this run.
export default defineConfig({
  test: {
    // The JSON report feeds .ci/summary.mjs, which prints CI's closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-reports/vitest.json' },
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/core/**/*.test.ts',
            'src/cli/**/*.test.ts',
            'src/worker/**/*.test.ts',
            'src/examples/**/*.test.ts',
            'tools/**/*.test.ts',
          ],
          testTimeout: 60_000,
        },
      },
      {
        plugins: [react(), embedFirstFigures()],
        test: {
          name: 'ui',
          environment: 'jsdom',
          include: ['src/ui/**/*.test.{ts,tsx}', 'src/state/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup-dom.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
