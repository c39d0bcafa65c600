import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArguments } from '../../src/cli/arguments';
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

/** Reads the command line as the CLI does, then runs the subcommand with what it prints kept. */
async function run(args: string[], env: Record<string, string> = {}) {
  const command = parseCliArguments(['check-receiver', ...args], env, tmpdir());
  if (command.kind !== 'subcommand')
    throw new Error(`check-receiver ${args.join(' ')} is not the subcommand: ${command.kind}`);
  let out = '';
  let err = '';
  const code = await command.command.run({
    options: command.options,
    env,
    cwd: tmpdir(),
    signal: new AbortController().signal,
    out: (text) => (out += text),
    err: (text) => (err += text),
  });
  return { code, out, err };
}

describe('fflkit-sandbox check-receiver', () => {
  it('prints one line per check and exits 0 for a receiver that passes', async () => {
    const good = await receiver(verifying);
    const { code, out, err } = await run([`${good.url}/webhooks`, '--secret', SECRET]);
    expect([code, err]).toEqual([0, '']);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`Checking the webhook receiver at ${good.url}/webhooks`);
    expect(
      lines.filter((line) => /^(PASS|WARN|FAIL|SKIP) {2}/.test(line)).map((line) => line.slice(0, 28).trimEnd()),
    ).toEqual([
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
    expect(forged).toMatch(
      /200 in \d+ ms: It answered 200 to a delivery whose X-SVC-Signature was made with another secret: anyone can send it forged events\. Fix: Compute sha256=/,
    );
    expect(out).toContain('The receiver failed: 2 failed, 0 warned, 4 passed.');
  });

  it('--json prints the report as JSON, and reads the secret from FFLKIT_WEBHOOK_SECRET', async () => {
    const good = await receiver(verifying);
    const { code, out } = await run([good.url, '--json'], { FFLKIT_WEBHOOK_SECRET: SECRET });
    expect(code).toBe(0);
    const report = JSON.parse(out) as ReceiverCheckReport;
    expect(report).toMatchObject({ url: `${good.url}/`, ok: true, timeoutMs: 5000, warnAfterMs: 1000 });
    expect(report.checks.map((check) => check.name)).toEqual([
      'ping',
      'forged_signature',
      'missing_signature',
      'duplicate_delivery',
      'out_of_order',
      'large_body',
    ]);
  });

  it.each([
    [[], "check-receiver needs the receiver's URL, such as http://127.0.0.1:3000/webhooks"],
    [
      ['ftp://127.0.0.1/webhooks', '--secret', SECRET],
      'the URL must be the receiver\'s absolute http(s) URL, such as http://127.0.0.1:3000/webhooks, not "ftp://127.0.0.1/webhooks"',
    ],
    [
      ['127.0.0.1:3000/webhooks', '--secret', SECRET],
      'the URL must be the receiver\'s absolute http(s) URL, such as http://127.0.0.1:3000/webhooks, not "127.0.0.1:3000/webhooks"',
    ],
    [
      ['http://127.0.0.1:3000/webhooks'],
      "--secret is required (or FFLKIT_WEBHOOK_SECRET): the endpoint's signing secret, whsec_...",
    ],
    [
      ['http://127.0.0.1:3000/webhooks', '--secret', 'sk_test_123'],
      "--secret must be the endpoint's signing secret as POST /webhooks answered it, whsec_... with its prefix",
    ],
    [
      ['http://127.0.0.1:3000/webhooks', '--secret', 'whsec_'],
      "--secret must be the endpoint's signing secret as POST /webhooks answered it, whsec_... with its prefix",
    ],
  ])('refuses %j with a CliUsageError, which the CLI answers with exit code 2', async (args, message) => {
    const failure = await run(args).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliUsageError);
    expect((failure as Error).message).toBe(message);
  });

  it('names the variable when the secret it holds has no whsec_', async () => {
    const failure = await run(['http://127.0.0.1:3000/webhooks'], { FFLKIT_WEBHOOK_SECRET: 'secret' }).catch(
      (error: unknown) => error,
    );
    expect((failure as Error).message).toMatch(/^FFLKIT_WEBHOOK_SECRET must be the endpoint's signing secret/);
  });

  it('takes one URL and knows its options only', () => {
    expect(() => parseCliArguments(['check-receiver', 'http://a.test/x', 'http://b.test/y'], {}, tmpdir())).toThrow(
      /Unexpected argument 'http:\/\/b.test\/y'/,
    );
    expect(() => parseCliArguments(['check-receiver', 'http://a.test/x', '--timeout', '1'], {}, tmpdir())).toThrow(
      /Unknown option '--timeout'/,
    );
  });

  it('--help prints what it checks', () => {
    const help = parseCliArguments(['check-receiver', '--help'], {}, tmpdir());
    expect(help.kind).toBe('help');
    const text = (help as { text: string }).text;
    expect(text).toMatch(/^Usage: fflkit-sandbox check-receiver <url> --secret <whsec_\.\.\.> \[--json\]/);
    expect(text).toContain('(env FFLKIT_WEBHOOK_SECRET)');
    for (const check of [
      'signed ping',
      'forged signature',
      'missing signature',
      'same delivery twice',
      'pair out of order',
      'large body',
    ])
      expect(text).toContain(`  ${check}`);
  });

  it('runs from the CLI itself, exiting 1 for a failed check and 2 for a wrong command line', async () => {
    const trusting = await receiver(() => ({ status: 200 }));
    const cli = spawnCli(['check-receiver', trusting.url, '--secret', SECRET], tmpdir());
    expect(await cli.exit).toEqual({ code: 1, signal: null });
    expect(cli.stdout()).toContain('FAIL  missing signature');
    const usage = spawnCli(['check-receiver', 'ftp://x'], tmpdir(), { FFLKIT_WEBHOOK_SECRET: SECRET });
    expect(await usage.exit).toEqual({ code: 2, signal: null });
    expect(usage.stderr()).toBe(
      'fflkit-sandbox check-receiver: the URL must be the receiver\'s absolute http(s) URL, such as http://127.0.0.1:3000/webhooks, not "ftp://x"\n' +
        'Usage: fflkit-sandbox check-receiver <url> --secret <whsec_...> [--json]\n' +
        'Run fflkit-sandbox check-receiver --help for the options.\n',
    );
  });
});
