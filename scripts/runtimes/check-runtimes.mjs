#!/usr/bin/env node
// Proves the built @fflkit/sdk and the web build of @fflkit/webhooks on Deno, Bun and
// workerd (miniflare 4), against a sandbox on 127.0.0.1. In each runtime, probe-worker.mjs:
//
// 1. registers an endpoint for receipt.created at its own /webhooks with the SDK, creates a
//    receipt and reads it back (the two must be equal);
// 2. receives the sandbox's real delivery of that receipt.created and verifies it with the web
//    build; the sandbox must record a 200, and the handler must have seen the receipt under the
//    delivery's id;
// 3. answers the sandbox's redelivery of it 200 as a duplicate (its handler is not called again);
// 4. answers a delivery with a forged signature 401 `signature_mismatch`.
//
// Run by scripts/runtimes/run.sh, which installs the runtimes into .ci/.runtimes; it needs Node 22
// or later (miniflare 4) and the packages built (`pnpm build`). Exits 1 at the first failure.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSandbox } from '@fflkit/sandbox';
import { build } from 'esbuild';

const internals = {
  here: fileURLToPath(new URL('.', import.meta.url)),
  root: fileURLToPath(new URL('../..', import.meta.url)),
  /** How long a runtime may take to start, and a delivery to be recorded. */
  deadlineMs: 10_000,
};
internals.modules = join(internals.root, '.ci', '.runtimes', 'node_modules');

const RUNTIMES = [
  {
    name: 'Deno',
    version: async () => (await output(bin('deno'), ['--version'])).split('\n')[0],
    // Only the network of 127.0.0.1: no --allow-env (the SDK is given its token and base URL) and
    // no --allow-read (modules load without it).
    launch: () =>
      spawnServer(bin('deno'), ['run', '--no-lock', '--allow-net=127.0.0.1', join(internals.here, 'serve-probe.mjs')]),
  },
  {
    name: 'Bun',
    version: async () => `bun ${await output(bin('bun'), ['--version'])}`,
    launch: () => spawnServer(bin('bun'), [join(internals.here, 'serve-probe.mjs')]),
  },
  {
    name: 'workerd',
    version: async () => {
      const require = createRequire(join(internals.modules, 'miniflare', 'package.json'));
      const workerd = require('workerd/package.json').version;
      return `workerd ${workerd} under miniflare ${require('./package.json').version}`;
    },
    launch: startMiniflare,
  },
];

const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
let failed = false;
try {
  for (const runtime of RUNTIMES) {
    const started = performance.now();
    const version = await runtime.version();
    const server = await runtime.launch();
    try {
      const summary = await check(runtime.name, server.origin);
      console.log(`${runtime.name} (${version}): ${summary} [${Math.round(performance.now() - started)} ms]`);
    } catch (error) {
      failed = true;
      console.error(`${runtime.name} (${version}) failed: ${error instanceof Error ? error.message : String(error)}`);
      if (server.output()) console.error(`Its output:\n${server.output()}`);
      break;
    } finally {
      await server.stop();
    }
  }
} finally {
  await sandbox.stop();
}
process.exitCode = failed ? 1 : 0;

