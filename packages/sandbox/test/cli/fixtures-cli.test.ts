import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { receiptBody } from '../support/receipt-body';
import { killIfRunning, spawnCli, waitForApiUrl, type CliProcess } from './spawn-cli';

// The start with fixtures and the environment, through the CLI as it is run: --fixtures and
// FFLKIT_SANDBOX_FIXTURES, JSON and YAML, faulty files, the lock, and the variables.

let dir: string;
const running: CliProcess[] = [];

const start = (args: readonly string[], env: NodeJS.ProcessEnv = {}): CliProcess => {
  const cli = spawnCli(args, dir, env);
  running.push(cli);
  return cli;
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-fixtures-cli-'));
});

afterEach(async () => {
  for (const cli of running.splice(0)) await killIfRunning(cli);
  await rm(dir, { recursive: true, force: true });
});

const TOKEN = 'sbx_clifixtures000000000000000001';
const fixtures = {
  accounts: [
    {
      name: 'Fixture Arms',
      books: ['Consignment'],
      tokens: [{ token: TOKEN, name: 'CI' }],
      receipts: [JSON.parse(receiptBody(1)), { ...JSON.parse(receiptBody(2)), book: 'Consignment' }],
    },
  ],
};

const books = async (apiUrl: string) => {
  const response = await fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { name: string; record_count: number }[] }).data.map((book) => [
    book.name,
    book.record_count,
  ]);
};

