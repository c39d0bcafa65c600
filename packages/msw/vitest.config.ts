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
      // Type tests: the contract's paths, params and bodies in the typed handlers.
      typecheck: {
        enabled: true,
        include: ['test/**/*.test-d.ts'],
        tsconfig: './tsconfig.test.json',
      },
    },
  }),
);
