import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { receiptBody } from '../support/receipt-body';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';

let dir: string;
const running: CliProcess[] = [];

const start = (args: readonly string[]): CliProcess => {
  const cli = spawnCli(args, dir);
  running.push(cli);
  return cli;
};

const printedToken = async (cli: CliProcess): Promise<string> => {
  const [, token] = await cli.waitFor(/Authorization: Bearer (sbx_[^"\s]+)"/);
  return token!;
};

const getBooks = (apiUrl: string, token: string) =>
  fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-cli-test-'));
});

afterEach(async () => {
  for (const cli of running.splice(0)) await killIfRunning(cli);
  await rm(dir, { recursive: true, force: true });
});

describe('fflkit-sandbox on a new data file', () => {
  it('creates ./.fflkit/sandbox.json and prints the URL, a working token and a curl line', async () => {
    const cli = start(['--port', '0', '--quiet']);
    const apiUrl = await waitForApiUrl(cli);
    const token = await printedToken(cli);
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest\/v1$/);
    expect(cli.stdout()).toContain(`curl -H "Authorization: Bearer ${token}" ${apiUrl}/books`);
    expect(existsSync(join(dir, '.fflkit', 'sandbox.json'))).toBe(true);

    const response = await getBooks(apiUrl, token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { name: string }[] };
    expect(body.data.map((book) => book.name)).toEqual(['Main']);
  });
});

describe('fflkit-sandbox on an existing data file', () => {
  it('says the token was printed before, shows how to make an account, and the old token works', async () => {
    const first = start(['--port', '0', '--quiet']);
    await waitForApiUrl(first);
    const token = await printedToken(first);
    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });

    const second = start(['--port', '0', '--quiet']);
    const apiUrl = await waitForApiUrl(second);
    const origin = apiUrl.replace(/\/rest\/v1$/, '');
    await second.waitFor(/curl -X POST \S+\/_sandbox\/accounts\n/);
    expect(second.stdout()).toContain('printed when the data file was created');
    expect(second.stdout()).toContain(`curl -X POST ${origin}/_sandbox/accounts`);
    expect(second.stdout()).not.toContain('sbx_');
    expect((await getBooks(apiUrl, token)).status).toBe(200);
  });
});

describe('fflkit-sandbox flags', () => {
  it('--help prints the usage and exits 0', async () => {
    const cli = start(['--help']);
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toMatch(/^Usage: fflkit-sandbox \[options\]/);
    for (const flag of ['--port', '--host', '--data', '--memory', '--rate-limit', '--quiet']) {
      expect(cli.stdout()).toContain(flag);
    }
  });

  it.each([[['--prot', '4010']], [['--port', 'abc']], [['--memory', '--data', 'x.json']], [['trigr']]])(
    'exits 2 with the usage for %j',
    async (args) => {
      const cli = start(args);
      expect(await cli.exit).toEqual({ code: 2, signal: null });
      expect(cli.stderr()).toMatch(
        /^fflkit-sandbox: .+\nUsage: fflkit-sandbox \[options\]\n {7}fflkit-sandbox <command> \[options\]\n {7}\(commands: export, trigger, tail, check-receiver, choices, proxy, conformance\)\nRun fflkit-sandbox --help for the options\.\n$/,
      );
      expect(cli.stdout()).toBe('');
    },
  );

  it('exits 2 with the usage of a subcommand for a wrong flag of it', async () => {
    const cli = start(['tail', '--tokn', 'sbx_x']);
    expect(await cli.exit).toEqual({ code: 2, signal: null });
    // Node words the unknown option itself, differently from one version to another.
    expect(cli.stderr()).toMatch(
      /^fflkit-sandbox tail: Unknown option '--tokn'.*\nUsage: fflkit-sandbox tail --token <token> \[--url <url>\] \[--reconnect <seconds>\]\nRun fflkit-sandbox tail --help for the options\.\n$/,
    );
  });

  it.each([['--version'], ['-v']])('%s prints the version of the package and exits 0', async (flag) => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const cli = start([flag]);
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toBe(`${version}\n`);
  });

  it('exits 1 and names the port when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as { port: number };
      const cli = start(['--port', String(port), '--memory']);
      expect(await cli.exit).toEqual({ code: 1, signal: null });
      expect(cli.stderr()).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });

  it('prints a line per request without --quiet', async () => {
    const cli = start(['--port', '0', '--memory']);
    const apiUrl = await waitForApiUrl(cli);
    const token = await printedToken(cli);
    await getBooks(apiUrl, token);
    await cli.waitFor(/GET \/rest\/v1\/books 200 \d+ ms\n/);
    expect(cli.stdout()).not.toMatch(/GET .*sbx_/);
  });

  it('--memory serves requests and writes no file', async () => {
    const cli = start(['--port', '0', '--memory', '--quiet']);
    const apiUrl = await waitForApiUrl(cli);
    const token = await printedToken(cli);
    const response = await fetch(`${apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: receiptBody(1),
    });
    expect(response.status).toBe(201);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('fflkit-sandbox on SIGTERM', () => {
  it('lets the requests in flight finish, saves them, and exits 0', async () => {
    const file = join(dir, 'sandbox.json');
    const cli = start(['--port', '0', '--quiet', '--data', file, '--rate-limit', '0']);
    const apiUrl = await waitForApiUrl(cli);
    const token = await printedToken(cli);
    const post = (n: number) =>
      fetch(`${apiUrl}/receipts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: receiptBody(n),
      }).then(
        async (response) => ({ status: response.status, body: await response.text() }),
        () => ({ status: 0, body: '' }),
      );
    const first = post(0);
    const inFlight = Array.from({ length: 30 }, (_, n) => post(n + 1));
    await first;
    cli.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    expect(await cli.exit).toEqual({ code: 0, signal: null });

    const text = await readFile(file, 'utf8');
    JSON.parse(text);
    const saved = answers.filter((answer) => answer.status === 201);
    expect(saved.length).toBeGreaterThan(0);
    for (const answer of saved) {
      const { data } = JSON.parse(answer.body) as { data: { serial_number: string } };
      expect(text).toContain(`"${data.serial_number}"`);
    }
  });
});
