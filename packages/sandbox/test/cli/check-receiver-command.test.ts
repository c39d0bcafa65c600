import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheckReceiverCommand } from '../../src/cli/check-receiver-command';
import type { ReceiverCheckReport } from '../../src/index';
import { type LocalReceiver, type Received, type Reply, startReceiver } from '../support/local-receiver';
import { spawnCli } from './spawn-cli';

const SECRET = 'whsec_c1iCheck000000000000000000000000000000';
const receivers: LocalReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(reply: (request: Received) => Reply): Promise<LocalReceiver> {
  const started = await startReceiver(reply);
  receivers.push(started);
  return started;
}

const verifying = (request: Received): Reply => {
  const expected = `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`;
  return { status: request.headers['x-svc-signature'] === expected ? 200 : 401 };
};

/** Runs the command as the CLI does, with what it prints kept. */
async function run(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await runCheckReceiverCommand(args, { env, out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

describe('boundbook-sandbox check-receiver', () => {
  it('prints one line per check and exits 0 for a receiver that passes', async () => {
    const good = await receiver(verifying);
    const { code, out, err } = await run([`${good.url}/webhooks`, '--secret', SECRET]);
    expect([code, err]).toEqual([0, '']);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`Checking the webhook receiver at ${good.url}/webhooks`);
    expect(lines.filter((line) => /^(PASS|WARN|FAIL|SKIP)  /.test(line)).map((line) => line.slice(0, 28).trimEnd())).toEqual([
      'PASS  signed ping',
      'PASS  forged signature',
      'PASS  missing signature',
      'PASS  same delivery twice',
      'PASS  pair out of order',
      'PASS  large body (256 KiB)',
    ]);
    expect(out).toMatch(/^PASS {2}forged signature {6,}401 in \d+ ms$/m);
    expect(out).toContain('Assumed (same delivery twice): Both answers were 2xx;');
    expect(lines.at(-2)).toBe('The receiver passed: 0 failed, 0 warned, 6 passed.');
  });

  it('exits 1 for a receiver that answers 200 to everything, with the reason and the fix on the failing lines', async () => {
    const trusting = await receiver(() => ({ status: 200 }));
    const { code, out } = await run([trusting.url, '--secret', SECRET]);
    expect(code).toBe(1);
    const forged = out.split('\n').find((line) => line.startsWith('FAIL  forged signature'));
    expect(forged).toMatch(/200 in \d+ ms: It answered 200 to a delivery whose X-SVC-Signature was made with another secret: anyone can send it forged events\. Fix: Compute sha256=/);
    expect(out).toContain('The receiver failed: 2 failed, 0 warned, 4 passed.');
  });

  it('--json prints the report as JSON, and reads the secret from BOUNDBOOK_WEBHOOK_SECRET', async () => {
    const good = await receiver(verifying);
    const { code, out } = await run([good.url, '--json'], { BOUNDBOOK_WEBHOOK_SECRET: SECRET });
    expect(code).toBe(0);
    const report = JSON.parse(out) as ReceiverCheckReport;
    expect(report).toMatchObject({ url: `${good.url}/`, ok: true, timeoutMs: 5000, warnAfterMs: 1000 });
    expect(report.checks.map((check) => check.name)).toEqual(['ping', 'forged_signature', 'missing_signature', 'duplicate_delivery', 'out_of_order', 'large_body']);
  });

  it.each([
    [[], "check-receiver needs the receiver's URL"],
    [['http://a.test/x', 'http://b.test/y', '--secret', SECRET], 'check-receiver takes one URL, not 2'],
    [['ftp://127.0.0.1/webhooks', '--secret', SECRET], "the URL must be the receiver's absolute http(s) URL, such as http://127.0.0.1:3000/webhooks, not \"ftp://127.0.0.1/webhooks\""],
    [['127.0.0.1:3000/webhooks', '--secret', SECRET], 'the URL must be the receiver'],
    [['http://127.0.0.1:3000/webhooks'], '--secret is required (or BOUNDBOOK_WEBHOOK_SECRET)'],
    [['http://127.0.0.1:3000/webhooks', '--secret', 'sk_test_123'], "--secret must be the endpoint's signing secret as POST /webhooks answered it, whsec_... with its prefix"],
    [['http://127.0.0.1:3000/webhooks', '--secret', SECRET, '--timeout', '1'], "Unknown option '--timeout'"],
  ])('exits 2 with the reason for %j', async (args, message) => {
    const { code, out, err } = await run(args);
    expect([code, out]).toEqual([2, '']);
    expect(err).toContain(`boundbook-sandbox check-receiver: ${message}`);
    expect(err).toContain('Run boundbook-sandbox check-receiver --help for the options.');
  });

  it('--help prints what it checks and exits 0', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: boundbook-sandbox check-receiver <url> --secret <whsec_\.\.\.> \[--json\]/);
  });

  it('runs from the CLI itself, exiting with the report\'s outcome', async () => {
    const trusting = await receiver(() => ({ status: 200 }));
    const cli = spawnCli(['check-receiver', trusting.url, '--secret', SECRET], tmpdir());
    expect(await cli.exit).toEqual({ code: 1, signal: null });
    expect(cli.stdout()).toContain('FAIL  missing signature');
    const usage = spawnCli(['check-receiver', 'ftp://x'], tmpdir());
    expect(await usage.exit).toEqual({ code: 2, signal: null });
  });
});
