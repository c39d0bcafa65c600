import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({
    // The fixtures file reader is Node's alone (node:fs, yaml): its own entry keeps it out of the core;
    // the control API's client is a client's alone: its own entry carries none of the core; what
    // only a persister needs (the sandbox) has its own entry too, and so has node:crypto's hashing.
    entry: {
      index: 'src/index.ts',
      'fixtures-file': 'src/fixtures/fixtures-file.ts',
      control: 'src/control/index.ts',
      persistence: 'src/persistence.ts',
      'node-crypto': 'src/node-crypto.ts',
    },
    // @noble/hashes is ESM-only: bundling it keeps the CommonJS build loadable on every Node 20.
    noExternal: ['@noble/hashes'],
  }),
);
