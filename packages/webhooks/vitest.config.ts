import { defineConfig, defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(
  mergeConfig(
    sharedConfig,
    defineProject({
      test: {
        name: 'webhooks',
        include: ['test/**/*.test.ts'],
        // Type tests: the handlers' narrowing and the adapters' fit with Express and Fastify types.
        typecheck: {
          enabled: true,
          include: ['test/**/*.test-d.ts'],
          tsconfig: './tsconfig.test.json',
        },
      },
    }),
  ),
  // Coverage applies when this file is the root config: `pnpm --filter @fflkit/webhooks
  // test:coverage`. Every file of the package, signing and verification first, is held at 100 %.
  defineConfig({
    test: {
      coverage: {
        provider: 'v8',
        include: ['src/**/*.ts'],
        thresholds: { 100: true, perFile: true },
      },
    },
  }),
);
