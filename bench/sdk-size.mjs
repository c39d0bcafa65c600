// SDK size: gzip size of the smallest app an integrator ships, bundled by esbuild and minified:
// it imports `LogbookClient` from the built @fflkit/sdk and calls one method. The peer is the same
// app written on bare openapi-fetch, which the SDK is built on (its floor).
// Target (shared/DESIGN.md): the SDK app under 6 kB (6,000 bytes) gzipped.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { num, printHeading, printNote, printTable, printTargets, progress, ratio, target } from './report.mjs';

export const description = 'gzip size of a minimal app bundle (esbuild, minified) on @fflkit/sdk vs bare openapi-fetch';

const SDK_DIR = fileURLToPath(new URL('../packages/sdk/', import.meta.url));
const SDK_ENTRY = `${SDK_DIR}dist/index.js`;
const LIMIT_BYTES = 6000;

const APPS = {
  '@fflkit/sdk': `
    import { LogbookClient } from '@fflkit/sdk';
    const logbook = new LogbookClient({ token: 'sbx_token', baseUrl: 'https://logbook.example.com/rest/v1' });
    logbook.receipts.get(1042).then((receipt) => console.log(receipt.serial_number));`,
  'bare openapi-fetch': `
    import createClient from 'openapi-fetch';
    const client = createClient({ baseUrl: 'https://logbook.example.com/rest/v1', headers: { Authorization: 'Bearer sbx_token' } });
    client.GET('/receipts/{id}', { params: { path: { id: 1042 } } }).then(({ data }) => console.log(data.data.serial_number));`,
};

export async function run() {
  printHeading(
    'SDK bundle size',
    'A minimal app (one import, one call), bundled with esbuild --bundle --minify --format=esm, gzip level 9.',
  );
  if (!existsSync(SDK_ENTRY)) {
    printNote('packages/sdk/dist is missing: run `pnpm --filter @fflkit/sdk build` first.');
    printTargets([
      target(`gzip size < ${num(LIMIT_BYTES)} bytes`, NaN, '<', LIMIT_BYTES, { unmeasured: 'SDK not built' }),
    ]);
    return { failures: ['sdk-size: @fflkit/sdk is not built'] };
  }
  // esbuild is a devDependency of the SDK: resolved from there, as a bundler of an app would be.
  const esbuild = createRequire(SDK_DIR).call(null, 'esbuild');
  const sizes = {};
  for (const [name, contents] of Object.entries(APPS)) {
    progress(`bundling the app on ${name}`);
    const result = await esbuild.build({
      stdin: { contents, resolveDir: SDK_DIR, loader: 'js' },
      alias: { '@fflkit/sdk': SDK_ENTRY },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0].contents;
    sizes[name] = { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
  }
  const sdk = sizes['@fflkit/sdk'];
  const bare = sizes['bare openapi-fetch'];
  printTable(
    ['app', 'minified bytes', 'gzip bytes', 'gzip vs bare openapi-fetch'],
    Object.entries(sizes).map(([name, size]) => [
      name,
      num(size.minified),
      num(size.gzip),
      ratio(size.gzip, bare.gzip),
    ]),
  );
  printNote(
    `the SDK adds ${num(sdk.gzip - bare.gzip)} gzip bytes to openapi-fetch: retries, limiter, errors, pagination, sync.`,
  );
  printTargets([
    target(`gzip size < ${num(LIMIT_BYTES)} bytes`, sdk.gzip, '<', LIMIT_BYTES, {
      show: (v) => `${num(v)} bytes (${num((100 * v) / LIMIT_BYTES, 1)} % of the limit)`,
    }),
  ]);
  return { failures: [] };
}
