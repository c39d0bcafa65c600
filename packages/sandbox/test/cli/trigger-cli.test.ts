import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/index';
import { startReceiver, type LocalReceiver } from '../support/local-receiver';
import { killIfRunning, spawnCli, type CliProcess } from './spawn-cli';

// `fflkit-sandbox trigger`, spawned against a real sandbox and a real receiver.

let dir: string;
let sandbox: RunningSandbox;
let receiver: LocalReceiver;
const running: CliProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-trigger-'));
});
afterAll(async () => {
  await sandbox.stop();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const process of running.splice(0)) await killIfRunning(process);
  await receiver.close();
});

async function trigger(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const process = spawnCli(['trigger', ...args], dir, env);
  running.push(process);
  const { code } = await process.exit;
  return { code, stdout: process.stdout(), stderr: process.stderr() };
}

/** An account with one endpoint at the receiver for `events`. */
async function account(events: string[] = ['*'], path = '/hook'): Promise<string> {
  const { token } = await sandbox.createAccount();
  const response = await fetch(`${sandbox.apiUrl}/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}${path}`, events }),
  });
  expect(response.status).toBe(201);
  return token;
}

const RECORDED = /^Recorded receipt \d+: .+ .+, serial \S+, in the book Main \(line 1\)$/m;

