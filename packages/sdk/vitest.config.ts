import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'sdk',
      include: ['test/**/*.test.ts'],
      typecheck: {
        enabled: true,
        include: ['test/**/*.test-d.ts'],
        tsconfig: './tsconfig.test.json',
      },
    },
  }),
);
