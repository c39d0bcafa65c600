import { defineProject } from 'vitest/config';

// No alias to the packages' sources: `@fflkit/*` resolves through node_modules to the built
// packages, as it does for an integrator who installed them from npm. The workerd run of the
// same scenarios has its own configuration (vitest.workerd.config.ts): it needs miniflare.
export default defineProject({
  test: {
    name: 'example-workers-receiver',
    root: import.meta.dirname,
    include: ['test/worker-on-node.test.ts'],
  },
});
