import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/index';
import { receiptBody } from './support/receipt-body';

// The sandbox carries out what the core's fault rules decide and the core cannot do: it drops
// the connection (after saving a change made before the failure) and holds an answer back in
// real time, ending every such wait when it stops.

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-faults-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

function post(sandbox: RunningSandbox, token: string, n: number): Promise<Response> {
  return fetch(`${sandbox.apiUrl}/receipts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: receiptBody(n),
  });
}

describe('a drop rule', () => {
  it('closes the connection without an answer; after acting, the change is saved and survives a restart, the rule does not', async () => {
    const data = join(folder, 'drop.json');
    const first = await startSandbox({ data });
    const { token } = await first.createAccount();
    await first.faults.add(token, { operation: 'createReceipt', action: 'drop', times: 1 });
    await first.faults.add(token, { operation: 'createReceipt', action: 'drop', after_acting: true, times: 1 });
    const before = await post(first, token, 1).catch((error: unknown) => error);
    const after = await post(first, token, 2).catch((error: unknown) => error);
    expect([before, after]).toEqual([expect.any(TypeError), expect.any(TypeError)]);
    expect(
      (await first.requests(token)).map((entry) => [entry.status, entry.fault?.rule, entry.fault?.withheld_status]),
    ).toEqual([
      [0, 2, 201],
      [0, 1, null],
    ]);
    await first.stop();

    const second = await startSandbox({ data });
    try {
      const page = await second.receipts.browse(token);
      expect(page.data.map((receipt) => receipt.serial_number)).toEqual(['SBX0000002']);
      expect(await second.faults.list(token)).toEqual([]);
      expect((await post(second, token, 3)).status).toBe(201);
    } finally {
      await second.stop();
    }
  });
});

describe('a delay rule', () => {
  it('holds the answer back after the core acted, and a stop ends the wait at once', async () => {
    const sandbox = await startSandbox();
    const { token } = await sandbox.createAccount();
    await sandbox.faults.add(token, { operation: 'createReceipt', action: 'delay', delay_ms: 300_000 });
    let answered = false;
    const pending = post(sandbox, token, 4).then((response) => {
      answered = true;
      return response;
    });
    // The core has recorded the receipt while the answer is still held.
    await vi.waitFor(async () => expect((await sandbox.receipts.browse(token)).meta.total).toBe(1));
    expect(answered).toBe(false);
    await sandbox.stop();
    const response = await pending;
    expect([response.status, response.headers.get('x-sandbox-fault')]).toEqual([201, '1']);
  });
});
