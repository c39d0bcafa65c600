import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';
import { versionDefine } from './tsup.config.ts';

export default mergeConfig(
  sharedConfig,
  defineProject({
    // The version the server reports, as the build sets it.
    define: versionDefine,
    test: {
      name: 'mcp',
      include: ['test/**/*.test.ts'],
    },
  }),
);
