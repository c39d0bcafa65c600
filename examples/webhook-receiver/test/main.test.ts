import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LogbookClient } from '@fflkit/sdk';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { acquisition } from './support/acquisition';
import { forwardTo } from './support/forward-to';
import { startReceiverServer } from './support/receiver-server';

// `pnpm start` runs `tsx src/main.ts`: these tests run the same command, as a user would.

// tsx compiles main.ts and Express loads at each start: allow for a busy machine.
const START_TIMEOUT_MS = 20_000;

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
});

/** Starts the receiver as `pnpm start` does, with `env` added to this process's environment. */
function start(env: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  line(pattern: RegExp): Promise<string>;
  exit: Promise<number | null>;
} {
  const child = spawn(`${EXAMPLE_DIR}node_modules/.bin/tsx`, ['src/main.ts'], {
    cwd: EXAMPLE_DIR,
    env: { ...process.env, ...env },
  });
  let output = '';
  const waiting: (() => void)[] = [];
  const collect = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    for (const wake of waiting.splice(0)) wake();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exit = new Promise<number | null>((exited) => child.once('exit', exited));
  onTestFinished(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exit;
  });
  return {
    child,
    exit,
    async line(pattern) {
      for (;;) {
        const found = output.split('\n').find((candidate) => pattern.test(candidate));
        if (found !== undefined) return found;
        await new Promise<void>((wake) => waiting.push(wake));
      }
    },
  };
}

it(
  "pnpm start receives the sandbox's deliveries, prints each one, and stops cleanly on SIGTERM",
  async () => {
    const { token } = await sandbox.createAccount();
    const logbook = new LogbookClient({ token, baseUrl: sandbox.apiUrl });
    // The endpoint is registered before the receiver starts (its answer holds the secret the receiver
    // needs), and the receiver takes a free port of its own (PORT=0) and prints it. A forwarding
    // server holds the registered port all along: a port freed to be taken again later could be
    // taken by another process in between.
    const registered = await startReceiverServer();
    onTestFinished(() => registered.close());
    const { secret } = await logbook.webhooks.create({
      url: `${registered.origin}/webhooks`,
      events: ['receipt.created'],
    });
    const receiver = start({ FFLKIT_WEBHOOK_SECRET: secret, PORT: '0' });
    const printed = await receiver.line(/^Receiving/);
    const origin = /^Receiving Logbook webhooks at (http:\/\/127\.0\.0\.1:\d+)\/webhooks \(express\)$/.exec(
      printed,
    )?.[1];
    if (origin === undefined) throw new Error(`pnpm start printed "${printed}", not the receiver's address`);
    registered.use(forwardTo(origin));

    await logbook.receipts.create(acquisition({ serial_number: 'EXA0020001', model: 'EX-45 Full Size' }));

    await expect(receiver.line(/^receipt\.created/)).resolves.toBe(
      'receipt.created [book Main, record 1] Acquired Example Arms Co. EX-45 Full Size (EXA0020001) from Example Firearms Wholesale LLC',
    );
    receiver.child.kill('SIGTERM');
    await expect(receiver.exit).resolves.toBe(0);
  },
  START_TIMEOUT_MS,
);

it(
  'pnpm start passes fflkit-sandbox check-receiver, as a CI job runs it',
  async () => {
    const secret = 'whsec_ex4mpleCiCheck00000000000000000000000';
    const receiver = start({ FFLKIT_WEBHOOK_SECRET: secret, PORT: '0' });
    const printed = await receiver.line(/^Receiving/);
    const url = /^Receiving Logbook webhooks at (\S+) \(express\)$/.exec(printed)?.[1];
    if (url === undefined) throw new Error(`pnpm start printed "${printed}", not the receiver's address`);

    // The secret comes from the environment, as a CI job keeps it out of its logs.
    const check = spawn(`${EXAMPLE_DIR}node_modules/.bin/fflkit-sandbox`, ['check-receiver', url], {
      cwd: EXAMPLE_DIR,
      env: { ...process.env, FFLKIT_WEBHOOK_SECRET: secret },
    });
    let report = '';
    check.stdout.on('data', (chunk: Buffer) => (report += chunk.toString('utf8')));
    const code = await new Promise<number | null>((exited) => check.once('exit', exited));
    expect(report).toContain('The receiver passed: 0 failed, 0 warned, 6 passed.');
    expect(code).toBe(0);
    receiver.child.kill('SIGTERM');
    await expect(receiver.exit).resolves.toBe(0);
  },
  START_TIMEOUT_MS,
);

it(
  'pnpm start without a secret says what to set and exits with code 2',
  async () => {
    const receiver = start({ FFLKIT_WEBHOOK_SECRET: '' });
    await expect(receiver.exit).resolves.toBe(2);
    await expect(receiver.line(/FFLKIT_WEBHOOK_SECRET/)).resolves.toMatch(
      /^FFLKIT_WEBHOOK_SECRET must hold the endpoint's signing secret/,
    );
  },
  START_TIMEOUT_MS,
);
