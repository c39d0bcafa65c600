import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      // The MSW handlers under setupWorker in headless Chromium.
      'packages/msw/vitest.browser.config.ts',
      'test/vitest.config.ts',
      'examples/*/vitest.config.ts',
    ],
  },
});
