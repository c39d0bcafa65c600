import { defineConfig, type Options } from 'tsup';

/**
 * The CLI (`dist/cli.js`, built after the library): one ESM file with every dependency inlined,
 * the workspace packages from their sources. Loading one file instead of a few hundred modules
 * saves about a third of the start-up time. Bundled CommonJS dependencies `require()` Node's
 * built-in modules, so the banner gives the module a real `require`.
 */
export const cliOptions: Options = {
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  outDir: 'dist',
  clean: false,
  dts: false,
  sourcemap: false,
  splitting: false,
  target: 'node20',
  platform: 'node',
  tsconfig: 'tsconfig.json',
  noExternal: [/./],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
};

export default defineConfig(cliOptions);
