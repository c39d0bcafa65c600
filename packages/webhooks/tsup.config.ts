import { defineConfig } from 'tsup';

export default defineConfig({
  // Two builds with one behaviour: `index` signs with node:crypto, `web` with Web Crypto.
  entry: { index: 'src/index.ts', web: 'src/web.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // Keep `node:crypto` as written: Deno and Bun resolve built-ins by the prefix.
  removeNodeProtocol: false,
});
