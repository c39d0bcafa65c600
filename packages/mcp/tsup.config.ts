import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base.ts';

/**
 * The package's version, for `define`: the server's `serverInfo`, `--version` and the
 * User-Agent of its requests carry it without a hand-kept copy.
 */
export const versionDefine: Record<string, string> = {
  __FFLKIT_MCP_VERSION__: JSON.stringify(
    (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version,
  ),
};

/**
 * The library, and the executable's program (`dist/cli.js`, which bin/fflkit-mcp.js loads),
 * sharing their code; declarations for the library only.
 */
export default defineConfig(
  packageBuild({
    entry: { index: 'src/index.ts', cli: 'src/cli/fflkit-mcp.ts' },
    dts: { entry: { index: 'src/index.ts' } },
    target: 'node20',
    platform: 'node',
    // The CommonJS build gets `import.meta.url` from its file name: the contract is found from it.
    shims: true,
    esbuildOptions(options) {
      options.define = { ...options.define, ...versionDefine };
    },
  }),
);
