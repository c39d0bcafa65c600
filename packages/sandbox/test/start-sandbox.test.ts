import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/index';
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
    const dir = await mkdtemp(join(tmpdir(), 'boundbook-start-sandbox-'));
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

  it('takes an option given as undefined as its default', async () => {
    const sandbox = await start({ port: undefined, host: undefined, data: undefined, rateLimit: undefined, now: undefined });
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
  ])('throws a TypeError for %j', async (options, message) => {
    await expect(startSandbox(options)).rejects.toThrow(TypeError);
    await expect(startSandbox(options)).rejects.toThrow(message);
  });
});