describe('fflkit-sandbox trigger EVENT', () => {
  it('receipt.created records a realistic receipt and prints the delivery as it is made', async () => {
    const token = await account(['receipt.created']);
    const result = await trigger(['receipt.created', '--token', token, '--url', sandbox.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `${RECORDED.source.slice(0, -1)}\\nreceipt\\.created ${receiver.url}/hook 200 delivered in \\d+ ms\\n$`,
      ),
    );
    expect(receiver.received.map((request) => request.headers['x-svc-event'])).toEqual(['receipt.created']);
    const [receipt] = (
      (await (await fetch(`${sandbox.apiUrl}/receipts`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        data: Record<string, unknown>[];
      }
    ).data;
    expect(receipt).toMatchObject({
      book: 'Main',
      importer: expect.any(String),
      country_of_origin: expect.any(String),
      ffl_license: expect.any(String),
    });
  });

  it.each([
    ['receipt.updated', /^Corrected its purchase amount to \d+\.\d\d$/, ['receipt.created', 'receipt.updated']],
    ['receipt.disposed', /^Disposed of it to .+ on Form 4473 4473-T\d{9}$/, ['receipt.created', 'receipt.disposed']],
    ['receipt.deleted', /^Deleted it$/, ['receipt.created', 'receipt.deleted']],
  ])('%s acts on a new receipt and prints each delivery of both events, in order', async (event, action, events) => {
    const token = await account(['*']);
    const result = await trigger([event, '--token', token, '--url', sandbox.url]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(RECORDED);
    expect(lines[1]).toMatch(action);
    expect(lines.slice(2)).toEqual([
      expect.stringMatching(
        new RegExp(`^${events[0]!.replace('.', '\\.')} ${receiver.url}/hook 200 delivered in \\d+ ms$`),
      ),
      expect.stringMatching(
        new RegExp(`^${events[1]!.replace('.', '\\.')} ${receiver.url}/hook 200 delivered in \\d+ ms$`),
      ),
      '',
    ]);
    expect(receiver.received.map((request) => request.headers['x-svc-event'])).toEqual(events);
  });

  it('ping pings every enabled endpoint, whatever it subscribes to', async () => {
    const token = await account(['receipt.disposed'], '/one');
    await fetch(`${sandbox.apiUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/two`, events: ['receipt.created'] }),
    });
    const result = await trigger(['ping', '--token', token, '--url', sandbox.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^ping ${receiver.url}/one 200 delivered in \\d+ ms\\nping ${receiver.url}/two 200 delivered in \\d+ ms\\n$`,
      ),
    );
    expect(receiver.received.map((request) => request.path)).toEqual(['/one', '/two']);
  });

  it('exits 1 when a first attempt fails, saying why and when the next one comes', async () => {
    receiver.reply = () => ({ status: 500 });
    const token = await account(['receipt.created']);
    const result = await trigger(['receipt.created', '--token', token, '--url', sandbox.url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `\\nreceipt\\.created ${receiver.url}/hook failed after \\d+ ms: answered 500; next attempt at \\S+Z\\n$`,
      ),
    );
  });

  it('exits 1 when a first attempt is still unanswered after --wait seconds', async () => {
    receiver.reply = () => 'hang';
    const token = await account(['receipt.created']);
    const result = await trigger(['receipt.created', '--token', token, '--url', sandbox.url, '--wait', '1']);
    receiver.release(200);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(RECORDED);
    expect(result.stderr).toMatch(
      /^fflkit-sandbox trigger: the receipt\.created delivery [0-9a-f-]{36} was not attempted within 1 s; it is still pending \(see GET \/_sandbox\/deliveries\)\n$/,
    );
  });

  it('exits 1 and changes nothing when no enabled endpoint gets the event', async () => {
    const token = await account(['receipt.disposed']);
    const result = await trigger(['receipt.created', '--token', token, '--url', sandbox.url]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `fflkit-sandbox trigger: no enabled endpoint of the account gets receipt.created, so nothing was changed: add one with POST ${sandbox.url}/rest/v1/webhooks\n`,
    });
    const receipts = (await (
      await fetch(`${sandbox.apiUrl}/receipts`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: unknown[] };
    expect(receipts.data).toEqual([]);
  });

  it('names the enable call of each disabled endpoint, its id filled in', async () => {
    const token = await account(['receipt.created']);
    const created = await fetch(`${sandbox.apiUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/refused', events: ['receipt.created'] }),
    });
    const refused = ((await created.json()) as { data: { id: number } }).data.id;
    const [first] = await sandbox.webhooks.list(token);
    await fetch(`${sandbox.apiUrl}/webhooks/${first!.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    // 10 consecutive failures disable it.
    for (let n = 0; n < 10; n += 1) await sandbox.webhooks.ping(token, refused);
    const result = await trigger(['receipt.created', '--token', token, '--url', sandbox.url]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `fflkit-sandbox trigger: no enabled endpoint of the account gets receipt.created, so nothing was changed: add one with POST ${sandbox.url}/rest/v1/webhooks, or re-enable endpoint ${refused} with POST ${sandbox.url}/_sandbox/webhooks/${refused}/enable\n`,
    });
  });

  describe("after a burst that spent the token's requests of the minute", () => {
    let offsetMs = 0;
    let limited: RunningSandbox;
    beforeAll(async () => {
      limited = await startSandbox({ now: () => Date.now() + offsetMs });
    });
    afterAll(async () => {
      await limited.stop();
    });

    /** An account with an endpoint at the receiver, its 60 requests of the minute spent. */
    async function burstAccount(): Promise<string> {
      const { token } = await limited.createAccount();
      await fetch(`${limited.apiUrl}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['*'] }),
      });
      // The endpoint's creation was one request of the minute: 59 more spend them.
      const statuses = await Promise.all(
        Array.from({ length: 60 }, async () => {
          const response = await fetch(`${limited.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 429)).toHaveLength(1);
      return token;
    }

    it('says when the window ends, that advancing the clock does not end it, and changes nothing', async () => {
      const token = await burstAccount();
      await limited.clock.advance(token, 365 * 86_400);
      const result = await trigger(['receipt.disposed', '--token', token, '--url', limited.url, '--wait', '1']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^fflkit-sandbox trigger: POST \/receipts answered 429 \(Retry-After: (\d+)\): Too Many Attempts\. the token's requests of this minute are spent; its window ends in \1 s, at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\. The limit counts real time, so advancing the sandbox's clock does not end it: trigger again then \(or with --wait \d+\), with another token of the account \(POST \/_sandbox\/tokens\), or start the sandbox with --rate-limit 0\n$/,
      );
      const receipts = (await (
        await fetch(`${limited.apiUrl}/receipts`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { message: string };
      expect(receipts.message).toBe('Too Many Attempts.');
      expect(await limited.receipts.browse(token)).toMatchObject({ data: [] });
    });

    it('waits for the window to end when it ends within --wait, then fires the event', async () => {
      const token = await burstAccount();
      // The window ends a minute after the second of the burst: move to 3 s before, which is
      // past the start of the command and within its --wait.
      const now = Date.now() + offsetMs;
      offsetMs += Math.floor(now / 1000) * 1000 + 60_000 - now - 3_000;
      const result = await trigger(['receipt.created', '--token', token, '--url', limited.url]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /^fflkit-sandbox trigger: the token's requests of this minute are spent; waiting [123] s for its rate-limit window to end \(the limit counts real time: advancing the sandbox's clock does not end it\)\n$/,
      );
      expect(result.stdout).toMatch(RECORDED);
    });
  });

  it('exits 1 for a revoked token, naming the refusal', async () => {
    const owner = await account(['*']);
    const { record, token } = await sandbox.tokens.create(owner, { permissions: ['read', 'write', 'delete'] });
    await sandbox.tokens.revoke(owner, record.id);
    const result = await trigger(['receipt.created'], { FFLKIT_SANDBOX_TOKEN: token, FFLKIT_SANDBOX_URL: sandbox.url });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `fflkit-sandbox trigger: the sandbox at ${sandbox.url} refused the token: it is unknown there, revoked, or of a deleted account; pass a token of the account with --token\n`,
    });
  });

  it('exits 1 saying so when the service API answers without JSON, as a proxy in front of it may', async () => {
    const owner = await account(['*']);
    // Control calls pass through to the sandbox; the service API gets a proxy's page.
    const proxy = createServer(async (request, response) => {
      if (!request.url!.startsWith('/_sandbox/')) {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to the network</html>');
        return;
      }
      const answer = await fetch(`${sandbox.url}${request.url}`, {
        headers: { authorization: request.headers.authorization ?? '' },
      });
      response
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const result = await trigger(['receipt.created', '--token', owner, '--url', url]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`POST /receipts answered 200 without JSON: is ${url}/rest/v1 a FFLKit sandbox?`);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('exits 1 for a token without the write permission, saying which token to use', async () => {
    const owner = await account(['*']);
    const { token } = await sandbox.tokens.create(owner, { permissions: ['read'] });
    const result = await trigger(['receipt.created', '--token', token, '--url', sandbox.url]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^fflkit-sandbox trigger: POST \/receipts answered 403: .+ use a token with the read, write and delete permissions of a dealer, manufacturer or importer account\n$/,
    );
  });

  it('exits 2 with its usage for an unknown or missing event', async () => {
    const unknown = await trigger(['receipt.exploded', '--token', 'sbx_x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "fflkit-sandbox trigger: Unknown event 'receipt.exploded': one of receipt.created, receipt.updated, receipt.disposed, receipt.deleted, ping\n" +
        'Usage: fflkit-sandbox trigger <event> --token <token> [--url <url>] [--wait <seconds>]\n' +
        'Run fflkit-sandbox trigger --help for the options.\n',
    );
    expect((await trigger(['--token', 'sbx_x'])).stderr).toMatch(
      /^fflkit-sandbox trigger: trigger needs an event: one of /,
    );
  });
});
