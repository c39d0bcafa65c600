import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // @noble/hashes is ESM-only: bundling it keeps the CommonJS build loadable on every Node 20.
  noExternal: ['@noble/hashes'],
});
