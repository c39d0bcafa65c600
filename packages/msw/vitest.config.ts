import { configDefaults, defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'msw',
      include: ['test/**/*.test.ts'],
      // The browser tests run in Chromium: vitest.browser.config.ts.
      exclude: [...configDefaults.exclude, 'test/browser/**'],
    },
  }),
);
