import { fileURLToPath } from 'node:url';
import type { ViteUserConfig } from 'vitest/config';

/** The export condition under which every `@fflkit/*` package names its TypeScript sources. */
export const SOURCE_CONDITION = '@fflkit/source';

/**
 * Settings every package's test project shares: `@fflkit/*` imports resolve to the sources
 * through the packages' own exports maps (their `@fflkit/source` condition, which the
 * tsconfigs name in `customConditions` too), so the tests run without a build. The other
 * conditions are Vite's defaults, which setting `conditions` replaces. The examples do not use
 * these settings: they import the built packages, as an integrator's project would.
 */
export const sharedConfig: ViteUserConfig = {
  resolve: { conditions: [SOURCE_CONDITION, 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, 'module', 'node', 'development|production'] } },
  test: {
    // A file handle that the garbage collector closes (DEP0137) fails the test file that left it
    // open: the collector is run after each file, which needs --expose-gc.
    setupFiles: [fileURLToPath(new URL('./test/support/fail-on-leaked-file-handles.ts', import.meta.url))],
    execArgv: ['--expose-gc'],
  },
};
