// Starts the FFLKit sandbox CLI (packages/sandbox/dist/cli.cjs, or the file named by
// FFLKIT_SANDBOX_CLI) and seeds receipts through its API. Until the package is built,
// `sandboxBuilt()` is false and the benchmarks print "not built" for it.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestJson } from './http-request.mjs';
import { runLoad, loadProblems } from './load.mjs';
import { progress } from './report.mjs';
import { freePort, spawnServer } from './spawn-server.mjs';

export const SANDBOX_CLI = process.env.FFLKIT_SANDBOX_CLI
  ? resolve(process.env.FFLKIT_SANDBOX_CLI)
  : fileURLToPath(new URL('../packages/sandbox/dist/cli.cjs', import.meta.url));

/** The token the CLI prints for the account it makes on a fresh data file. */
const TOKEN_PATTERN = /\bsbx_[A-Za-z0-9_-]+/;

export function sandboxBuilt() {
  return existsSync(SANDBOX_CLI);
}

/**
 * The single executables of `pnpm build:binary`: with its startup snapshot (FFLKIT_SANDBOX_BINARY,
 * or packages/sandbox/binary/out/fflkit-sandbox) and without one (`build.mjs --no-snapshot`).
 */
export const SANDBOX_BINARIES = {
  snapshot: process.env.FFLKIT_SANDBOX_BINARY
    ? resolve(process.env.FFLKIT_SANDBOX_BINARY)
    : fileURLToPath(new URL('../packages/sandbox/binary/out/fflkit-sandbox', import.meta.url)),
  noSnapshot: fileURLToPath(new URL('../packages/sandbox/binary/out/fflkit-sandbox-no-snapshot', import.meta.url)),
};

/**
 * Spawns the CLI on `dataFile` (in memory without one) and resolves once `GET /rest/v1/books` answers 200 with a token.
 * The token is `token` when given (an existing data file), else the one the CLI prints on a
 * fresh file or, with `quiet`, a new account's from `POST /_sandbox/accounts`.
 * Resolves with `{ server, origin, api, token, readyMs }`, `readyMs` from spawn to that 200.
 * `env` adds to the child's environment. `executable` runs the single executable at that path
 * instead of the CLI on Node.
 */
export async function startSandbox({ dataFile, token, quiet = false, rateLimit, timeoutMs = 60_000, env, executable }) {
  const port = await freePort();
  // No data file: the sandbox keeps its state in memory (--memory).
  const where = dataFile === undefined ? ['--memory'] : ['--data', dataFile];
  const args = [
    ...(executable === undefined ? [SANDBOX_CLI] : []),
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    ...where,
  ];
  if (rateLimit !== undefined) args.push('--rate-limit', String(rateLimit));
  if (quiet) args.push('--quiet');
  const server = spawnServer('sandbox', args, { env, command: executable });
  const origin = `http://127.0.0.1:${port}`;
  const api = `${origin}/rest/v1`;
  try {
    if (!token && !quiet) {
      [token] = await server.waitForOutput(TOKEN_PATTERN, timeoutMs);
    } else if (!token) {
      await server.pollUntil(`${api}/books`, { accept: (status) => status === 401, timeoutMs });
      token = await createAccount(origin);
    }
    const readyMs = await server.pollUntil(`${api}/books`, { headers: authorization(token), timeoutMs });
    return { server, origin, api, token, readyMs };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Makes a new account through the control API and resolves with its token. */
export async function createAccount(origin) {
  const { token } = await requestJson(`${origin}/_sandbox/accounts`, { method: 'POST', body: {} }, 201);
  if (!TOKEN_PATTERN.test(token ?? ''))
    throw new Error(`POST /_sandbox/accounts answered no sbx_ token: ${JSON.stringify(token)}`);
  return token;
}

export function authorization(token) {
  return { authorization: `Bearer ${token}` };
}

/** Number of receipts the account holds, from the pagination envelope. */
export async function receiptCount(api, token) {
  const page = await requestJson(`${api}/receipts?per_page=1`, { headers: authorization(token) });
  return page.meta?.total;
}

/**
 * Posts `count` valid receipts (serials `from + 1` onwards) with 8 connections; needs the
 * sandbox started with `rateLimit: 0`. Stops at `maxSeconds`. Resolves with
 * `{ done, seconds, complete }`; throws when any request fails.
 */
export async function seedReceipts(api, token, { count, from = 0, maxSeconds }) {
  const started = performance.now();
  let lastReport = started;
  const result = await runLoad({
    url: `${api}/receipts`,
    method: 'POST',
    headers: authorization(token),
    makeBody: (n) => numberedReceiptBody(from + n + 1),
    connections: 8,
    amount: count,
    maxSeconds,
    onProgress: (answered) => {
      if (performance.now() - lastReport < 5_000) return;
      lastReport = performance.now();
      const seconds = (lastReport - started) / 1000;
      progress(
        `seeded ${answered.toLocaleString('en-US')} / ${count.toLocaleString('en-US')} receipts in ${seconds.toFixed(0)} s`,
      );
    },
  });
  const problems = loadProblems(result);
  if (problems) throw new Error(`seeding the sandbox failed: ${problems}`);
  const seconds = (performance.now() - started) / 1000;
  return { done: result.ok, seconds, complete: result.ok >= count };
}
