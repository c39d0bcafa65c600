import { EventEmitter } from 'node:events';
import type { Server as HttpServer } from 'node:http';
import { isIPv6 } from 'node:net';
import { startupSnapshot } from 'node:v8';
import { createSandboxCore } from '@fflkit/sandbox-core';
import { nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';
import { MemoryStorage } from '../persistence/memory-storage';
import * as persisterModule from '../persistence/persister';
import * as sandboxModule from '../sandbox';
import { refusalOf } from '../request-guard';
import { createSandboxServer, keepSandboxServer } from '../server';
import { parseCliArguments } from './arguments';
import { formatStartBanner, runCli } from './run-cli';

// The program of the single executable (`pnpm build:binary`, see binary/build.mjs): the CLI's
// program with every dependency inlined, run by the Node inside the executable. With a startup
// snapshot, this file runs once, on the build machine: it evaluates the modules a start needs
// (the CLI, the server, Hapi and its schemas) and the snapshot keeps them evaluated, so
// that the executable starts from that state instead of evaluating them again. It then runs the
// parts of a start that touch nothing outside the process (warmUp), so that the snapshot also
// holds the code V8 compiled for them. Last, it makes the Hapi server that the start attaches to
// its HTTP server, core and options (keepSandboxServer), so that a start does not make it.
// Nothing that holds an open handle or reads the machine (a socket, a timer, the environment,
// the clock) or draws randomness may happen before the snapshot is taken: the executable would
// start with the build machine's.

/**
 * The modules `runCli` loads lazily to start the sandbox, evaluated here so that the snapshot
 * holds them; naming them also keeps the bundler from leaving them out.
 */
const START_MODULES = [sandboxModule, persisterModule] as const;

/** A fixed moment for the warm-up's core, which must not read the build machine's clock. */
const WARM_UP_TIME = Date.UTC(2025, 2, 14, 15);

/**
 * Runs what every start runs but needs neither the network nor the machine: reading a command
 * line, a core in memory that makes an account and answers its first request (the service's
 * routing; neither checks input, so joi, loaded at its first use, stays out of the snapshot), the
 * Hapi server over it with its routes (on a stand-in for the HTTP server, never listening), and
 * the banner. The core's random bytes are zeros and its clock is fixed, so the snapshot holds no
 * entropy and no time of the build; the core and that server are dropped after. Then the server of
 * the start is made and kept, attached to nothing: what Hapi read of the machine when making it
 * (`server.info`) is set again at attach.
 */
async function warmUp(): Promise<void> {
  parseCliArguments(['--port', '0', '--data', 'sandbox.json'], {}, '/');
  const core = createSandboxCore({
    now: () => WARM_UP_TIME,
    randomBytes: (length) => new Uint8Array(length),
    sha256Hex: nodeSha256Hex,
  });
  const { token } = core.createAccount();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await core.handle({ method: 'GET', path: '/rest/v1/books', query: '', headers });
  createSandboxServer({
    core,
    persister: new persisterModule.CorePersister(core, new MemoryStorage()),
    listener: new EventEmitter() as HttpServer,
  });
  formatStartBanner({ origin: 'http://127.0.0.1:4010', data: '/sandbox.json', token });
  // Node's test of an IP address, a regular expression of every IPv6 form, runs in every start:
  // in listen(), whose host goes through dns.lookup(), and in the Host check of the first
  // request. Compiled here, its code is in the snapshot.
  for (const host of ['127.0.0.1:4010', '[::1]:4010']) refusalOf('/rest/v1/books', { host }, {});
  isIPv6('127.0.0.1');
  keepSandboxServer();
}

function main(): void {
  runCli(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`fflkit-sandbox: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

if (startupSnapshot.isBuildingSnapshot()) {
  startupSnapshot.setDeserializeMainFunction(main, START_MODULES);
  warmUp().catch((error: unknown) => {
    process.stderr.write(`fflkit-sandbox: the warm-up before the snapshot failed: ${String(error)}\n`);
    process.exit(1);
  });
} else {
  main();
}
