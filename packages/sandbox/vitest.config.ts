import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';
import { versionDefine } from './tsup.cli.config.ts';

export default mergeConfig(
  sharedConfig,
  defineProject({
    // The version src/version.ts reads, as the builds set it.
    define: versionDefine,
    test: {
      name: 'sandbox',
      include: ['test/**/*.test.ts'],
      // The console's browser tests are a project of their own (vitest.console.config.ts).
      exclude: ['test/console/**', '**/node_modules/**'],
      // The CLI tests spawn the CLI bundled from the sources once per run.
      globalSetup: ['test/cli/bundle-cli.ts'],
    },
  }),
);
