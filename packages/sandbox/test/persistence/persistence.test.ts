import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/create-sandbox';
import { injectAccount, injectGetter, injectReceipt, listReceipts } from '../sandbox-api';

let dir: string;
let file: string;
const opened: Sandbox[] = [];

/** Opens a sandbox on the test's data file, or in memory when `data` is `null`. */
const open = async (data: string | null = file): Promise<Sandbox> => {
  const sandbox = await createSandbox({
    host: '127.0.0.1',
    port: 0,
    data: data ?? undefined,
    rateLimit: 0,
  });
  opened.push(sandbox);
  return sandbox;
};

/** Counts the writes that reach the database's adapter. */
const countWrites = (sandbox: Sandbox): (() => number) => {
  const { adapter } = sandbox.database;
  const write = adapter.write.bind(adapter);
  let writes = 0;
  adapter.write = (data) => {
    writes += 1;
    return write(data);
  };
  return () => writes;
};

const readDataFile = async (): Promise<{ text: string; value: unknown }> => {
  const text = await readFile(file, 'utf8');
  return { text, value: JSON.parse(text) as unknown };
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-sandbox-persistence-'));
  file = join(dir, 'nested', 'dirs', 'sandbox.json');
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('a sandbox on a data file', () => {
  it('starts fresh and writes nothing until something changes', async () => {
    const sandbox = await open();
    expect(sandbox.fresh).toBe(true);
    await sandbox.server.inject({ method: 'GET', url: '/rest/v1/books' });
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('has a change on disk by the time it answers it', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    expect((await readDataFile()).value).toMatchObject({ format: 1 });
    const { status, receipt } = await injectReceipt(sandbox.server, token, 1);
    expect(status).toBe(201);
    const { text } = await readDataFile();
    expect(text).toContain(receipt.serial_number);
  });

  it('writes the same value as JSON.stringify(core.snapshot()), one record per line', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    const auth = { authorization: `Bearer ${token}` };
    const { receipt } = await injectReceipt(sandbox.server, token, 1);
    await injectReceipt(sandbox.server, token, 2);
    await sandbox.server.inject({
      method: 'PUT',
      url: `/rest/v1/receipts/${receipt.id}`,
      headers: auth,
      payload: { model: 'EX-9 Full Size' },
    });
    await sandbox.server.inject({
      method: 'DELETE',
      url: `/rest/v1/receipts/${receipt.id + 1}`,
      headers: auth,
    });
    await sandbox.server.inject({
      method: 'POST',
      url: '/_sandbox/clock/advance',
      headers: auth,
      payload: { seconds: 3600 },
    });
    const { text, value } = await readDataFile();
    expect(value).toEqual(JSON.parse(JSON.stringify(sandbox.core.snapshot())));
    expect(text.split('\n').length).toBeGreaterThan(5);
  });

  it('groups 200 concurrent writes into a few file writes, each answered one on disk', async () => {
    const sandbox = await open();
    const token = await injectAccount(sandbox.server);
    const writes = countWrites(sandbox);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) => injectReceipt(sandbox.server, token, n)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(201));
    expect(writes()).toBeLessThanOrEqual(10);
    const { text } = await readDataFile();
    for (const { receipt } of answers) expect(text).toContain(`"${receipt.serial_number}"`);
  });

  it('restores everything on restart, and record numbers and ids go on from there', async () => {
    const first = await open();
    const token = await injectAccount(first.server);
    const created = [];
    for (let n = 0; n < 5; n += 1) created.push((await injectReceipt(first.server, token, n)).receipt);
    await first.server.inject({
      method: 'DELETE',
      url: `/rest/v1/receipts/${created[4]!.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    await first.stop();

    const second = await open();
    expect(second.fresh).toBe(false);
    const listed = await listReceipts(injectGetter(second.server, token));
    expect(listed.map((receipt) => receipt.id)).toEqual(created.slice(0, 4).map((r) => r.id));
    const next = await injectReceipt(second.server, token, 5);
    expect(next.status).toBe(201);
    expect(next.receipt.record).toBe(created[4]!.record + 1);
    expect(next.receipt.id).toBe(created[4]!.id + 1);
    expect(second.core.version).toBeGreaterThan(0);
  });

  it('after a restart serialises only new and changed records, reusing the file for the rest', async () => {
    const first = await open();
    const token = await injectAccount(first.server);
    for (let n = 0; n < 20; n += 1) await injectReceipt(first.server, token, n);
    await first.stop();

    const second = await open();
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      expect((await injectReceipt(second.server, token, 20)).status).toBe(201);
      const serialised = spy.mock.calls
        .map(([value]) => value as Record<string, unknown>)
        .filter((value) => typeof value === 'object' && value !== null && 'receipt_id' in value);
      expect(serialised.map((entry) => entry['receipt_id'])).toEqual([21]);
    } finally {
      spy.mockRestore();
    }
    const { value } = await readDataFile();
    expect(value).toEqual(JSON.parse(JSON.stringify(second.core.snapshot())));
  });

  it('refuses to start on a data file that is not JSON, naming the file', async () => {
    const sandbox = await open();
    await injectAccount(sandbox.server);
    await sandbox.stop();
    await writeFile(file, '{"format": 1, "accounts": [');
    await expect(open()).rejects.toThrow(`the data file ${file} is not valid JSON`);
  });
});

describe('a sandbox in memory', () => {
  it('keeps its state while it runs, and a new one starts empty', async () => {
    const sandbox = await open(null);
    expect(sandbox.fresh).toBe(true);
    const token = await injectAccount(sandbox.server);
    expect((await injectReceipt(sandbox.server, token, 1)).status).toBe(201);
    expect(await listReceipts(injectGetter(sandbox.server, token))).toHaveLength(1);
    await sandbox.stop();
    const next = await open(null);
    expect(next.fresh).toBe(true);
    const response = await next.server.inject({
      method: 'GET',
      url: '/rest/v1/books',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
