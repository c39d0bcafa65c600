import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  esbuildOptions(options) {
    options.define = {
      ...options.define,
      // The User-Agent carries the published version without a hand-kept copy of it.
      __BOUNDBOOK_SDK_VERSION__: JSON.stringify(version),
    };
  },
});
