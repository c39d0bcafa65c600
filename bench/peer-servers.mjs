// Starts the peers the sandbox is measured against: json-server 1.x, Prism's mock of the
// contract, the bare node:http and Hapi servers, and the smallest Node server (the floor of a
// cold start, plain and from a startup snapshot). Each resolves once the server answers a 200, with the
// time from spawn to that answer (`readyMs`).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnServer } from './spawn-server.mjs';

const JSON_SERVER_BIN = fileURLToPath(new URL('node_modules/json-server/lib/bin.js', import.meta.url));
const PRISM_BIN = fileURLToPath(new URL('node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));
const BARE_SERVER = fileURLToPath(new URL('bare-server.mjs', import.meta.url));
const BARE_HAPI_SERVER = fileURLToPath(new URL('bare-hapi-server.mjs', import.meta.url));
const FLOOR_SERVER = fileURLToPath(new URL('floor-server.cjs', import.meta.url));

/** The contract Prism mocks. */
export const OPENAPI_FILE = fileURLToPath(new URL('../openapi/openapi.yaml', import.meta.url));

/** Any bearer token satisfies Prism's security check. */
export const PRISM_HEADERS = { authorization: 'Bearer bench' };

/**
 * json-server on `dbFile`. NODE_ENV=production turns off its file watcher (which re-reads the
 * whole file after every change) and its per-request static file lookups: the peer runs in its
 * fastest configuration. In production it needs a `public` folder in its working directory.
 */
export async function startJsonServer(dbFile, { timeoutMs = 60_000 } = {}) {
  const cwd = dirname(dbFile);
  await mkdir(join(cwd, 'public'), { recursive: true });
  const port = await freePort();
  const server = spawnServer('json-server', [JSON_SERVER_BIN, dbFile, '--port', String(port), '--host', '127.0.0.1'], {
    cwd,
    env: { NODE_ENV: 'production' },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const readyMs = await server.pollUntil(`${baseUrl}/receipts?_page=1&_per_page=1`, { timeoutMs });
  return { server, baseUrl, readyMs };
}

/**
 * `prism mock openapi.yaml` (static examples). Logging is cut to errors, since Prism logs
 * every request at its default level: again the peer's fastest configuration.
 */
export async function startPrism({ timeoutMs = 60_000 } = {}) {
  const port = await freePort();
  const server = spawnServer('Prism', [
    PRISM_BIN,
    'mock',
    OPENAPI_FILE,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--verboseLevel',
    'error',
  ]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const readyMs = await server.pollUntil(`${baseUrl}/books`, { headers: PRISM_HEADERS, timeoutMs });
  return { server, baseUrl, readyMs };
}

/**
 * The bare node:http server answering `recorded` (`{ status, headers, body }`, body a Buffer)
 * to every request. `scratchDir` holds the recording for the child process.
 */
export function startBareServer(recorded, scratchDir, options) {
  return startRecordingServer('bare node:http', BARE_SERVER, recorded, scratchDir, options);
}

/**
 * A bare Hapi route answering `recorded` to `GET /rest/v1/receipts` (see bare-hapi-server.mjs).
 * `scratchDir` holds the recording for the child process.
 */
export function startBareHapiServer(recorded, scratchDir, options) {
  return startRecordingServer('bare Hapi', BARE_HAPI_SERVER, recorded, scratchDir, options);
}

async function startRecordingServer(label, script, recorded, scratchDir, { timeoutMs = 10_000 } = {}) {
  const responseFile = `${scratchDir}/recorded-response.json`;
  await writeFile(
    responseFile,
    JSON.stringify({
      status: recorded.status,
      headers: recorded.headers,
      body_base64: recorded.body.toString('base64'),
    }),
  );
  const port = await freePort();
  const server = spawnServer(label, [script, '--port', String(port), '--response', responseFile]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const readyMs = await server.pollUntil(`${baseUrl}/rest/v1/receipts`, {
    accept: (status) => status === recorded.status,
    timeoutMs,
  });
  return { server, baseUrl, readyMs };
}

/**
 * The smallest Node server (floor-server.cjs) on `node` (this process's Node by default), or,
 * with `snapshotBlob`, started from that startup snapshot of it (see {@link buildFloorSnapshot}):
 * what any Node server's start costs on this machine, before a line of its own.
 */
export async function startNodeFloor({ node = process.execPath, snapshotBlob, timeoutMs = 10_000 } = {}) {
  const port = String(await freePort());
  const args = snapshotBlob === undefined ? [FLOOR_SERVER, port] : ['--snapshot-blob', snapshotBlob, port];
  const server = spawnServer(snapshotBlob === undefined ? 'Node floor' : 'snapshot floor', args, { command: node });
  const readyMs = await server.pollUntil(`http://127.0.0.1:${port}/`, { timeoutMs });
  return { server, readyMs };
}

/** Builds the startup snapshot of floor-server.cjs with `node` into `blob` (about a second). */
export function buildFloorSnapshot(node, blob) {
  execFileSync(node, ['--snapshot-blob', blob, '--build-snapshot', FLOOR_SERVER], { stdio: 'pipe' });
}
