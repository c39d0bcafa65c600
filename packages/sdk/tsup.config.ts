import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig(packageBuild({
  esbuildOptions(options, { format }) {
    options.define = {
      ...options.define,
      // The User-Agent carries the published version without a hand-kept copy of it.
      __BOUNDBOOK_SDK_VERSION__: JSON.stringify(version),
      // The CommonJS build takes openapi-fetch's `createClient` from `exports.default`.
      __BOUNDBOOK_CJS__: String(format === 'cjs'),
    };
  },
}));
