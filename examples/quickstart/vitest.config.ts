import { defineProject } from 'vitest/config';

// No alias to the packages' sources: `@fflkit/*` resolves through node_modules to the built
// packages, as it does for an integrator who installed them.
export default defineProject({
  test: {
    name: 'example-quickstart',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
  },
});
