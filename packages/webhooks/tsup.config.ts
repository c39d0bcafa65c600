import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({
    // Two builds with one behaviour: `index` signs with node:crypto, `web` with Web Crypto.
    entry: { index: 'src/index.ts', web: 'src/web.ts' },
    // Keep `node:crypto` as written: Deno and Bun resolve built-ins by the prefix.
    removeNodeProtocol: false,
  }),
);
