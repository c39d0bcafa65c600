// Builds the console into dist/console/: the page (index.html) and its assets, bundled and
// minified by esbuild, each asset named by the hash of its content so the sandbox can let
// browsers keep it for a year (assets/main-3FJ2KQ7A.js). `node console/build.mjs` from the
// package, as its build does; `--quiet` prints nothing on success.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = fileURLToPath(new URL('../dist/console/', import.meta.url));

/**
 * Builds the console; resolves with the names of the files written, relative to dist/console/.
 * The workspace's packages are bundled from their sources, as their exports maps name them.
 */
export async function buildConsole() {
  await rm(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: join(here, 'src/main.ts'), style: join(here, 'src/styles.css') },
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    conditions: ['@fflkit/source'],
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.startsWith('main-') && name.endsWith('.js'));
  const style = outputs.find((name) => name.startsWith('style-') && name.endsWith('.css'));
  if (script === undefined || style === undefined)
    throw new Error(`[@fflkit/sandbox] the console build made no script or style: ${outputs.join(', ')}`);
  const page = (await readFile(join(here, 'index.html'), 'utf8')).replace('%SCRIPT%', script).replace('%STYLE%', style);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'index.html'), page);
  return ['index.html', `assets/${script}`, `assets/${style}`];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await buildConsole();
  if (!process.argv.includes('--quiet'))
    console.log(`console: ${files.map((file) => `dist/console/${file}`).join(', ')}`);
}
