import { defineProject } from 'vitest/config';

// No alias to the packages' sources: `@fflkit/*` resolves through node_modules to the built
// packages, as it does for an integrator who installed them from npm.
export default defineProject({
  test: {
    name: 'example-sandbox-vitest',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    // One sandbox for the whole run; its address reaches the tests through inject('sandboxUrl').
    globalSetup: ['./test/global-setup.ts'],
  },
});
