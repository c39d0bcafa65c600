import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What a start of the sandbox evaluates: the modules that the CLI's program (run-cli.ts) and the
// sandbox it starts (sandbox.ts, which run-cli.ts imports when it starts one) import statically.
// In the one-file bundle of the CLI, a module reached only through `import()` is evaluated at its
// first use, so each of these stays out of the start's time (the cold-start benchmark).

const sourceOf = (path: string): string => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** The inputs reached from `entries` through static imports, as esbuild's metafile names them. */
async function staticallyReached(entries: string[]): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: entries,
    // Inputs named from the package's folder, wherever the tests run from.
    absWorkingDir: fileURLToPath(new URL('../..', import.meta.url)),
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
