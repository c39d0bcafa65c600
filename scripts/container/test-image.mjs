#!/usr/bin/env node
// CI's proof of the sandbox's container image, with podman: builds it (scripts/build-image.mjs,
// after `pnpm build`), then runs it as a user would and checks, printing the evidence of each:
// its size and cold start beside the CLI's; health through a port published on 127.0.0.1 and
// the image's own health check; the sandbox as PID 1 of a user that is not root; a receipt made
// through the port surviving a restart, a SIGKILL and a new container on the same volume;
// SIGTERM exiting 0 with the journal folded; the data file and its lock 0600 and the user's;
// a fixtures file and variables from mounts and -e; the compose example's sandbox reached by its
// app by name; and the attacks: a second container on the same volume, a read-only volume, a
// volume owned by root, a foreign Host header, a service name refused until
// FFLKIT_SANDBOX_ALLOWED_HOSTS names it. Everything it made (containers, volumes, the image) is
// removed at the end, whatever happens.
//   node scripts/container/test-image.mjs
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { buildImage, IMAGE_USER } from '../build-image.mjs';
import { containerEngine } from './engine.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'packages/sandbox/dist/cli.cjs');
const composeDir = join(root, 'packages/sandbox/container');
const run = `fflkit-ci-${process.pid}`;
const image = `localhost/fflkit-sandbox:${run}`;
const scratch = mkdtempSync(join(tmpdir(), 'fflkit-image-test-'));
const engine = containerEngine({ ...process.env, FFLKIT_CONTAINER_ENGINE: 'podman' });
const made = { containers: new Set(), volumes: new Set() };
const RECEIPT = {
  book: 'Main',
  serial_number: 'IMG0000001',
  manufacturer: 'Example Arms Co.',
  model: 'EX-9',
  type: 'Pistol',
  caliber: '9mm Luger',
  receipt_date: '2025-03-14',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
};
const FIXTURES_TOKEN = 'sbx_ci0000000000000000000000000001';

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function report(name, evidence) {
  process.stdout.write(`ok  ${name}${evidence === undefined ? '' : `\n    ${evidence.replace(/\n/g, '\n    ')}`}\n`);
}

const podman = (...args) => engine.run(args).stdout.trim();

/** One HTTP request on 127.0.0.1 (node:http, so that the Host header is the test's to set). */
function http(port, path, { method = 'GET', headers = {}, body } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method, headers, timeout: 5_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, text, json: () => JSON.parse(text) }));
    });
    sent.on('timeout', () => sent.destroy(new Error(`${method} ${path} timed out`)));
    sent.on('error', reject);
    if (payload !== undefined) sent.setHeader('content-type', 'application/json');
    sent.end(payload);
  });
}

const authorized = (token) => ({ authorization: `Bearer ${token}` });

