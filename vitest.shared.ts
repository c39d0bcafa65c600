import { fileURLToPath } from 'node:url';
import type { ViteUserConfig } from 'vitest/config';

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));

/**
 * Settings every package's test project shares: `@boundbook/*` imports resolve to the sources,
 * so the tests run without a build.
 */
export const sharedConfig: ViteUserConfig = {
  resolve: {
    alias: [{ find: /^@boundbook\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/index.ts` }],
  },
};
