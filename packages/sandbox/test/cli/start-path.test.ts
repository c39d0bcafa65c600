import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cliProgramOptions, versionDefine } from '../../tsup.cli.config';

// What a start of the sandbox evaluates: the modules that the CLI's program (run-cli.ts) and the
// sandbox it starts (sandbox.ts, which run-cli.ts imports when it starts one) import statically.
// In the one-file bundle of the CLI, a module reached only through `import()` is evaluated at its
// first use, so each of these stays out of the start's time (the cold-start benchmark).

const sourceOf = (path: string): string => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** The inputs reached from `entries` through static imports, as esbuild's metafile names them. */
async function staticallyReached(entries: string[]): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: entries,
    // Inputs named from the package's folder, wherever the tests run from.
    absWorkingDir: packageDir,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir: 'unused',
    conditions: ['@fflkit/source'],
    logLevel: 'silent',
    define: { __FFLKIT_SANDBOX_VERSION__: '"0.0.0"', __FFLKIT_MCP_VERSION__: '"0.0.0"' },
  });
  const inputs: Metafile['inputs'] = metafile.inputs;
  const reached = new Set<string>();
  const pending = Object.keys(inputs).filter((input) => entries.some((entry) => entry.endsWith(input)));
  while (pending.length > 0) {
    const input = pending.pop() as string;
    if (reached.has(input)) continue;
    reached.add(input);
    for (const imported of inputs[input]?.imports ?? []) {
      if (imported.kind !== 'dynamic-import' && !imported.external) pending.push(imported.path);
    }
  }
  return reached;
}

describe("the sandbox's start path", () => {
  it('leaves out what the first request does not need: YAML, the demo, the receiver check, the drift guard, MCP', async () => {
    const reached = [...(await staticallyReached([sourceOf('cli/run-cli.ts'), sourceOf('sandbox.ts')]))];
    // The start path itself is there, so that an empty walk cannot pass.
    expect(reached).toEqual(expect.arrayContaining([expect.stringMatching(/@hapi\/hapi\//), 'src/server.ts']));
    const lazy = [
      /node_modules\/yaml\//,
      /src\/demo\//,
      /src\/receiver-check\/check-receiver\.ts$/,
      /src\/cli\/drift-tools\.ts$/,
      /node_modules\/ajv/,
      /src\/mcp-handler\.ts$/,
      /@modelcontextprotocol\//,
    ];
    expect(reached.filter((input) => lazy.some((pattern) => pattern.test(input)))).toEqual([]);
    // Bundling the whole graph takes a few seconds on a busy machine.
  }, 30_000);
});

/**
 * A plugin that puts a marker between the CLI's stand-in of joi (tsup.cli.config.ts) and joi
 * itself: evaluating joi writes the file `marker`. Without the stand-in, nothing writes it.
 */
function markJoiEvaluation(marker: string): Plugin {
  return {
    name: 'mark-joi-evaluation',
    setup(plugin) {
      plugin.onResolve({ filter: /^joi$/ }, ({ namespace, resolveDir }) =>
        namespace === 'lazy-joi' ? { path: 'joi', namespace: 'marked-joi', pluginData: resolveDir } : undefined,
      );
      plugin.onResolve({ filter: /^joi$/, namespace: 'marked-joi' }, ({ resolveDir }) => ({
        path: createRequire(join(resolveDir, 'index.js')).resolve('joi'),
      }));
      plugin.onLoad({ filter: /.*/, namespace: 'marked-joi' }, ({ pluginData }) => ({
        loader: 'js',
        resolveDir: pluginData as string,
        contents: `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '');\nmodule.exports = require('joi');`,
      }));
    },
  };
}

/** Resolves with the first match of `pattern` in what `stream` prints. */
function firstMatch(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match !== null) resolve(match);
    });
    stream.on('end', () => reject(new Error(`The CLI ended without printing ${pattern}:\n${text}`)));
  });
}

describe("the sandbox's start in the CLI's bundle", () => {
  it('evaluates joi and loads node:https at their first use, neither at the start nor at its first authenticated read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fflkit-start-path-'));
    const program = join(dir, 'program.cjs');
    const marker = join(dir, 'joi-evaluated');
    await build({
      entryPoints: [sourceOf('cli/run-cli.ts')],
      absWorkingDir: packageDir,
      outfile: program,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      conditions: ['@fflkit/source'],
      logLevel: 'silent',
      define: { ...versionDefine, 'import.meta.url': JSON.stringify(pathToFileURL(program).href) },
      // The plugins of the CLI's program, the marker ahead of them.
      plugins: [markJoiEvaluation(marker), ...(cliProgramOptions.esbuildPlugins ?? [])],
    });
    const args = ['--memory', '--host', '127.0.0.1', '--port', '0', '--quiet'];
    // The program, answering each message with which of `node:http` and `node:https` (TLS) Node
    // has loaded.
    const driver = `require(${JSON.stringify(program)}).runCli(${JSON.stringify(args)});
process.on('message', () => process.send(['http', 'https'].filter((name) => process.moduleLoadList.includes('NativeModule ' + name))));`;
    const child = spawn(process.execPath, ['-e', driver], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    const loaded = (): Promise<unknown> =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send('loaded?');
      });
    try {
      const [, api, token] = await firstMatch(
        // Piped, as spawned.
        child.stdout as NodeJS.ReadableStream,
        /(http:\/\/127\.0\.0\.1:\d+\/rest\/v1)[\s\S]*?(sbx_[\w-]+)/,
      );
      const authorization = `Bearer ${token}`;
      const read = await fetch(`${api}/books`, { headers: { authorization } });
      expect(read.status).toBe(200);
      expect(existsSync(marker)).toBe(false);
      expect(await loaded()).toEqual(['http']);
      // A create checks its input with joi: the marker shows when joi is evaluated.
      const create = await fetch(`${api}/receipts`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(create.status).toBe(422);
      expect(existsSync(marker)).toBe(true);
    } finally {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
