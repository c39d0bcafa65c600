import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { cliProgramOptions, loadMcpApart, mcpVersionDefine } from './tsup.cli.config';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

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
 * The stand-in of a deferred module: a proxy that loads the module at the first property read
 * or write. Its keys are known without loading it (the names a Node module exports, as the Node
 * running this build lists them), because the bundler's ESM interop copies them at import.
 */
function standIn(path: string): string {
  const builtin = path.startsWith('@') ? undefined : `node:${path.replace(/^node:/, '')}`;
  const keys = builtin === undefined ? [] : Object.keys(createRequire(import.meta.url)(builtin) as object);
  return `const keys = ${JSON.stringify(keys)};
let loaded;
const load = () => (loaded ??= ${builtin === undefined ? `require(${JSON.stringify(path)})` : `process.getBuiltinModule(${JSON.stringify(builtin)})`});
module.exports = new Proxy({}, {
  get: (_target, key) => load()[key],
  set: (_target, key, value) => Reflect.set(load(), key, value),
  has: (_target, key) => key in load(),
  ownKeys: () => keys,
  getOwnPropertyDescriptor: (_target, key) =>
    keys.includes(key) ? { configurable: true, enumerable: true, get: () => load()[key] } : undefined,
});`;
}

const deferUnsnapshottable: EsbuildPlugin = {
  name: 'defer-unsnapshottable',
  setup(build) {
    build.onResolve({ filter: DEFERRED }, ({ path, namespace, resolveDir }) =>
      // The stand-in's own require of a package resolves as usual.
      namespace === 'deferred' ? undefined : { path, namespace: 'deferred', pluginData: resolveDir },
    );
    build.onLoad({ filter: /.*/, namespace: 'deferred' }, ({ path, pluginData }) => ({
      loader: 'js',
      resolveDir: pluginData as string,
      contents: standIn(path),
    }));
  },
};

/**
 * The program of the single executable (`binary/out/fflkit-sandbox.cjs`, which binary/build.mjs
 * turns into the executable): the CLI's program in one CommonJS file, as `cli-program.cjs` is,
 * started by src/cli/single-executable.ts.
 */
export default defineConfig({
  ...cliProgramOptions,
  entry: { 'fflkit-sandbox': fileURLToPath(new URL('src/cli/single-executable.ts', import.meta.url)) },
  outDir: fileURLToPath(new URL('binary/out', import.meta.url)),
  // Node's modules keep their `node:` names, so that deferUnsnapshottable sees `node:http` too.
  removeNodeProtocol: false,
  // The snapshot holds the program's source, which every start copies and deserializes with the
  // rest: without its whitespace and comments it is a third smaller. Names are kept, for stacks.
  minifyWhitespace: true,
  minifySyntax: true,
  // One file holds it all: the MCP endpoint's server, a file beside the npm CLI's program, is
  // inside the executable, still evaluated only at the endpoint's first call.
  esbuildPlugins: [
    ...(cliProgramOptions.esbuildPlugins ?? []).filter((plugin) => plugin !== loadMcpApart),
    deferUnsnapshottable,
  ],
  esbuildOptions(options, context) {
    cliProgramOptions.esbuildOptions?.(options, context);
    options.define = { ...options.define, ...mcpVersionDefine };
  },
});
