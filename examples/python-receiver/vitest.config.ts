import { defineProject } from 'vitest/config';

// No alias to the packages' sources: `@fflkit/*` resolves through node_modules to the built
// packages, as it does for an integrator who installed them from npm.
export default defineProject({
  test: {
    name: 'example-python-receiver',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
  },
});
