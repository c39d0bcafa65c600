import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'example-msw-vitest',
    root: import.meta.dirname,
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
