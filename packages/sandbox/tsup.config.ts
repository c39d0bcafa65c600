import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';
import { versionDefine } from './tsup.cli.config';

/** The library (`startSandbox()`): ESM and CommonJS with declarations, dependencies external. */
export default defineConfig(
  packageBuild({
    target: 'node20',
    platform: 'node',
    // lowdb is ESM only and tiny (the sandbox uses its Low and Memory): bundled, so the CommonJS
    // build loads on every Node 20.
    noExternal: ['lowdb'],
    esbuildOptions(options) {
      options.define = { ...options.define, ...versionDefine };
    },
    // The CommonJS build gets `import.meta.url` from its file name: the console is found beside it.
    shims: true,
  }),
);
