import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxFixtures } from '@fflkit/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArguments } from '../../src/cli/arguments';
import { CONTRACT_CHOICES } from '../../src/contract-check/choices';
import { type RunningSandbox, startSandbox } from '../../src/index';
import { DRIFTS, type DriftingUpstream, startDriftingUpstream } from '../support/drifting-upstream';
import { receiptBody } from '../support/receipt-body';

// `fflkit-sandbox choices`, `proxy` and `conformance`, run in the test's process as the CLI runs
// them (read from a command line, with their output kept and their stop signal in hand).

const TOKEN = 'sbx_driftcommands0000000000000001';
const READ_TOKEN = 'sbx_driftcommandsread00000000001';
const FIXTURES: SandboxFixtures = {
  accounts: [{ tokens: [{ token: TOKEN }, { token: READ_TOKEN, permissions: ['read'] }], books: ['Range'] }],
};

let dir: string;
let sandbox: RunningSandbox;
let upstream: DriftingUpstream | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-drift-commands-'));
  sandbox = await startSandbox({ fixtures: FIXTURES, rateLimit: 1_000 });
  // A receipt to look at, for the probes that need one.
  await fetch(`${sandbox.apiUrl}/receipts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: receiptBody(1),
  });
});
afterAll(async () => {
  await sandbox.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await upstream?.stop();
  upstream = undefined;
});

/** Runs `fflkit-sandbox <args>` in this process; `stop` is the Ctrl-C of a command that serves. */
function run(args: string[], env: Record<string, string> = {}) {
  const command = parseCliArguments(args, env, dir);
  if (command.kind !== 'subcommand') throw new Error(`${args.join(' ')} is not a subcommand: ${command.kind}`);
  const controller = new AbortController();
  const output = { out: '', err: '' };
  const outputs: Array<() => void> = [];
  const code = command.command.run({
    options: command.options,
    env,
    cwd: dir,
    signal: controller.signal,
    out: (text) => {
      output.out += text;
      for (const listener of outputs) listener();
    },
    err: (text) => (output.err += text),
  });
  return {
    code,
    output,
    stop: () => controller.abort(),
    /** Resolves with the first match of `pattern` in what it printed. */
    printed: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const check = () => {
          const match = output.out.match(pattern);
          if (match !== null) resolve(match);
        };
        outputs.push(check);
        check();
      }),
  };
}

describe('fflkit-sandbox choices', () => {
  it('lists every choice with how it is probed and its rule, and counts them', async () => {
    const { code, output } = run(['choices']);
    expect(await code).toBe(0);
    for (const choice of CONTRACT_CHOICES) expect(output.out).toContain(`${choice.id}  (${choice.probe})\n`);
    expect(output.out).toMatch(
      new RegExp(`\\n${CONTRACT_CHOICES.length} choices: \\d+ read, \\d+ write, \\d+ traffic, \\d+ none\\.\\n$`),
    );
  });

  it('prints them as JSON with --json, those of one probe with --probe', async () => {
    const { code, output } = run(['choices', '--json', '--probe', 'traffic']);
    expect(await code).toBe(0);
    const { choices } = JSON.parse(output.out) as { choices: typeof CONTRACT_CHOICES };
    expect(choices).toEqual(CONTRACT_CHOICES.filter((choice) => choice.probe === 'traffic'));
    expect(choices.length).toBeGreaterThan(0);
  });

  it('refuses a probe kind it does not know', async () => {
    await expect(run(['choices', '--probe', 'sometimes']).code).rejects.toThrow(CliUsageError);
  });
});

describe('fflkit-sandbox proxy', { timeout: 30_000 }, () => {
  it.each([
    [[], /--upstream is required/],
    [['--upstream', 'ftp://logbook.example.com/rest/v1'], /--upstream must be an http or https URL/],
    [['--upstream', 'file:///etc/passwd'], /--upstream must be an http or https URL/],
    [['--upstream', 'https://user:secret@logbook.example.com'], /without credentials/],
    [['--upstream', 'http://127.0.0.1:1', '--secret', 'whsec_x'], /--secret verifies the deliveries of --webhooks-to/],
  ])('refuses %j with a usage error', async (args, message) => {
    await expect(run(['proxy', ...args]).code).rejects.toThrow(message);
  });

  it('relays, says where the console is, and on Ctrl-C writes the report and the recorded fixtures', async () => {
    const proxy = run([
      'proxy',
      '--upstream',
      sandbox.url,
      '--port',
      '0',
      '--report',
      'drift.json',
      '--record',
      'recorded.yaml',
    ]);
    const [, apiUrl] = await proxy.printed(/^FFLKit drift proxy listening on (\S+)$/m);
    expect(proxy.output.out).toMatch(/^Console: http:\/\/127\.0\.0\.1:\d+\/#\/drift$/m);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    expect((await fetch(`${apiUrl}/receipts`, { method: 'POST', headers, body: receiptBody(2) })).status).toBe(201);
    expect((await fetch(`${apiUrl}/books`, { headers })).status).toBe(200);
    proxy.stop();
    expect(await proxy.code).toBe(0);
    expect(proxy.output.out).toMatch(/Checked 2 exchanges and 0 deliveries: no violation of the contract\.\n$/);
    expect(JSON.parse(await readFile(join(dir, 'drift.json'), 'utf8'))).toEqual({
      exchanges: 2,
      deliveries: 0,
      violations: [],
    });
    expect((await stat(join(dir, 'recorded.yaml'))).mode & 0o777).toBe(0o600);
    // What was recorded loads into a new sandbox: the books seen, the receipt made, a fixed token.
    const loaded = await startSandbox({ fixtures: join(dir, 'recorded.yaml') });
    try {
      const books = await fetch(`${loaded.apiUrl}/books`, {
        headers: { authorization: 'Bearer sbx_recorded000000000000000000000001' },
      });
      expect(((await books.json()) as { data: Array<{ name: string; record_count: number }> }).data).toEqual([
        expect.objectContaining({ name: 'Main', record_count: 1 }),
        expect.objectContaining({ name: 'Range', record_count: 0 }),
      ]);
    } finally {
      await loaded.stop();
    }
    // The token went through and was not written anywhere.
    expect(await readFile(join(dir, 'recorded.yaml'), 'utf8')).not.toContain(TOKEN);
    expect(await readFile(join(dir, 'drift.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('prints a line for each new violation and exits 1 when the service drifted', async () => {
    upstream = await startDriftingUpstream(sandbox.url, DRIFTS);
    const proxy = run(['proxy', '--upstream', upstream.url, '--port', '0']);
    const [, apiUrl] = await proxy.printed(/^FFLKit drift proxy listening on (\S+)$/m);
    for (const _ of [1, 2])
      await (await fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    await proxy.printed(/^drift: /m);
    proxy.stop();
    expect(await proxy.code).toBe(1);
    expect(proxy.output.out.match(/^drift: .*$/gm)).toEqual([
      'drift: GET /books 200 /headers/x-ratelimit-remaining: expected present, seen absent; contradicts rate-limit.headers: Every authenticated response carries X-RateLimit-Limit and X-RateLimit-Remaining.',
    ]);
    expect(proxy.output.out).toMatch(
      /Checked 2 exchanges and 0 deliveries: 1 distinct violation \(printed above\)\.\n$/,
    );
  });

  it('tells on standard error that the service cannot be reached', async () => {
    const proxy = run(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0']);
    const [, apiUrl] = await proxy.printed(/^FFLKit drift proxy listening on (\S+)$/m);
    const answer = await fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(502);
    proxy.stop();
    expect(await proxy.code).toBe(0);
    expect(proxy.output.err).toBe(
      'fflkit-sandbox proxy: the service at http://127.0.0.1:9/rest/v1 did not answer (502)\n',
    );
  });
});

describe('fflkit-sandbox conformance', { timeout: 30_000 }, () => {
  it('prints the verdicts and exits 0 when the sandbox contradicts nothing', async () => {
    const { code, output } = run(['conformance', '--base-url', sandbox.apiUrl, '--read-token', READ_TOKEN], {
      FFLKIT_TOKEN: TOKEN,
    });
    expect(await code).toBe(0);
    expect(output.out).toMatch(
      /^Conformance of http:\/\/127\.0\.0\.1:\d+\/rest\/v1 to the FFLKit contract \(run \w+Z-\w+, read-only probes\):\n/,
    );
    expect(output.out).toContain('confirmed     pagination.per-page\n');
    expect(output.out).toContain('not probed    receipts.delete: it needs the probes that write: pass --allow-writes');
    expect(output.out).toMatch(/\n\d+ confirmed, 0 contradicted, \d+ not probed\.\n$/);
  });

  it('prints JSON with --json and exits 1 when the service contradicts the contract', async () => {
    upstream = await startDriftingUpstream(sandbox.url, DRIFTS);
    const { code, output } = run(['conformance', '--base-url', `${upstream.url}/rest/v1`, '--token', TOKEN, '--json']);
    expect(await code).toBe(1);
    const report = JSON.parse(output.out) as { choices: Array<{ id: string; status: string; evidence: unknown[] }> };
    const contradicted = report.choices.filter((choice) => choice.status === 'contradicted');
    expect(contradicted.map((choice) => choice.id)).toContain('rate-limit.headers');
    expect(contradicted.every((choice) => choice.evidence.length > 0)).toBe(true);
  });

  it('exits 1 with the reason when the service cannot be reached or refuses the token', async () => {
    const gone = run(['conformance', '--base-url', 'http://127.0.0.1:9/rest/v1', '--token', TOKEN]);
    expect(await gone.code).toBe(1);
    expect(gone.output.err).toMatch(
      /^fflkit-sandbox conformance: no answer from http:\/\/127\.0\.0\.1:9\/rest\/v1 to GET \/books \(with the token\)/,
    );
    const refused = run(['conformance', '--base-url', sandbox.apiUrl, '--token', 'sbx_unknown000000000000000000000']);
    expect(await refused.code).toBe(1);
    expect(refused.output.err).toBe(
      'fflkit-sandbox conformance: the service answered 401 to the token: pass a token of the account to probe\n',
    );
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'logbook.example.com'], /--base-url must be an http or https URL/],
    [['--base-url', 'https://logbook.example.com/rest/v1'], /--token is required/],
    [
      ['--base-url', 'https://logbook.example.com/rest/v1', '--token', 'x', '--book', 'Main'],
      /pass --allow-writes too/,
    ],
  ])('refuses %j with a usage error', async (args, message) => {
    await expect(run(['conformance', ...args]).code).rejects.toThrow(message);
  });
});
