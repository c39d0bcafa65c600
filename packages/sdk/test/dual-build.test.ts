// The ESM and the CommonJS builds loaded in one Node process, as an application does when one of
// its dependencies `require()`s the SDK and another imports it: errors are `instanceof` across the
// two, and clients of one token share one rate limiter. The builds are made by the package's own
// tsup configuration, and loaded natively in a child process (not through Vitest's module graph).
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config';

// Inside the package, so that the builds resolve `@fflkit/types` as the published ones do.
const OUT_DIR = fileURLToPath(new URL('../node_modules/.dual-build/', import.meta.url));

// Runs in the child process: loads both builds, and prints what it observed as JSON.
const PROBE = `
import { createRequire } from 'node:module';
const [dir] = process.argv.slice(1);
const esm = await import(new URL('index.js', 'file://' + dir).href);
const cjs = createRequire(dir)('./index.cjs');
const baseUrl = 'https://logbook.example.test/rest/v1';
const unprocessable = async () => Response.json({ message: 'Invalid.', errors: { serial_number: ['Required.'] } }, { status: 422 });
const ok = async () => Response.json({ data: [] });
const errorOf = (promise) => promise.then(() => undefined, (error) => error);
const fromCjs = await errorOf(new cjs.LogbookClient({ token: 'a', baseUrl, fetch: unprocessable, rateLimit: false }).books.list());
const fromEsm = await errorOf(new esm.LogbookClient({ token: 'a', baseUrl, fetch: unprocessable, rateLimit: false }).books.list());
// One request per minute for the token; a second client waits not at all before it rejects.
const first = new esm.LogbookClient({ token: 'shared', baseUrl, fetch: ok, rateLimit: { perMinute: 1 } });
const second = new cjs.LogbookClient({ token: 'shared', baseUrl, fetch: ok, rateLimit: { perMinute: 1 }, maxQueueWait: 0 });
const other = new cjs.LogbookClient({ token: 'other', baseUrl, fetch: ok, rateLimit: { perMinute: 1 }, maxQueueWait: 0 });
await first.books.list();
const held = await errorOf(second.books.list());
const otherToken = await errorOf(other.books.list());
console.log(JSON.stringify({
  twoCopies: esm.ValidationError !== cjs.ValidationError,
  cjsErrorIsEsmValidationError: fromCjs instanceof esm.ValidationError,
  cjsErrorIsEsmApiError: fromCjs instanceof esm.ApiError,
  cjsErrorIsEsmLogbookError: fromCjs instanceof esm.LogbookError,
  cjsErrorIsEsmNotFoundError: fromCjs instanceof esm.NotFoundError,
  esmErrorIsCjsValidationError: fromEsm instanceof cjs.ValidationError,
  heldByTheSharedLimiter: held instanceof esm.QueueTimeoutError,
  heldName: held?.name,
  otherTokenSent: otherToken === undefined,
}));
`;

beforeAll(async () => {
  await rm(OUT_DIR, { recursive: true, force: true });
  await build({
    ...config,
    config: false,
    entry: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    outDir: OUT_DIR,
    dts: false,
    sourcemap: false,
    silent: true,
  });
}, 60_000);

describe('the ESM and CommonJS builds in one process', () => {
  it('share the error classes (instanceof both ways) and the rate limiter of a token', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', PROBE, OUT_DIR]);
    expect(JSON.parse(stdout)).toEqual({
      twoCopies: true,
      cjsErrorIsEsmValidationError: true,
      cjsErrorIsEsmApiError: true,
      cjsErrorIsEsmLogbookError: true,
      cjsErrorIsEsmNotFoundError: false,
      esmErrorIsCjsValidationError: true,
      heldByTheSharedLimiter: true,
      heldName: 'QueueTimeoutError',
      otherTokenSent: true,
    });
  });
});
