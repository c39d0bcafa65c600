import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Modules that Hapi loads but the CLI never uses, each replaced in the bundle by a stand-in so
 * that starting the CLI neither parses nor runs them: `@hapi/shot` serves only
 * `server.inject()`, which only tests call (on the library), and mime-db's table of about 2,400
 * media types serves only compression and file serving, which the sandbox turns off and lacks.
 */
const UNUSED_MODULES: Record<string, string> = {
  '@hapi/shot': `export function inject() {
  throw new Error('[@fflkit/sandbox] server.inject() is not bundled in the CLI: use startSandbox() from the library');
}`,
  'mime-db/db.json': '{}',
};

/** The file beside the CLI's program that holds the MCP endpoint's server. */
const MCP_BUNDLE = './cli-mcp.cjs';

/**
 * The MCP endpoint's server (src/mcp-handler.ts, with `@fflkit/mcp` and the MCP SDK) is bundled
 * apart, as `cli-mcp.cjs`: the program requires it only when `/_sandbox/mcp` is first called, so
 * a start neither reads nor compiles it (the cold-start benchmark). The single executable, one
 * file, leaves this plugin out.
 */
export const loadMcpApart: EsbuildPlugin = {
  name: 'load-mcp-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/mcp-handler$/ }, () => ({ path: MCP_BUNDLE, external: true }));
  },
};

const dropUnusedModules: EsbuildPlugin = {
  name: 'drop-unused-modules',
  setup(build) {
    const names = Object.keys(UNUSED_MODULES).map((name) => name.replace(/[./]/g, '\\$&'));
    build.onResolve({ filter: new RegExp(`^(?:${names.join('|')})$`) }, ({ path }) => ({ path, namespace: 'unused' }));
    build.onLoad({ filter: /.*/, namespace: 'unused' }, ({ path }) => ({
      contents: UNUSED_MODULES[path] ?? '',
      loader: path.endsWith('.json') ? 'json' : 'js',
    }));
  },
};

/**
 * The stand-in of joi in the CLI's program, which evaluates joi at its first use rather than at
 * start: joi builds its types at its top level (about a quarter of a start's own JavaScript),
 * while a start and its first authenticated read validate nothing with it (sandbox-core builds
 * each schema at its first use, see `lazySchema`). An ES module whose default export reads joi's
 * properties, its functions bound to joi (joi's root functions read `this`): the CommonJS stand-in
 * of {@link standIn} would be loaded by the bundler's interop at import, which asks for
 * `__esModule`. Type-only imports leave nothing in the bundle.
 */
function joiStandIn(): string {
  return `let joi;
const bound = new Map();
export default new Proxy({}, {
  get(_target, key) {
    joi ??= require('joi');
    const value = joi[key];
    if (typeof value !== 'function') return value;
    let fn = bound.get(key);
    if (fn === undefined) bound.set(key, (fn = value.bind(joi)));
    return fn;
  },
});`;
}

/**
 * The stand-in of a deferred module: a proxy that loads the module at the first property read
 * or write. Its keys are known without loading it (the names a Node module exports, as the Node
 * running this build lists them), because the bundler's ESM interop copies them at import. A
 * Node module is loaded with `process.getBuiltinModule` where Node has it (a startup snapshot's
 * program has no `require`), else with `require`.
 */
function standIn(path: string): string {
  const builtin = path.startsWith('@') ? undefined : `node:${path.replace(/^node:/, '')}`;
  const keys = builtin === undefined ? [] : Object.keys(createRequire(import.meta.url)(builtin) as object);
  const load =
    builtin === undefined
      ? `require(${JSON.stringify(path)})`
      : `process.getBuiltinModule?.(${JSON.stringify(builtin)}) ?? require(${JSON.stringify(builtin)})`;
  return `const keys = ${JSON.stringify(keys)};
let loaded;
const load = () => (loaded ??= ${load});
module.exports = new Proxy({}, {
  get: (_target, key) => load()[key],
  set: (_target, key, value) => Reflect.set(load(), key, value),
  has: (_target, key) => key in load(),
  ownKeys: () => keys,
  getOwnPropertyDescriptor: (_target, key) =>
    keys.includes(key) ? { configurable: true, enumerable: true, get: () => load()[key] } : undefined,
});`;
}

/**
 * Replaces each module whose name matches `filter` by a stand-in that loads it at its first use
 * ({@link standIn} unless `standInOf` is given). `name` is the plugin's and its namespace's, one
 * per use, so that each plugin loads its own stand-ins.
 */
export function deferModules(
  filter: RegExp,
  name = 'defer-modules',
  standInOf: (path: string) => string = standIn,
): EsbuildPlugin {
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, ({ path, namespace, resolveDir }) =>
        // The stand-in's own require of a package resolves as usual.
        namespace === name ? undefined : { path, namespace: name, pluginData: resolveDir },
      );
      build.onLoad({ filter: /.*/, namespace: name }, ({ path, pluginData }) => ({
        loader: 'js',
        resolveDir: pluginData as string,
        contents: standInOf(path),
      }));
    },
  };
}

/**
 * Modules that Hapi loads at its top level but a start does not use: `node:https` (TLS, about
 * as long to load as `node:http`) serves only a server with TLS, which the sandbox never makes,
 * and webhooks to https URLs; `@hapi/wreck`, which makes HTTP and HTTPS agents at its top level,
 * reads request payloads, which the first read has none of. Each loads at its first use.
 */
const DEFERRED_AT_START = /^(?:(?:node:)?https|@hapi\/wreck)$/;

