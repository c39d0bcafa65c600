import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

/**
 * The console's end-to-end tests: a sandbox from the sources serving the console built by
 * console/build.mjs, driven in headless Chromium (Debian's `chromium`, or `CHROMIUM_PATH`) by
 * playwright-core, with axe-core on every page. Not a project of the root `pnpm test`: CI runs
 * them once, as a step of its own (`pnpm test:console`).
 */
export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'sandbox-console',
      root: import.meta.dirname,
      include: ['test/console/**/*.test.ts'],
      globalSetup: ['test/console/support/global-setup.ts'],
      // One browser at a time on a small machine; each flow waits on real deliveries.
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
