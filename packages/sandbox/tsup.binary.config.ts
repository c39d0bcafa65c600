import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';
import { cliProgramOptions, deferModules, loadMcpApart, mcpVersionDefine } from './tsup.cli.config';

/**
 * Modules that a startup snapshot cannot hold, each replaced by a stand-in that loads it at its
 * first use. Node cannot take a snapshot of a process that has loaded `node:http` or
 * `node:https` (the build of the snapshot aborts, on Node 20 to 26) and warns that it has not
 * verified `node:perf_hooks` in one; Hapi loads them at its top level, and `@hapi/wreck` makes
 * its HTTP agents there, though the sandbox uses them only once it makes its server or reads a
 * request. Deferred, they load at run time while the rest of Hapi is in the snapshot.
 */
const DEFERRED = /^(?:(?:node:)?(?:https?|perf_hooks)|@hapi\/wreck)$/;

/**
 * The program of the single executable (`binary/out/fflkit-sandbox.cjs`, which binary/build.mjs
 * turns into the executable): the CLI's program in one CommonJS file, as `cli-program.cjs` is,
 * started by src/cli/single-executable.ts.
 */
export default defineConfig({
  ...cliProgramOptions,
  entry: { 'fflkit-sandbox': fileURLToPath(new URL('src/cli/single-executable.ts', import.meta.url)) },
  outDir: fileURLToPath(new URL('binary/out', import.meta.url)),
  // The snapshot holds the program's source, which every start copies and deserializes with the
  // rest: without its whitespace and comments it is a third smaller. Names are kept, for stacks.
  minifyWhitespace: true,
  minifySyntax: true,
  // One file holds it all: the MCP endpoint's server, a file beside the npm CLI's program, is
  // inside the executable, still evaluated only at the endpoint's first call.
  esbuildPlugins: [
    ...(cliProgramOptions.esbuildPlugins ?? []).filter((plugin) => plugin !== loadMcpApart),
    deferModules(DEFERRED),
  ],
  esbuildOptions(options, context) {
    cliProgramOptions.esbuildOptions?.(options, context);
    options.define = { ...options.define, ...mcpVersionDefine };
  },
});