/** A path of this package, absolute so that the test setup can build from any folder. */
const packagePath = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * The package's version as src/version.ts reads it, for esbuild's and Vite's `define`: the
 * health call and `--version` answer the published version without a hand-kept copy of it.
 */
export const versionDefine: Record<string, string> = {
  __FFLKIT_SANDBOX_VERSION__: JSON.stringify(
    (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version,
  ),
};

const shared: Options = {
  outDir: packagePath('dist'),
  clean: false,
  dts: false,
  sourcemap: false,
  splitting: false,
  target: 'node20',
  platform: 'node',
  tsconfig: packagePath('tsconfig.json'),
  // The workspace's packages from their sources, as their exports maps name them.
  esbuildOptions(options) {
    options.conditions = ['@fflkit/source'];
    options.define = { ...options.define, ...versionDefine };
  },
};

/**
 * The CLI's program (`dist/cli-program.cjs`): `runCli()` in one CommonJS file with every
 * dependency inlined, the workspace packages from their sources. Loading one file instead of a
 * few hundred modules saves about a third of the start-up time, and CommonJS lets the launcher
 * run it with V8's code cache.
 */
export const cliProgramOptions: Options = {
  ...shared,
  entry: { 'cli-program': packagePath('src/cli/run-cli.ts') },
  format: ['cjs'],
  // `import.meta.url` from the bundle's file name: the console is found beside it, in dist/console/.
  shims: true,
  noExternal: [/./],
  // Each start reads, hashes and decodes the program, and without a cache V8 scans all of it:
  // without whitespace and comments it is a third smaller. Names are kept, for stacks.
  minifyWhitespace: true,
  // Node's modules keep their `node:` names, so that deferModules sees `node:https` too.
  removeNodeProtocol: false,
  esbuildPlugins: [
    dropUnusedModules,
    deferModules(/^joi$/, 'lazy-joi', joiStandIn),
    deferModules(DEFERRED_AT_START),
    loadMcpApart,
  ],
  esbuildOptions(options, context) {
    shared.esbuildOptions?.(options, context);
    // The program runs in a vm.Script (compile-cache.ts), where `import()` has no loader: the
    // one module loaded apart (cli-mcp.cjs) is required instead.
    options.supported = { ...options.supported, 'dynamic-import': false };
  },
};

/** The version of `@fflkit/mcp` bundled in `cli-mcp.cjs`, which its server reports, as its own build defines it. */
export const mcpVersionDefine: Record<string, string> = {
  __FFLKIT_MCP_VERSION__: JSON.stringify(
    (
      JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@fflkit/mcp/package.json'), 'utf8')) as {
        version: string;
      }
    ).version,
  ),
};

/** The MCP endpoint's server, `dist/cli-mcp.cjs`, loaded by the program on the endpoint's first call. */
export const cliMcpOptions: Options = {
  ...shared,
  entry: { 'cli-mcp': packagePath('src/mcp-handler.ts') },
  format: ['cjs'],
  shims: true,
  noExternal: [/./],
  esbuildOptions(options, context) {
    shared.esbuildOptions?.(options, context);
    options.define = { ...options.define, ...mcpVersionDefine };
  },
};

/**
 * The CLI's executable (`dist/cli.cjs`, which the package's `bin` requires): a small launcher
 * that runs the program with the code V8 compiled for it in an earlier start (see
 * src/cli/compile-cache.ts). CommonJS, so that a start never sets up Node's ES module loader.
 */
export const cliLauncherOptions: Options = {
  ...shared,
  entry: { cli: packagePath('src/cli/launcher.ts') },
  format: ['cjs'],
};

/** The drift guard's tools, which src/cli/drift-tools.ts gathers for their subcommands. */
const DRIFT_TOOLS = /^\.\/drift-tools$/;

/**
 * The drift guard's tools (the contract, its validators, the proxy, the probes: a third of the
 * program's size) as a file of their own beside the program, `dist/cli-drift.cjs`, which their
 * subcommands require when they run: starting the sandbox neither reads nor compiles them.
 */
const driftToolsApart: EsbuildPlugin = {
  name: 'drift-tools-apart',
  setup(build) {
    // A `require` of the file beside the program, which the launcher's compiled script can run
    // (it cannot `import()`), in place of the module.
    build.onResolve({ filter: DRIFT_TOOLS }, ({ path }) => ({ path, namespace: 'drift-tools' }));
    build.onLoad({ filter: /.*/, namespace: 'drift-tools' }, () => ({
      contents: "module.exports = require('./cli-drift.cjs');",
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/cli-drift\.cjs$/ }, ({ path }) => ({ path, external: true }));
  },
};

/** `dist/cli-drift.cjs`: src/cli/drift-tools.ts with every dependency inlined, as the program is. */
export const cliDriftOptions: Options = {
  ...cliProgramOptions,
  entry: { 'cli-drift': packagePath('src/cli/drift-tools.ts') },
};

/**
 * What `pnpm build` makes of the CLI: the program (its drift tools apart, see
 * {@link driftToolsApart}), the drift tools, the MCP handler (loaded on the first call of `/_sandbox/mcp`), and the launcher. {@link cliProgramOptions} alone
 * makes the program in one file, the drift tools inlined.
 */
export const cliBuilds: Options[] = [
  { ...cliProgramOptions, esbuildPlugins: [...(cliProgramOptions.esbuildPlugins ?? []), driftToolsApart] },
  cliDriftOptions,
  cliMcpOptions,
  cliLauncherOptions,
];

export default defineConfig(cliBuilds);
