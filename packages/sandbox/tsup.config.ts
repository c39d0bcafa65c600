import { defineConfig } from 'tsup';

/** The library (`startSandbox()`): ESM and CommonJS with declarations, dependencies external. */
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  // lowdb is ESM only and tiny (the sandbox uses its Low and Memory): bundled, so the CommonJS
  // build loads on every Node 20.
  noExternal: ['lowdb'],
});
