#!/usr/bin/env node
// Checks the single executable of the sandbox (`pnpm build:binary`) as a tester without Node
// would run it: copied alone into a folder of its own, run from another folder with an empty
// environment (no PATH, no HOME), beside a decoy console folder that it must not serve. It
// answers --version and the help of every command its --help lists; serves the API, the
// control API and the console from its embedded files; runs export, trigger, tail and
// check-receiver against itself and a receiver of @fflkit/webhooks; loads the exported fixtures
// (YAML) into another start; keeps its data across a restart; stops on SIGINT and on SIGTERM
// with exit 0 and no journal left; and makes new secrets at every start (a startup snapshot
// must not hold the state of a random source). Prints a line per check; exits 1 at the first
// that fails.
//
//   node scripts/check-binary.mjs [executable]   (packages/sandbox/binary/out/fflkit-sandbox by default)
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebhookHandler, toNodeListener } from '@fflkit/webhooks';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = resolve(process.argv[2] ?? join(root, 'packages/sandbox/binary/out/fflkit-sandbox'));
const { version } = JSON.parse(readFileSync(join(root, 'packages/sandbox/package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'fflkit-binary-'));
const binDir = join(work, 'bin');
const runDir = join(work, 'run');
const executable = join(binDir, 'fflkit-sandbox');
/** What the executable gets of the environment: nothing, not even PATH. */
const ENV = {};
const DECOY = '<!doctype html><title>decoy: served from the disk, not from the executable</title>';
const running = new Set();

function check(title, ok, detail = '') {
  if (!ok) throw new Error(`${title}${detail ? `: ${detail}` : ''}`);
  console.log(`ok  ${title}`);
}

/** Runs the executable to its end: `{ status, stdout, stderr }`. */
function run(args, options = {}) {
  return spawnSync(executable, args, { cwd: runDir, env: ENV, encoding: 'utf8', timeout: 60_000, ...options });
}

/** Starts the executable and waits for its banner; resolves with the child, its origin and the banner. */
async function start(args) {
  const child = spawn(executable, ['--port', '0', ...args], { cwd: runDir, env: ENV });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const deadline = Date.now() + 30_000;
  while (!/Press Ctrl-C to stop/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the sandbox did not start:\n${output}`);
    await new Promise((done) => setTimeout(done, 10));
  }
  const origin = output.match(/listening on (http:\/\/[^/\s]+)\/rest\/v1/)?.[1];
  return { child, origin, banner: output, exited, output: () => output };
}

/** Sends `signal` and resolves with how the process ended, failing after 10 s. */
async function stop(started, signal) {
  started.child.kill(signal);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 10_000);
  const ended = await started.exited;
  clearTimeout(timer);
  return ended;
}

async function call(url, { token, method = 'GET', body } = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

const tokenOf = (banner) => banner.match(/^ {2}(sbx_\w+)$/m)?.[1];

const RECEIPT = {
  book: 'Main',
  serial_number: 'BIN0012345',
  manufacturer: 'Example Arms Co.',
  model: 'EX-9 Compact',
  type: 'Pistol',
  caliber: '9mm Luger',
  receipt_date: '2025-03-14',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
};

async function main() {
  mkdirSync(join(binDir, 'console', 'assets'), { recursive: true });
  mkdirSync(runDir);
  copyFileSync(built, executable);
  spawnSync('chmod', ['755', executable]);
  writeFileSync(join(binDir, 'console', 'index.html'), DECOY);
  console.log(
    `${built}: ${(statSync(built).size / 1e6).toFixed(1)} MB, run as ${executable} from ${runDir} with an empty environment`,
  );

  const versionRun = run(['--version']);
  check(
    `--version answers ${version}`,
    versionRun.status === 0 && versionRun.stdout.trim() === version,
    versionRun.stdout + versionRun.stderr,
  );
  const help = run(['--help']);
  const commands = help.stdout.match(/\(commands: ([^)]+)\)/)?.[1].split(', ') ?? [];
  check(`--help lists the commands (${commands.join(', ')})`, help.status === 0 && commands.length > 0, help.stderr);
  for (const command of commands) {
    const answered = run([command, '--help']);
    check(
      `${command} --help`,
      answered.status === 0 && answered.stdout.includes(`fflkit-sandbox ${command}`),
      answered.stderr,
    );
  }
  const wrong = run(['no-such-command']);
  check('a wrong command exits 2 with the usage', wrong.status === 2 && wrong.stderr.includes('Usage:'), wrong.stderr);

  // A receiver of @fflkit/webhooks, for trigger and check-receiver.
  let secret;
  const received = [];
  const receiver = createServer(
    toNodeListener(
      createWebhookHandler({
        secret: () => secret,
        on: { 'receipt.created': (event) => void received.push(event.data.serial_number) },
      }),
    ),
  );
  await new Promise((done) => receiver.listen(0, '127.0.0.1', done));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`;

  try {
    const data = join(runDir, 'data', 'sandbox.json');
    const first = await start(['--data', data]);
    const token = tokenOf(first.banner);
    const { origin } = first;
    check(
      `starts on a new data file and prints a token (${origin})`,
      token !== undefined && origin !== undefined,
      first.banner,
    );
    const health = await call(`${origin}/_sandbox/health`);
    check(
      'GET /_sandbox/health answers 200 with the version',
      health.status === 200 && health.text.includes(version),
      health.text,
    );
    const books = await call(`${origin}/rest/v1/books`, { token });
    check('an authenticated GET /rest/v1/books answers 200', books.status === 200, books.text);
    const created = await call(`${origin}/rest/v1/receipts`, { token, method: 'POST', body: RECEIPT });
    check('POST /rest/v1/receipts answers 201', created.status === 201, created.text);
    const receiptId = JSON.parse(created.text).data.id;

    const page = await call(`${origin}/`);
    const assets = [...page.text.matchAll(/\/assets\/[\w.-]+/g)].map(([path]) => path);
    check(
      'GET / answers the console from the executable (not the decoy beside it), under its CSP',
      page.status === 200 &&
        !page.text.includes('decoy') &&
        assets.length >= 2 &&
        page.headers.get('content-security-policy')?.includes("default-src 'none'"),
      page.text.slice(0, 200),
    );
    for (const asset of assets) {
      const answered = await call(`${origin}${asset}`);
      check(
        `GET ${asset} answers 200`,
        answered.status === 200 && answered.text.length > 0,
        answered.text.slice(0, 200),
      );
    }

    // The MCP endpoint's server is loaded at its first call: it must be inside the executable.
    const mcp = await fetch(`${origin}/_sandbox/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'check-binary', version: '1' } },
      }),
    });
    const mcpText = await mcp.text();
    check(
      'POST /_sandbox/mcp initializes an MCP session',
      mcp.status === 200 && mcpText.includes('"serverInfo"') && mcpText.includes('"fflkit"'),
      `${mcp.status} ${mcpText.slice(0, 300)}`,
    );

    const exported = join(runDir, 'exported.yaml');
    const exportRun = await runAsync(['export', '--token', token, '--url', origin, '--out', exported]);
    check(
      'export writes the account as a YAML fixtures file',
      exportRun.status === 0 && readFileSync(exported, 'utf8').includes(RECEIPT.serial_number),
      exportRun.stderr,
    );

    const endpoint = await call(`${origin}/rest/v1/webhooks`, {
      token,
      method: 'POST',
      body: { url: receiverUrl, events: ['*'] },
    });
    secret = JSON.parse(endpoint.text).secret;
    const triggered = await runAsync(['trigger', 'receipt.created', '--token', token, '--url', origin]);
    check(
      'trigger receipt.created delivers to the receiver, signed',
      triggered.status === 0 && received.length === 1,
      triggered.stdout + triggered.stderr,
    );

    const tail = spawn(executable, ['tail', '--token', token, '--url', origin], { cwd: runDir, env: ENV });
    running.add(tail);
    let tailed = '';
    tail.stdout.setEncoding('utf8').on('data', (chunk) => (tailed += chunk));
    const tailEnded = new Promise((done) => tail.once('exit', (code) => done(code)));
    await waitFor(async () => {
      await call(`${origin}/rest/v1/receipts/${receiptId}`, { token });
      return tailed.includes(`GET /rest/v1/receipts/${receiptId} 200`);
    }, 'tail shows the request');
    tail.kill('SIGINT');
    check('tail follows the requests and exits 0 on SIGINT', (await tailEnded) === 0, tailed);

    const checked = await runAsync(['check-receiver', receiverUrl, '--secret', secret]);
    check(
      'check-receiver passes a receiver of @fflkit/webhooks',
      checked.status === 0,
      checked.stdout + checked.stderr,
    );

    const interrupted = await stop(first, 'SIGINT');
    const journal = readdirSync(join(runDir, 'data')).filter((name) => name.includes('.journal'));
    check(
      'SIGINT stops it with exit 0, its journal folded',
      interrupted.code === 0 && journal.length === 0,
      `${JSON.stringify(interrupted)} ${journal}`,
    );

    const again = await start(['--data', data]);
    const kept = await call(`${again.origin}/rest/v1/receipts/${receiptId}`, { token });
    check(
      'a restart on the same data file has the receipt',
      kept.status === 200 && kept.text.includes(RECEIPT.serial_number),
      kept.text,
    );
    const terminated = await stop(again, 'SIGTERM');
    check('SIGTERM stops it with exit 0', terminated.code === 0, JSON.stringify(terminated));

    const fromFixtures = await start(['--memory', '--fixtures', exported]);
    const loaded = await call(`${fromFixtures.origin}/rest/v1/receipts?serial_number=${RECEIPT.serial_number}`, {
      token,
    });
    check(
      '--fixtures loads the exported YAML into memory, token included',
      loaded.status === 200 && JSON.parse(loaded.text).meta.total === 1,
      loaded.text,
    );
    await stop(fromFixtures, 'SIGTERM');

    const tokens = [];
    for (let round = 0; round < 2; round++) {
      const fresh = await start(['--memory']);
      tokens.push(tokenOf(fresh.banner));
      await stop(fresh, 'SIGTERM');
    }
    check('two starts make two different tokens', tokens[0] !== undefined && tokens[0] !== tokens[1], tokens.join(' '));
  } finally {
    receiver.close();
  }
}

/** Runs the executable without blocking this process (the receiver above must answer meanwhile). */
function runAsync(args) {
  return new Promise((done) => {
    const child = spawn(executable, args, { cwd: runDir, env: ENV });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (status) => {
      clearTimeout(timer);
      running.delete(child);
      done({ status, stdout, stderr });
    });
  });
}

async function waitFor(condition, what) {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

if (!existsSync(built)) {
  console.error(`[@fflkit/sandbox] ${built} is missing: run pnpm build:binary first.`);
  process.exit(1);
}
try {
  await main();
  console.log('The single executable passed every check.');
  rmSync(work, { recursive: true, force: true });
} catch (error) {
  console.error(`FAILED: ${error.message}\n(kept ${work})`);
  process.exitCode = 1;
} finally {
  for (const child of running) child.kill('SIGKILL');
}
