import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxFixtures } from '@fflkit/types';
import { stringify } from 'yaml';
import { FixturesError, startSandbox, type RunningSandbox } from '../src/index';
import { readStateOnDisk } from './support/state-on-disk';
import { receiptBody } from './support/receipt-body';

const started: RunningSandbox[] = [];
const dirs: string[] = [];

const start = async (...args: Parameters<typeof startSandbox>): Promise<RunningSandbox> => {
  const sandbox = await startSandbox(...args);
  started.push(sandbox);
  return sandbox;
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('startSandbox()', () => {
  it('listens on a free port of 127.0.0.1 and answers url and apiUrl', async () => {
    const sandbox = await start();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.url).not.toBe('http://127.0.0.1:0');
    expect(sandbox.apiUrl).toBe(`${sandbox.url}/rest/v1`);
  });

  it('createAccount() answers an account of the asked type and a token that works over HTTP', async () => {
    const sandbox = await start();
    const { account, token } = await sandbox.createAccount({ account_type: 'importer' });
    expect(account.account_type).toBe('importer');
    const response = await fetch(`${sandbox.apiUrl}/books`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: [{ name: 'Main' }] });
  });

  it('passes now to the core: the account clock reads the given time', async () => {
    const now = Date.UTC(2025, 2, 14, 15, 0, 0);
    const sandbox = await start({ now: () => now });
    const { token } = await sandbox.createAccount();
    const response = await fetch(`${sandbox.url}/_sandbox/clock`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(JSON.stringify(await response.json())).toContain('2025-03-14T15:00:00');
  });

  it('passes rateLimit to the core: 0 lifts the limit', async () => {
    const sandbox = await start({ rateLimit: 0 });
    const { token } = await sandbox.createAccount();
    const statuses = await Promise.all(
      Array.from({ length: 70 }, () =>
        fetch(`${sandbox.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } }).then(
          (response) => response.status,
        ),
      ),
    );
    expect(statuses.filter((status) => status === 429)).toEqual([]);
  });

  it('saves to the data file it is given, and a later sandbox on it starts from there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fflkit-start-sandbox-'));
    dirs.push(dir);
    const data = join(dir, 'state.json');
    const first = await start({ data });
    const { token } = await first.createAccount();
    const created = await fetch(`${first.apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: receiptBody(7),
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(await readStateOnDisk(data))).toContain('SBX0000007');
    await first.stop();
    expect(await readFile(data, 'utf8')).toContain('SBX0000007');

    const second = await start({ data });
    const response = await fetch(`${second.apiUrl}/receipts`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await response.json()).toMatchObject({ data: [{ serial_number: 'SBX0000007' }] });
  });

  it('saves without flushing to the disk with flush: false, to the same data file a later sandbox reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fflkit-start-sandbox-'));
    dirs.push(dir);
    const data = join(dir, 'state.json');
    const first = await start({ data, flush: false });
    const { token } = await first.createAccount();
    const created = await fetch(`${first.apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: receiptBody(8),
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(await readStateOnDisk(data))).toContain('SBX0000008');
    await first.stop();
    const second = await start({ data });
    const response = await fetch(`${second.apiUrl}/receipts`, { headers: { authorization: `Bearer ${token}` } });
    expect(await response.json()).toMatchObject({ data: [{ serial_number: 'SBX0000008' }] });
  });

  it('takes an option given as undefined as its default', async () => {
    const sandbox = await start({
      port: undefined,
      host: undefined,
      data: undefined,
      rateLimit: undefined,
      now: undefined,
    });
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.url).not.toBe('http://127.0.0.1:0');
    const { token } = await sandbox.createAccount();
    const response = await fetch(`${sandbox.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('stop() closes the port', async () => {
    const sandbox = await start();
    await sandbox.stop();
    await expect(fetch(`${sandbox.apiUrl}/books`)).rejects.toThrow();
  });

  it.each([
    [{ port: -1 }, /port must be a whole number from 0 to 65535/],
    [{ port: 1.5 }, /port must be a whole number/],
    [{ rateLimit: -5 }, /rateLimit must be a whole number/],
    [{ data: '' }, /data must be a file path/],
    [{ flush: 'no' as unknown as boolean }, /flush must be true or false/],
    [
      { fixtures: '' },
      /fixtures must be a fixtures file as an object \(\{ accounts: \[\.\.\.\] \}\) or the path of a JSON or YAML file/,
    ],
    [{ fixtures: 42 as unknown as string }, /fixtures must be a fixtures file/],
    [{ fixtures: [] as unknown as SandboxFixtures }, /fixtures must be a fixtures file/],
  ])('throws a TypeError for %j', async (options, message) => {
    await expect(startSandbox(options)).rejects.toThrow(TypeError);
    await expect(startSandbox(options)).rejects.toThrow(message);
  });
});

const TOKEN = 'sbx_startsandbox0000000000000001';
const fixtures: SandboxFixtures = {
  accounts: [
    {
      name: 'Fixture Arms',
      books: ['Consignment'],
      tokens: [{ token: TOKEN }],
      webhooks: [{ url: 'http://127.0.0.1:9/hook', events: ['*'], secret: 'whsec_startsandbox000000000000001' }],
      receipts: [JSON.parse(receiptBody(1)), { ...JSON.parse(receiptBody(2)), book: 'Consignment' }],
    },
  ],
};

async function booksAndSerials(sandbox: RunningSandbox, token = TOKEN) {
  const get = (path: string) =>
    fetch(`${sandbox.apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((response) =>
      response.json(),
    );
  const books = (await get('/books')) as { data: { name: string; record_count: number }[] };
  const receipts = (await get('/receipts')) as { data: { serial_number: string }[] };
  return {
    books: books.data.map((book) => [book.name, book.record_count]),
    serials: receipts.data.map((receipt) => receipt.serial_number),
  };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fflkit-start-fixtures-'));
  dirs.push(dir);
  return dir;
}

describe('startSandbox({ fixtures })', () => {
  const loaded = {
    books: [
      ['Main', 1],
      ['Consignment', 1],
    ],
    serials: ['SBX0000001', 'SBX0000002'],
  };

  it('loads fixtures given as an object before it resolves: their token works at once', async () => {
    const sandbox = await start({ fixtures });
    expect(await booksAndSerials(sandbox)).toEqual(loaded);
    const [webhook] = await sandbox.webhooks.list(TOKEN);
    expect(webhook).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(await sandbox.deliveries.list(TOKEN)).toEqual([]);
  });

  it.each([
    ['fixtures.json', JSON.stringify(fixtures)],
    ['fixtures.yaml', stringify(fixtures)],
    ['fixtures.yml', stringify(fixtures)],
  ])('loads fixtures from the path of a file, %s', async (name, text) => {
    const path = join(await tempDir(), name);
    await writeFile(path, text);
    expect(await booksAndSerials(await start({ fixtures: path }))).toEqual(loaded);
  });

  it('loads them again at every start on a data file, which changes nothing the second time and keeps what tests changed', async () => {
    const data = join(await tempDir(), 'sandbox.json');
    const first = await start({ data, fixtures });
    await fetch(`${first.apiUrl}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: receiptBody(3),
    });
    await first.stop();
    const second = await start({ data, fixtures });
    expect(await booksAndSerials(second)).toEqual({
      books: [
        ['Main', 2],
        ['Consignment', 1],
      ],
      serials: ['SBX0000001', 'SBX0000002', 'SBX0000003'],
    });
    expect(await second.webhooks.list(TOKEN)).toHaveLength(1);
  });

  it('rejects a file with faults with a FixturesError naming each by its path, and writes no data file', async () => {
    const dir = await tempDir();
    const data = join(dir, 'sandbox.json');
    const faulty = {
      accounts: [
        { tokens: [{ token: TOKEN }], receipts: [{ ...JSON.parse(receiptBody(1)), zip: 62701, ffl_license: null }] },
      ],
    };
    const error = await startSandbox({ data, fixtures: faulty as unknown as SandboxFixtures }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(FixturesError);
    expect((error as FixturesError).errors).toEqual({
      'accounts[0].receipts[0].address': ['The address field is required when ffl license is not present.'],
      'accounts[0].receipts[0].city': ['The city field is required when ffl license is not present.'],
      'accounts[0].receipts[0].state': ['The state field is required when ffl license is not present.'],
      'accounts[0].receipts[0].zip': ['The zip field must be a string.'],
    });
    expect((error as FixturesError).message).toMatch(
      /^\[@fflkit\/sandbox\] the fixtures have 4 faults, so nothing was loaded; fix them and start again:\n {2}accounts\[0\]\.receipts\[0\]\.address: /,
    );
    // The lock is given back and nothing is written: the same data file starts at once, empty.
    expect(await readdir(dir)).toEqual([]);
    const after = await start({ data });
    expect((await fetch(`${after.apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(401);
  });

  it('rejects a path that is not a fixtures file before it touches the data file', async () => {
    const dir = await tempDir();
    await expect(
      startSandbox({ data: join(dir, 'sandbox.json'), fixtures: join(dir, 'missing.yaml') }),
    ).rejects.toThrow(`[@fflkit/sandbox] there is no fixtures file ${join(dir, 'missing.yaml')}: check the path`);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('startSandbox() and the environment', () => {
  it('reads no FFLKIT_SANDBOX_ variable: the options alone decide', async () => {
    const dir = await tempDir();
    const fixturesFile = join(dir, 'fixtures.json');
    await writeFile(fixturesFile, JSON.stringify(fixtures));
    const variables: Record<string, string> = {
      FFLKIT_SANDBOX_PORT: '1',
      FFLKIT_SANDBOX_HOST: '192.0.2.1',
      FFLKIT_SANDBOX_DATA: join(dir, 'from-env.json'),
      FFLKIT_SANDBOX_MEMORY: '0',
      FFLKIT_SANDBOX_RATE_LIMIT: '1',
      FFLKIT_SANDBOX_MAX_ACCOUNTS: '1',
      FFLKIT_SANDBOX_FIXTURES: fixturesFile,
      FFLKIT_SANDBOX_DEMO: '1',
      FFLKIT_SANDBOX_CORS: 'http://localhost:5173',
      // Not a size at all: read, it would throw.
      FFLKIT_SANDBOX_COMPACT_AT_BYTES: 'abc',
    };
    const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
    Object.assign(process.env, variables);
    try {
      // On a data file, where the journal's size would be read.
      const sandbox = await start({ data: join(dir, 'sandbox.json') });
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.url).not.toBe('http://127.0.0.1:1');
      // No fixtures and no demo: the fixtures' token is unknown, and a second account fits.
      expect((await fetch(`${sandbox.apiUrl}/books`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        401,
      );
      await sandbox.createAccount();
      const { token } = await sandbox.createAccount();
      const response = await fetch(`${sandbox.apiUrl}/books`, {
        headers: { authorization: `Bearer ${token}`, origin: 'http://localhost:5173' },
      });
      expect([response.headers.get('x-ratelimit-limit'), response.headers.get('access-control-allow-origin')]).toEqual([
        '60',
        null,
      ]);
      expect(existsSync(join(dir, 'from-env.json'))).toBe(false);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