/** Polls GET /_sandbox/health on `port` until it answers 200; resolves with the milliseconds since `since`. */
async function healthy(port, since, timeoutMs = 30_000) {
  for (;;) {
    const answer = await http(port, '/_sandbox/health').catch(() => undefined);
    if (answer?.status === 200) return performance.now() - since;
    if (performance.now() - since > timeoutMs) throw new Error(`no health answer on port ${port} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `podman run -d` of the image as `name`, with `options` before the image; the container is removed at the end. */
function start(name, options = []) {
  made.containers.add(name);
  return podman('run', '--detach', '--name', name, ...options, image);
}

/** Runs the image to its end, then removes it; returns its exit code and what it printed (podman's own log lines aside). */
function runToEnd(options = [], args = []) {
  const { status, stdout, stderr } = engine.run(['run', '--rm', ...options, image, ...args], { allowFailure: true });
  return { code: status, output: `${stdout}${stderr}`.replace(/^time=.*level=.*\n?/gm, '').trim() };
}

/** Waits until the image's own health check passes in the container `name` (one without a published port). */
async function healthCheckPasses(name, timeoutMs = 30_000) {
  const since = performance.now();
  while (engine.run(['healthcheck', 'run', name], { allowFailure: true }).status !== 0) {
    if (performance.now() - since > timeoutMs) throw new Error(`${name} was not healthy within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * From another container, GET `url` (whose host is `sandbox`) with `headers`, `sandbox` being the
 * address of the container `name`, as a compose service reaches another by its name.
 */
function fromAnotherContainer(name, url = 'http://sandbox:4010/_sandbox/health', headers = {}) {
  const address = podman('inspect', '--format', '{{.NetworkSettings.IPAddress}}', name);
  const script = `fetch(${JSON.stringify(url)}, { headers: ${JSON.stringify(headers)} }).then(async (r) => {
  console.log(r.status, await r.text());
  process.exitCode = r.status === 200 ? 0 : 1;
})`;
  return runToEnd(['--add-host', `sandbox:${address}`, '--entrypoint', '/usr/local/bin/node'], ['-e', script]);
}

/**
 * The options of `run` for a service of the compose example (packages/sandbox/container/compose.yaml):
 * its environment, and its volumes, a named volume standing for the compose file's own.
 */
function composeService(service, namedVolume) {
  const options = Object.entries(service.environment ?? {}).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
  for (const mount of service.volumes ?? []) {
    const [source, ...rest] = mount.split(':');
    const from = source.startsWith('.') ? resolve(composeDir, source) : volume(`${namedVolume}-${source}`);
    options.push('--volume', [from, ...rest].join(':'));
  }
  return options;
}

function volume(name) {
  made.volumes.add(name);
  podman('volume', 'create', name);
  return name;
}

/** Lists a folder inside the image (on `mount`) with each file's mode and owner, by the image's own Node. */
function listFiles(mount, folder) {
  const script = `const fs = require('node:fs');
for (const name of fs.readdirSync(${JSON.stringify(folder)}).sort()) {
  const s = fs.statSync(${JSON.stringify(folder)} + '/' + name);
  console.log(JSON.stringify({ name, mode: (s.mode & 0o777).toString(8), uid: s.uid, gid: s.gid }));
}`;
  const output = podman('run', '--rm', '--volume', mount, '--entrypoint', '/usr/local/bin/node', image, '-e', script);
  return output ? output.split('\n').map((line) => JSON.parse(line)) : [];
}

/** Reads PID 1 of a running container: its command line and its user. */
function pidOne(name) {
  const script = `const fs = require('node:fs');
console.log(JSON.stringify({ cmdline: fs.readFileSync('/proc/1/cmdline', 'utf8').split('\\0').filter(Boolean), uid: fs.readFileSync('/proc/1/status', 'utf8').match(/^Uid:\\s+(\\d+)/m)[1] }));`;
  return JSON.parse(podman('exec', name, '/usr/local/bin/node', '-e', script));
}

const tokenIn = (name) => podman('logs', name).match(/\bsbx_[A-Za-z0-9]+/)?.[0];
const exitCode = (name) => Number(podman('inspect', '--format', '{{.State.ExitCode}}', name));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/** The CLI's cold start, spawn to health, on a fresh data file: what the image is compared with. */
async function cliColdStart(round) {
  const port = await freePort();
  const data = join(scratch, `cli-${round}`, 'sandbox.json');
  const since = performance.now();
  const child = spawn(process.execPath, [cli, '--port', String(port), '--data', data, '--quiet'], { stdio: 'ignore' });
  try {
    return await healthy(port, since);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main() {
  const size = await buildImage(engine, [image]);
  const bundle = statSync(join(root, 'packages/sandbox/dist/cli-program.cjs')).size;
  report(
    `built ${image} with podman, FROM scratch`,
    `image ${megabytes(size)}: Node ${megabytes(statSync(process.execPath).size)} and its libraries, the sandbox's bundle ${megabytes(bundle)}, the console`,
  );

  // Cold start: run to health, each on a fresh volume, taking turns with the CLI.
  const imageTimes = [];
  const cliTimes = [];
  for (let round = 0; round < 3; round++) {
    const port = await freePort();
    const since = performance.now();
    start(`${run}-cold-${round}`, [
      '--publish',
      `127.0.0.1:${port}:4010`,
      '--volume',
      `${volume(`${run}-cold-${round}`)}:/data`,
    ]);
    imageTimes.push(await healthy(port, since));
    podman('rm', '--force', '--volumes', `${run}-cold-${round}`);
    cliTimes.push(await cliColdStart(round));
  }
  report(
    'cold start, run to health (median of 3)',
    `image: ${median(imageTimes).toFixed(0)} ms (podman run, a new volume); CLI: ${median(cliTimes).toFixed(0)} ms (node packages/sandbox/dist/cli.cjs, a new data file)`,
  );

  // The sandbox as a user runs it: a named volume, a published port.
  const data = volume(`${run}-data`);
  const port = await freePort();
  const main = `${run}-main`;
  start(main, ['--publish', `127.0.0.1:${port}:4010`, '--volume', `${data}:/data`]);
  await healthy(port, performance.now());
  const health = await http(port, '/_sandbox/health');
  check(health.json().data.status === 'ok', `health answered ${health.text}`);
  const healthCheck = engine.run(['healthcheck', 'run', main], { allowFailure: true });
  check(healthCheck.status === 0, `the image's health check failed: ${healthCheck.stderr}`);
  report(
    `GET http://127.0.0.1:${port}/_sandbox/health through the published port, and the image's HEALTHCHECK`,
    `${health.status} ${health.text}; podman healthcheck run: ${healthCheck.stdout.trim() || 'healthy'}`,
  );

  const page = await http(port, '/');
  const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
  check(page.status === 200 && assets.length > 0, `GET / answered ${page.status} with ${assets.length} assets`);
  const assetStatuses = await Promise.all(assets.map(async (asset) => (await http(port, asset)).status));
  check(
    assetStatuses.every((status) => status === 200),
    `the console's assets answered ${assetStatuses.join(', ')}`,
  );
  report(
    'the console is served from the image',
    `GET / 200, ${assets.map((a, i) => `${a} ${assetStatuses[i]}`).join(', ')}`,
  );

  const process1 = pidOne(main);
  check(process1.uid === String(IMAGE_USER.id), `PID 1 runs as uid ${process1.uid}`);
  check(process1.cmdline[0] === '/usr/local/bin/node', `PID 1 is ${process1.cmdline.join(' ')}`);
  report('the sandbox is PID 1, not root', `PID 1: ${process1.cmdline.join(' ')}, uid ${process1.uid}`);

  const token = tokenIn(main);
  check(token !== undefined, 'the banner printed no token');
  const created = await http(port, '/rest/v1/receipts', { method: 'POST', headers: authorized(token), body: RECEIPT });
  check(created.status === 201, `POST /rest/v1/receipts answered ${created.status} ${created.text}`);
  const receipt = created.json().data;
  report('a receipt made through the port', `201, receipt ${receipt.id}, serial ${receipt.serial_number}`);

  const running = listFiles(`${data}:/data`, '/data/.fflkit');
  for (const file of running) {
    check(file.mode === '600' && file.uid === IMAGE_USER.id, `${file.name} is ${file.mode} of uid ${file.uid}`);
  }
  check(
    running.some((file) => file.name === 'sandbox.json.lock'),
    'no lock file while the sandbox runs',
  );
  report(
    'the data file, its journal and its lock are 0600 and the sandbox user’s',
    running.map((f) => `${f.name} ${f.mode} uid ${f.uid}`).join('\n'),
  );

  // SIGTERM: a clean stop within the grace period (a SIGKILL would exit 137).
  let since = performance.now();
  podman('stop', '--time', '10', main);
  const stopMs = performance.now() - since;
  check(exitCode(main) === 0, `SIGTERM exited ${exitCode(main)}`);
  const stopped = listFiles(`${data}:/data`, '/data/.fflkit');
  check(stopped.length === 1 && stopped[0].name === 'sandbox.json', `left ${stopped.map((f) => f.name).join(', ')}`);
  check(
    stopped[0].mode === '600' && stopped[0].uid === IMAGE_USER.id,
    `sandbox.json is ${stopped[0].mode} of uid ${stopped[0].uid}`,
  );
  report(
    'podman stop (SIGTERM): exit 0, journal folded, lock released',
    `stopped in ${stopMs.toFixed(0)} ms; the volume holds ${stopped.map((f) => `${f.name} ${f.mode} uid ${f.uid}`).join(', ')}`,
  );

  since = performance.now();
  podman('start', main);
  await healthy(port, since);
  const again = await http(port, `/rest/v1/receipts/${receipt.id}`, { headers: authorized(token) });
  check(
    again.status === 200 && again.json().data.serial_number === RECEIPT.serial_number,
    `after a restart: ${again.status} ${again.text}`,
  );
  report(
    'the receipt survives a restart on the same volume',
    `GET /rest/v1/receipts/${receipt.id}: ${again.status}, serial ${again.json().data.serial_number}`,
  );

  // SIGKILL: nothing folded, the lock left behind; an acknowledged write is kept all the same.
  const second = await http(port, '/rest/v1/receipts', {
    method: 'POST',
    headers: authorized(token),
    body: { ...RECEIPT, serial_number: 'IMG0000002' },
  });
  check(second.status === 201, `the second POST answered ${second.status}`);
  podman('kill', '--signal', 'KILL', main);
  const killed = listFiles(`${data}:/data`, '/data/.fflkit').map((f) => f.name);
  check(killed.includes('sandbox.json.lock'), `after SIGKILL the volume holds ${killed.join(', ')}`);
  since = performance.now();
  podman('start', main);
  const restartMs = await healthy(port, since);
  const afterKill = await http(port, `/rest/v1/receipts?per_page=10`, { headers: authorized(token) });
  check(afterKill.json().meta.total === 2, `after SIGKILL and a restart: ${afterKill.text}`);
  podman('kill', '--signal', 'KILL', main);
  podman('rm', main);
  const successor = `${run}-successor`;
  since = performance.now();
  start(successor, ['--publish', `127.0.0.1:${port}:4010`, '--volume', `${data}:/data`]);
  const successorMs = await healthy(port, since);
  const inSuccessor = await http(port, `/rest/v1/receipts?per_page=10`, { headers: authorized(token) });
  check(inSuccessor.json().meta.total === 2, `in a new container after SIGKILL: ${inSuccessor.text}`);
  report(
    'SIGKILL, then the same container started again, then a new container on the volume',
    `left ${killed.join(', ')}; both times the lock of the killed sandbox was taken over and both receipts served (healthy after ${restartMs.toFixed(0)} ms, then ${successorMs.toFixed(0)} ms)`,
  );

  // Attack: a second container on the same volume while the first runs.
  const intruder = runToEnd(['--volume', `${data}:/data`]);
  check(
    intruder.code === 1 && intruder.output.includes('is in use by another sandbox'),
    `a second container: ${intruder.code} ${intruder.output}`,
  );
  // Polled: podman may reset connections to published ports while it removes the other container's network.
  await healthy(port, performance.now(), 10_000);
  report(
    'a second container on the same volume is refused; the first serves on',
    `exit ${intruder.code}: ${intruder.output}`,
  );

  // Attack: a foreign Host header through the published port; a service name once allowed.
  const foreign = await http(port, '/_sandbox/accounts', {
    method: 'POST',
    headers: { host: 'attacker.example' },
    body: {},
  });
  check(foreign.status === 403, `Host: attacker.example answered ${foreign.status}`);
  const refused = fromAnotherContainer(successor);
  check(
    refused.code === 1 && refused.output.startsWith('403'),
    `http://sandbox:4010 without allowed hosts: ${refused.output}`,
  );
  podman('stop', successor);
  podman('rm', successor);
  // The compose example: its sandbox service as it stands, and its app's request with the app's settings.
  const compose = parse(readFileSync(join(composeDir, 'compose.yaml'), 'utf8'));
  const composed = `${run}-compose`;
  start(composed, composeService(compose.services.sandbox, composed));
  await healthCheckPasses(composed);
  const app = compose.services.app.environment;
  const allowed = fromAnotherContainer(composed, `${app.FFLKIT_BASE_URL}/books`, authorized(app.FFLKIT_TOKEN));
  check(allowed.code === 0, `the compose example's app, GET ${app.FFLKIT_BASE_URL}/books: ${allowed.output}`);
  podman('stop', composed);
  report(
    "a foreign Host is refused; the compose example's app reaches its sandbox by name",
    `Host: attacker.example: ${foreign.status} ${foreign.text}\nhttp://sandbox:4010 from another container, without FFLKIT_SANDBOX_ALLOWED_HOSTS: ${refused.output}\ncompose.yaml's sandbox service, from the app with its FFLKIT_TOKEN, GET ${app.FFLKIT_BASE_URL}/books: ${allowed.output}`,
  );

  // Fixtures and variables from a mount and -e, in memory.
  const fixturesDir = join(scratch, 'fixtures');
  mkdirSync(fixturesDir);
  copyFileSync(join(root, 'examples/ci/test/fflkit-fixtures.yaml'), join(fixturesDir, 'fflkit-fixtures.yaml'));
  chmodSync(fixturesDir, 0o755);
  chmodSync(join(fixturesDir, 'fflkit-fixtures.yaml'), 0o644);
  const fixturesPort = await freePort();
  const withFixtures = `${run}-fixtures`;
  start(withFixtures, [
    '--publish',
    `127.0.0.1:${fixturesPort}:4010`,
    '--volume',
    `${fixturesDir}:/fixtures:ro`,
    '--env',
    'FFLKIT_SANDBOX_FIXTURES=/fixtures/fflkit-fixtures.yaml',
    '--env',
    'FFLKIT_SANDBOX_MEMORY=true',
    '--env',
    'FFLKIT_SANDBOX_QUIET=true',
  ]);
  await healthy(fixturesPort, performance.now());
  const books = await http(fixturesPort, '/rest/v1/books', { headers: authorized(FIXTURES_TOKEN) });
  check(books.status === 200, `the fixtures' token answered ${books.status} ${books.text}`);
  const names = books.json().data.map((book) => book.name);
  check(names.includes('Consignment'), `the fixtures' books are missing: ${names.join(', ')}`);
  const logs = podman('logs', withFixtures);
  check(
    logs.includes('Data: in memory only') && !/^GET /m.test(logs),
    `FFLKIT_SANDBOX_MEMORY and _QUIET were not read:\n${logs}`,
  );
  report(
    'a fixtures file from a mount, and FFLKIT_SANDBOX_MEMORY, _QUIET and _FIXTURES from -e',
    `GET /rest/v1/books with the fixtures' token: ${books.status}, books ${names.join(', ')}; the banner says "in memory only" and no request is logged`,
  );

  // Attacks on the volume: read-only, and owned by root.
  const readOnly = runToEnd(['--volume', `${data}:/data:ro`]);
  check(
    readOnly.code === 1 && /read-only file system/.test(readOnly.output),
    `a read-only volume: ${readOnly.code} ${readOnly.output}`,
  );
  const rootOwned = join(scratch, 'root-owned');
  mkdirSync(rootOwned, { mode: 0o755 });
  const byRoot = runToEnd(['--volume', `${rootOwned}:/data`]);
  check(byRoot.code === 1 && /EACCES/.test(byRoot.output), `a volume owned by root: ${byRoot.code} ${byRoot.output}`);
  report(
    'a read-only volume and a volume owned by root stop the start, saying why',
    `read-only: exit ${readOnly.code}: ${readOnly.output}\nowned by root: exit ${byRoot.code}: ${byRoot.output}`,
  );
}

async function cleanUp() {
  for (const name of made.containers) engine.run(['rm', '--force', '--volumes', name], { allowFailure: true });
  for (const name of made.volumes) engine.run(['volume', 'rm', '--force', name], { allowFailure: true });
  engine.run(['rmi', '--force', image], { allowFailure: true });
  engine.dispose();
  rmSync(scratch, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => cleanUp().finally(() => process.exit(130)));

try {
  await main();
  process.stdout.write('The container image passed every check.\n');
} catch (error) {
  process.stderr.write(`test-image: ${error.stack ?? error}\n`);
  for (const name of made.containers) {
    const logs = engine.run(['logs', name], { allowFailure: true });
    if (logs.status === 0 && (logs.stdout || logs.stderr))
      process.stderr.write(`--- logs of ${name}:\n${logs.stdout}${logs.stderr}\n`);
  }
  process.exitCode = 1;
} finally {
  await cleanUp();
}
