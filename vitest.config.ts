import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const cpus = availableParallelism();

export default defineConfig({
  test: {
    // Vitest's default (a worker per core but one) runs the files one at a time on two cores,
    // while its main process mostly waits; two workers there (CI's machines) take about a
    // quarter less time. Other machines keep the default.
    maxWorkers: cpus === 2 ? 2 : Math.max(1, cpus - 1),
    projects: [
      'packages/*/vitest.config.ts',
      // The MSW handlers under setupWorker in headless Chromium.
      'packages/msw/vitest.browser.config.ts',
      'test/vitest.config.ts',
      'examples/*/vitest.config.ts',
    ],
  },
});