describe('fflkit-sandbox --fixtures FILE', () => {
  it.each([
    ['fixtures.json', JSON.stringify(fixtures)],
    ['fixtures.yaml', stringify(fixtures)],
  ])('loads %s before it listens, lists what it made, and makes no other account', async (name, text) => {
    await writeFile(join(dir, name), text);
    const cli = start(['--memory', '--port', '0', '--quiet', '--fixtures', name]);
    const apiUrl = await waitForApiUrl(cli);
    await cli.waitFor(/Press Ctrl-C to stop\.\n$/);
    expect(await books(apiUrl)).toEqual([
      ['Main', 1],
      ['Consignment', 1],
    ]);
    expect(cli.stdout()).toContain(
      `Fixtures: ${join(dir, name)}\n  made account 1, Fixture Arms, with 2 receipts\nUse the tokens of the fixtures file.\n`,
    );
    expect(cli.stdout()).not.toContain('Made a dealer account');
    expect(cli.stdout()).not.toMatch(/sbx_/);
    // The only account is the fixtures': a new one is number 2.
    const created = await fetch(`${apiUrl.replace('/rest/v1', '')}/_sandbox/accounts`, { method: 'POST' });
    expect(((await created.json()) as { data: { id: number } }).data.id).toBe(2);
  });

  it('reads every option from the environment: FFLKIT_SANDBOX_FIXTURES, _PORT, _QUIET, _DATA, _RATE_LIMIT', async () => {
    await writeFile(join(dir, 'ci.yml'), stringify(fixtures));
    const cli = start([], {
      FFLKIT_SANDBOX_FIXTURES: 'ci.yml',
      FFLKIT_SANDBOX_PORT: '0',
      FFLKIT_SANDBOX_QUIET: 'true',
      FFLKIT_SANDBOX_DATA: 'state/ci.json',
      FFLKIT_SANDBOX_RATE_LIMIT: '5',
    });
    const apiUrl = await waitForApiUrl(cli);
    await cli.waitFor(/Press Ctrl-C to stop\.\n$/);
    expect(cli.stdout()).toContain(`Data: ${join(dir, 'state', 'ci.json')} (new file)\n`);
    const response = await fetch(`${apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.headers.get('x-ratelimit-limit')).toBe('5');
    // Quiet: no line for the request.
    expect(cli.stdout()).not.toContain('GET /rest/v1/books');
  });

  it('lets a flag win over its variable', async () => {
    const cli = start(['--port', '0', '--memory'], {
      FFLKIT_SANDBOX_PORT: '1',
      FFLKIT_SANDBOX_DATA: 'never.json',
      FFLKIT_SANDBOX_QUIET: '0',
    });
    const apiUrl = await waitForApiUrl(cli);
    expect(apiUrl).not.toContain(':1/');
    expect(cli.stdout()).toContain('Data: in memory only; nothing is saved.');
    await fetch(`${apiUrl}/books`);
    await cli.waitFor(/GET \/rest\/v1\/books 401 \d+ ms\n/);
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    ['FFLKIT_SANDBOX_QUIET', 'yes', 'FFLKIT_SANDBOX_QUIET must be 1, 0, true or false, not "yes"'],
    ['FFLKIT_SANDBOX_PORT', '40 10', 'FFLKIT_SANDBOX_PORT must be a whole number from 0 to 65535, not "40 10"'],
    ['FFLKIT_SANDBOX_CORS', 'localhost:5173', 'FFLKIT_SANDBOX_CORS takes an origin'],
  ])('exits 2 with the usage for %s=%s', async (name, value, message) => {
    const cli = start(['--memory'], { [name]: value });
    expect(await cli.exit).toEqual({ code: 2, signal: null });
    expect(cli.stderr()).toMatch(
      new RegExp(
        `^fflkit-sandbox: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*\\nUsage: fflkit-sandbox \\[options\\]\\n`,
      ),
    );
  });

  it('exits 1 naming every fault of a faulty file by its path, and leaves no data file', async () => {
    const faulty = {
      accounts: [
        {
          tokens: [{ token: TOKEN }],
          receipts: [
            { ...JSON.parse(receiptBody(1)), zip: 62701, ffl_license: null },
            { ...JSON.parse(receiptBody(2)), book: 'Nope' },
          ],
        },
      ],
    };
    await writeFile(join(dir, 'faulty.yaml'), stringify(faulty));
    const cli = start(['--port', '0', '--fixtures', 'faulty.yaml']);
    expect(await cli.exit).toEqual({ code: 1, signal: null });
    expect(cli.stderr()).toBe(
      `fflkit-sandbox: the fixtures file ${join(dir, 'faulty.yaml')} has 5 faults, so nothing was loaded; fix them and start again:\n` +
        '  accounts[0].receipts[0].address: The address field is required when ffl license is not present.\n' +
        '  accounts[0].receipts[0].city: The city field is required when ffl license is not present.\n' +
        '  accounts[0].receipts[0].state: The state field is required when ffl license is not present.\n' +
        '  accounts[0].receipts[0].zip: The zip field must be a string.\n' +
        '  accounts[0].receipts[1].book: The selected book is invalid.\n',
    );
    expect(cli.stdout()).toBe('');
    // The data file's folder is made before the fixtures are loaded; the file, its journal and its lock are not left.
    expect(await readdir(join(dir, '.fflkit'))).toEqual([]);
  });

  it.each([
    [
      'missing.json',
      async () => undefined,
      (path: string) =>
        `there is no fixtures file ${path}: check the path, which is taken from the working directory (${dir})`,
    ],
    [
      'folder',
      async (path: string) => mkdir(path),
      (path: string) => `${path} is a folder, not a fixtures file: give the path of a .json, .yaml or .yml file`,
    ],
    [
      'notes.txt',
      async (path: string) => writeFile(path, 'just some notes'),
      (path: string) => `the fixtures file ${path} holds a string (read as YAML`,
    ],
    [
      'broken.json',
      async (path: string) => writeFile(path, '{"accounts": [}'),
      (path: string) => `the fixtures file ${path} is not valid JSON: `,
    ],
  ])('exits 1 for %s, saying what is wrong with it', async (name, make, message) => {
    const path = join(dir, name);
    await make(path);
    const cli = start(['--memory', '--port', '0', '--fixtures', name]);
    expect(await cli.exit).toEqual({ code: 1, signal: null });
    expect(cli.stderr().startsWith(`fflkit-sandbox: ${message(path)}`)).toBe(true);
  });

  it('loads the file again at a restart on the same data file, adding nothing, and a second sandbox on it is refused by the lock', async () => {
    await writeFile(join(dir, 'fixtures.json'), JSON.stringify(fixtures));
    const args = ['--port', '0', '--quiet', '--data', 'sandbox.json', '--fixtures', 'fixtures.json'];
    const first = start(args);
    const apiUrl = await waitForApiUrl(first);
    await first.waitFor(/Press Ctrl-C/);
    await fetch(`${apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: receiptBody(3),
    });

    const second = start(args);
    expect(await second.exit).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toMatch(
      new RegExp(
        `^fflkit-sandbox: the data file ${join(dir, 'sandbox.json')} is in use by another sandbox: process ${first.child.pid} `,
      ),
    );

    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });
    const third = start(args);
    const restarted = await waitForApiUrl(third);
    await third.waitFor(/Press Ctrl-C/);
    expect(third.stdout()).toContain('  account 1, Fixture Arms, was there: nothing added\n');
    expect(await books(restarted)).toEqual([
      ['Main', 2],
      ['Consignment', 1],
    ]);
    expect(JSON.parse(await readFile(join(dir, 'sandbox.json'), 'utf8'))).toMatchObject({ format: 2 });
  });

  it('answers GET /_sandbox/health once the banner is printed', async () => {
    const cli = start(['--memory', '--port', '0', '--quiet']);
    const origin = (await waitForApiUrl(cli)).replace('/rest/v1', '');
    const response = await fetch(`${origin}/_sandbox/health`);
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect([response.status, await response.json()]).toEqual([200, { data: { status: 'ok', version } }]);
  });
});