/** The four steps above against the probe served at `origin`; resolves to a line saying what was seen. */
async function check(name, origin) {
  const { token } = await sandbox.createAccount({ name: `Runtime check on ${name}` });
  const serialNumber = `RT${name.toUpperCase()}0001`;

  const probe = await request(`${origin}/probe`, {
    method: 'POST',
    body: JSON.stringify({ apiUrl: sandbox.apiUrl, token, serialNumber }),
  });
  const { created, read, userAgent } = probe.body;
  expect(probe.status === 200, `POST /probe answered ${probe.status}: ${JSON.stringify(probe.body)}`);
  expect(created.serial_number === serialNumber && created.record === 1, `the SDK created ${JSON.stringify(created)}`);
  expect(
    JSON.stringify(read) === JSON.stringify(created),
    `the SDK read back ${JSON.stringify(read)}, not the receipt it created`,
  );

  const delivery = await recorded(token, 1);
  expect(
    delivery.state === 'succeeded' && delivery.attempts[0].status_code === 200,
    `the delivery was answered ${describe(delivery)}`,
  );
  const seen = [{ deliveryId: delivery.id, receiptId: created.id, serialNumber }];
  const after = await request(`${origin}/received`);
  expect(
    JSON.stringify(after.body) === JSON.stringify(seen),
    `the handler saw ${JSON.stringify(after.body)}, not ${JSON.stringify(seen)}`,
  );

  const redelivered = await sandbox.deliveries.redeliver(token, delivery.id);
  expect(
    redelivered.attempts.map((attempt) => attempt.status_code).join() === '200,200',
    `the redelivery was answered ${describe(redelivered)}`,
  );
  const afterRedelivery = await request(`${origin}/received`);
  expect(
    JSON.stringify(afterRedelivery.body) === JSON.stringify(seen),
    `the redelivery reached the handler again: ${JSON.stringify(afterRedelivery.body)}`,
  );

  const forged = await request(`${origin}/webhooks`, {
    method: 'POST',
    body: JSON.stringify({ event: 'receipt.created', timestamp: new Date().toISOString(), data: created }),
    headers: {
      'X-SVC-Event': 'receipt.created',
      'X-SVC-Delivery': crypto.randomUUID(),
      'X-SVC-Signature': `sha256=${'0'.repeat(64)}`,
    },
  });
  expect(
    forged.status === 401 && forged.body.outcome === 'signature_mismatch',
    `a forged signature was answered ${forged.status} ${JSON.stringify(forged.body)}`,
  );

  return (
    `${userAgent}: the SDK created receipt ${created.id} (record ${created.record}) and read it back; ` +
    `delivery ${delivery.id} verified and answered 200 in ${delivery.attempts[0].duration_ms} ms, ` +
    `its redelivery answered 200 as a duplicate; a forged signature answered 401 signature_mismatch`
  );
}

/** The account's receipt.created delivery once the sandbox has recorded `attempts` attempts of it. */
async function recorded(token, attempts) {
  const until = Date.now() + internals.deadlineMs;
  for (;;) {
    const delivery = (await sandbox.deliveries.list(token)).find((candidate) => candidate.event === 'receipt.created');
    if (delivery !== undefined && delivery.attempts.length >= attempts) return delivery;
    if (Date.now() > until)
      throw new Error(`no attempt of the receipt.created delivery was recorded within ${internals.deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts a runtime that serves the probe and prints {"port": N} first; its output is kept for a failure. */
async function spawnServer(command, args) {
  const child = spawn(command, args, { cwd: internals.root, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await Promise.race([
    new Promise((resolve) => lines.once('line', (line) => resolve(JSON.parse(line).port))),
    exited.then((code) => Promise.reject(new Error(`${command} exited with ${code} before it listened:\n${log}`))),
    timeout(`${command} did not listen within ${internals.deadlineMs} ms:\n${log}`),
  ]);
  lines.on('line', (line) => (log += `${line}\n`));
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => log,
    async stop() {
      child.kill();
      await exited;
    },
  };
}

/** Bundles the probe for workerd as wrangler would (its export conditions) and serves it with miniflare. */
async function startMiniflare() {
  const { outputFiles } = await build({
    entryPoints: [join(internals.here, 'probe-worker.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const { Miniflare } = await import(
    pathToFileURL(join(internals.modules, 'miniflare', 'dist', 'src', 'index.js')).href
  );
  let log = '';
  const miniflare = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    modules: true,
    script: outputFiles[0].text,
    compatibilityDate: '2025-09-01',
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', (chunk) => (log += chunk));
      stderr.on('data', (chunk) => (log += chunk));
    },
  });
  const url = await miniflare.ready;
  return { origin: url.origin, output: () => log, stop: () => miniflare.dispose() };
}

async function request(url, init = {}) {
  const response = await fetch(url, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

async function output(command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited with ${code}: is it installed? scripts/runtimes/run.sh installs it.`,
    );
  return text.trim();
}

function bin(name) {
  return join(internals.modules, '.bin', name);
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

function describe(delivery) {
  return `${delivery.state}, attempts ${JSON.stringify(delivery.attempts.map((attempt) => attempt.status_code ?? attempt.error))}`;
}

function timeout(message) {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(message)), internals.deadlineMs).unref());
}
