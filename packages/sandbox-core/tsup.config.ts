import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({
    // @noble/hashes is ESM-only: bundling it keeps the CommonJS build loadable on every Node 20.
    noExternal: ['@noble/hashes'],
  }),
);
