import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/index';
import { startReceiver } from '../support/local-receiver';
import { receiptBody } from '../support/receipt-body';
import { type CliProcess, killIfRunning, spawnCli, WAIT_FOR_MS } from './spawn-cli';

// `fflkit-sandbox tail`, spawned against a real sandbox: what it prints, and how it ends.

let dir: string;
const running: CliProcess[] = [];
const started: RunningSandbox[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-tail-'));
});
afterEach(async () => {
  for (const process of running.splice(0)) await killIfRunning(process);
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function sandboxOn(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  started.push(sandbox);
  return sandbox;
}

/** A tail whose every wait for a line ends within {@link WAIT_FOR_MS}, naming the line it lacked. */
function tail(args: readonly string[]): CliProcess {
  const process = spawnCli(['tail', ...args], dir);
  running.push(process);
  return {
    ...process,
    waitFor: (pattern, stream, withinMs = WAIT_FOR_MS) => process.waitFor(pattern, stream, withinMs),
  };
}

/** A tail that follows: its first line is on stderr once the token was accepted. */
async function following(sandbox: RunningSandbox, token: string, ...args: string[]): Promise<CliProcess> {
  const process = tail(['--token', token, '--url', sandbox.url, ...args]);
  await process.waitFor(/^Following the requests and deliveries of the account at .+ \(Ctrl-C to stop\)\n/, 'stderr');
  return process;
}

/** Sends requests until the tail shows one: the stream opens a moment after the token is checked. */
async function untilShown(process: CliProcess, request: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  const shown = process.waitFor(pattern);
  let done = false;
  void shown.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await request();
    await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  await shown;
}

const post = (sandbox: RunningSandbox, token: string, path: string, body: string) =>
  fetch(`${sandbox.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('fflkit-sandbox tail', () => {
  it('prints a line per request and per delivery attempt, and exits 0 on Ctrl-C', async () => {
    const sandbox = await sandboxOn({ rateLimit: 0 });
    const receiver = await startReceiver();
    try {
      const { token } = await sandbox.createAccount();
      const process = await following(sandbox, token);
      await untilShown(
        process,
        () => fetch(`${sandbox.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } }),
        /GET \/rest\/v1\/books 200 \d+ ms\n/,
      );
      await post(sandbox, token, '/webhooks', JSON.stringify({ url: `${receiver.url}/hook`, events: ['*'] }));
      await post(sandbox, token, '/receipts', receiptBody(1));
      await process.waitFor(new RegExp(`receipt\\.created ${receiver.url}/hook 200 delivered in \\d+ ms\\n`));
      const lines = process
        .stdout()
        .split('\n')
        .filter((line) => !line.startsWith('GET /rest/v1/books'));
      expect(lines).toEqual([
        expect.stringMatching(/^POST \/rest\/v1\/webhooks 201 \d+ ms$/),
        expect.stringMatching(/^POST \/rest\/v1\/receipts 201 \d+ ms$/),
        expect.stringMatching(new RegExp(`^receipt\\.created ${receiver.url}/hook 200 delivered in \\d+ ms$`)),
        '',
      ]);
      process.child.kill('SIGINT');
      expect(await process.exit).toEqual({ code: 0, signal: null });
    } finally {
      await receiver.close();
    }
  });

  it('prints a failed attempt with its reason and when the next comes', async () => {
    const sandbox = await sandboxOn();
    const { token } = await sandbox.createAccount();
    const process = await following(sandbox, token);
    const [, webhookId] = await (async () => {
      const response = await post(
        sandbox,
        token,
        '/webhooks',
        JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['*'] }),
      );
      return [response, ((await response.json()) as { data: { id: number } }).data.id] as const;
    })();
    await untilShown(
      process,
      () => sandbox.webhooks.ping(token, webhookId),
      /^ping http:\/\/127\.0\.0\.1:9\/hook failed after \d+ ms: .+; next attempt at \S+Z$/m,
    );
  });

  it('prints the failure that disables the endpoint as cancelling its delivery, with no next attempt', async () => {
    const sandbox = await sandboxOn({ rateLimit: 0 });
    const { token } = await sandbox.createAccount();
    const process = await following(sandbox, token);
    await untilShown(
      process,
      () => fetch(`${sandbox.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } }),
      /GET \/rest\/v1\/books 200 \d+ ms\n/,
    );
    const response = await post(
      sandbox,
      token,
      '/webhooks',
      JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['*'] }),
    );
    const webhookId = ((await response.json()) as { data: { id: number } }).data.id;
    for (let n = 0; n < 10; n += 1) await sandbox.webhooks.ping(token, webhookId);
    await process.waitFor(/(?:^ping .+\n[\s\S]*?){10}/m);
    const attempts = process
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('ping '));
    expect(attempts).toHaveLength(10);
    expect(attempts.slice(0, 9).every((line) => /; next attempt at \S+Z$/.test(line))).toBe(true);
    expect(attempts[9]).toMatch(
      /^ping http:\/\/127\.0\.0\.1:9\/hook failed after \d+ ms: .+; the delivery is cancelled$/,
    );
  });

  it('ends with exit 0 when the sandbox stops and does not come back within --reconnect', async () => {
    const sandbox = await sandboxOn();
    const { token } = await sandbox.createAccount();
    const process = await following(sandbox, token, '--reconnect', '0');
    await untilShown(
      process,
      () => fetch(`${sandbox.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } }),
      /GET \/rest\/v1\/books 200/,
    );
    await sandbox.stop();
    expect(await process.exit).toEqual({ code: 0, signal: null });
    expect(process.stderr()).toMatch(new RegExp(`\\nThe sandbox at ${sandbox.url} stopped: tail ends\\n$`));
  });

  it('goes on across a restart on the same data file and port', async () => {
    const port = await freePort();
    const data = join(dir, 'sandbox.json');
    const first = await sandboxOn({ port, data });
    const { token } = await first.createAccount();
    const process = await following(first, token);
    await untilShown(
      process,
      () => fetch(`${first.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } }),
      /GET \/rest\/v1\/books 200/,
    );
    await first.stop();
    await process.waitFor(/stopped; waiting up to 10 s for it to come back\n/, 'stderr');
    const second = await sandboxOn({ port, data });
    await process.waitFor(/Reconnected: what happened meanwhile is not shown\n/, 'stderr');
    await untilShown(
      process,
      () => post(second, token, '/receipts', receiptBody(1)),
      /POST \/rest\/v1\/receipts 201 \d+ ms\n/,
    );
  });

  it('exits 1 when the sandbox comes back without the account (in memory)', async () => {
    const port = await freePort();
    const first = await sandboxOn({ port });
    const { token } = await first.createAccount();
    const process = await following(first, token);
    await untilShown(
      process,
      () => fetch(`${first.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } }),
      /GET \/rest\/v1\/books 200/,
    );
    await first.stop();
    await sandboxOn({ port });
    expect(await process.exit).toEqual({ code: 1, signal: null });
    expect(process.stderr()).toContain(
      `fflkit-sandbox tail: the sandbox at http://127.0.0.1:${port} came back without the account of the token (a sandbox in memory forgets its accounts when it stops)\n`,
    );
  });

  it('exits 1 for a token the sandbox refuses, or when no sandbox answers', async () => {
    const sandbox = await sandboxOn();
    const refused = tail(['--token', 'sbx_unknown', '--url', sandbox.url]);
    expect(await refused.exit).toEqual({ code: 1, signal: null });
    expect(refused.stderr()).toBe(
      `fflkit-sandbox tail: the sandbox at ${sandbox.url} refused the token: it is unknown there, revoked, or of a deleted account; pass a token of the account with --token\n`,
    );
    const absent = tail(['--token', 'sbx_x', '--url', 'http://127.0.0.1:1']);
    expect(await absent.exit).toEqual({ code: 1, signal: null });
    expect(absent.stderr()).toBe(
      'fflkit-sandbox tail: no sandbox answers at http://127.0.0.1:1: start one (fflkit-sandbox), or pass its address with --url\n',
    );
  });
});
