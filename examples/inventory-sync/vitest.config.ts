import { defineProject } from 'vitest/config';

// No alias to the packages' sources: `@fflkit/*` resolves through node_modules to their
// built dist/, as it does for an integrator (the root `pnpm test` builds them first).
export default defineProject({
  test: {
    name: 'example-inventory-sync',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
  },
});
