import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({
    // Two builds with one behaviour: `index` (Node) also reads a fixtures file, `web` takes
    // fixtures as an object only and imports no node: module.
    entry: { index: 'src/index.ts', web: 'src/web.ts' },
    // Keep `node:fs` as written: Deno and Bun resolve built-ins by the prefix.
    removeNodeProtocol: false,
  }),
);
