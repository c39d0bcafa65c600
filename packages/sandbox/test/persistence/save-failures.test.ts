import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { failingFileSystem } from '../support/failing-files';
import { receiptBody } from '../support/receipt-body';
import { injectAccount, injectReceipt } from '../support/sandbox-api';
import { canonical, readStateOnDisk } from '../support/state-on-disk';

let dir: string;
let file: string;
const opened: Sandbox[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-save-failures-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.stop().catch(() => undefined)));
  await rm(dir, { recursive: true, force: true });
});

/** A sandbox on the test's data file whose disk the test can make full or read-only. */
async function openFailing() {
  const { disk, files } = failingFileSystem();
  const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: file, rateLimit: 0, files });
  opened.push(sandbox);
  const token = await injectAccount(sandbox.server);
  const auth = { authorization: `Bearer ${token}` };
  const inject = async (method: string, url: string, payload?: object | string) => {
    const response = await sandbox.server.inject({ method, url, headers: auth, ...(payload && { payload }) });
    return { status: response.statusCode, body: JSON.parse(response.payload || 'null') as Record<string, unknown> };
  };
  return { disk, sandbox, token, inject };
}

describe.each(['full', 'read-only'] as const)('a sandbox whose disk is %s', (fault) => {
  it('answers a write 503 naming the cause, and keeps nothing of it, in memory or on disk', async () => {
    const { disk, sandbox, token, inject } = await openFailing();
    expect((await injectReceipt(sandbox.server, token, 1)).status).toBe(201);
    const before = canonical(sandbox.core.snapshot());
    disk.fault = fault;

    const refused = await inject('POST', '/rest/v1/receipts', receiptBody(2));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      message: expect.stringMatching(
        new RegExp(
          `^The sandbox could not save its data, so this request changed nothing: cannot append to the journal ${file}\\.journal\\.1 \\((ENOSPC|EROFS)`,
        ),
      ) as unknown,
    });
    const endpoint = await inject('POST', '/rest/v1/webhooks', { url: 'https://hooks.example.com/a', events: ['*'] });
    expect(endpoint.status).toBe(503);
    expect(canonical(sandbox.core.snapshot())).toEqual(before);
    expect((await inject('GET', '/rest/v1/webhooks')).body).toEqual({ data: [] });
    expect(((await inject('GET', '/rest/v1/receipts')).body['meta'] as { total: number }).total).toBe(1);

    disk.fault = undefined;
    const next = await injectReceipt(sandbox.server, token, 3);
    expect(next).toMatchObject({ status: 201, receipt: { id: 2, record: 2 } });
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(sandbox.core.snapshot()));
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a save that fails while other requests wait on it', () => {
  it('answers every request that saw the lost change 503, reads included, and shows it to none', async () => {
    const { disk, sandbox, token, inject } = await openFailing();
    disk.fault = 'full';
    const answers = await Promise.all([
      inject('POST', '/rest/v1/receipts', receiptBody(1)),
      inject('GET', '/rest/v1/receipts'),
      inject('POST', '/rest/v1/receipts', receiptBody(2)),
    ]);
    const [first, read, second] = answers;
    expect([first?.status, second?.status]).toEqual([503, 503]);
    // A read answered 200 shows no change that the failed save took back; one that saw it is a 503.
    if (read?.status === 200) expect((read.body['meta'] as { total: number }).total).toBe(0);
    else expect(read?.status).toBe(503);
    disk.fault = undefined;
    expect(((await inject('GET', '/rest/v1/receipts')).body['meta'] as { total: number }).total).toBe(0);
    expect((await injectReceipt(sandbox.server, token, 3)).receipt).toMatchObject({ id: 1, record: 1 });
  });

  it('leaves no journal segment behind however many appends fail', async () => {
    const { disk, inject } = await openFailing();
    disk.fault = 'full';
    for (let n = 0; n < 20; n += 1)
      expect((await inject('POST', '/rest/v1/receipts', receiptBody(n))).status).toBe(503);
    expect((await readdir(dir)).sort()).toEqual(['sandbox.json', 'sandbox.json.lock']);
    expect(disk.failures).toBeGreaterThanOrEqual(20);
  });
});

describe('files with secrets', () => {
  it('are readable by their owner only: the data file, the journal and the lock', async () => {
    const { sandbox, token } = await openFailing();
    await injectReceipt(sandbox.server, token, 1);
    for (const name of await readdir(dir)) {
      expect(((await stat(join(dir, name))).mode & 0o777).toString(8), name).toBe('600');
    }
    expect((await readdir(dir)).sort()).toEqual(['sandbox.json', 'sandbox.json.journal.1', 'sandbox.json.lock']);
  });
});
