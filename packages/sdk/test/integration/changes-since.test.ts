import { LogbookClient, type SyncCheckpoint } from '@fflkit/sdk';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { receiptBody } from '@fflkit/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let sandbox: RunningSandbox;
// The sandbox's wall clock, moved by hand: updates land in chosen seconds.
let now = Date.UTC(2025, 2, 14, 15, 4, 5, 100);

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, now: () => now });
});

afterAll(async () => {
  await sandbox.stop();
});

async function sync(logbook: LogbookClient, checkpoint: SyncCheckpoint | null) {
  const seen: Array<[number, string]> = [];
  let last = checkpoint;
  for await (const change of logbook.receipts.changesSince(checkpoint)) {
    seen.push([change.receipt.id, change.receipt.model]);
    last = JSON.parse(JSON.stringify(change.checkpoint)) as SyncCheckpoint;
  }
  return { seen, checkpoint: last };
}

describe('receipts.changesSince() against the sandbox', () => {
  it('yields every change once across updates, including changes within the same second', async () => {
    const { token } = await sandbox.createAccount();
    const logbook = new LogbookClient({ token, baseUrl: sandbox.apiUrl, rateLimit: false });
    const [a, b, c] = [
      await logbook.receipts.create(receiptBody({ serial_number: 'CS-1', model: 'a1' })),
      await logbook.receipts.create(receiptBody({ serial_number: 'CS-2', model: 'b1' })),
      await logbook.receipts.create(receiptBody({ serial_number: 'CS-3', model: 'c1' })),
    ];

    const first = await sync(logbook, null);
    expect(first.seen).toEqual([
      [a.id, 'a1'],
      [b.id, 'b1'],
      [c.id, 'c1'],
    ]);

    // Same second as the last sync: a naive `since = last updated_at` would miss these.
    now += 300;
    await logbook.receipts.update(b.id, { model: 'b2' });
    const d = await logbook.receipts.create(receiptBody({ serial_number: 'CS-4', model: 'd1' }));
    const second = await sync(logbook, first.checkpoint);
    expect(second.seen).toEqual([
      [b.id, 'b2'],
      [d.id, 'd1'],
    ]);

    const nothing = await sync(logbook, second.checkpoint);
    expect(nothing.seen).toEqual([]);

    now += 2000;
    await logbook.receipts.update(a.id, { model: 'a2' });
    await logbook.receipts.dispose(c.id, {
      disposition_date: '2025-03-14',
      disposed_to: 'John Q. Example',
      form_4473_serial: 'F-CS-3',
    });
    now += 200;
    await logbook.receipts.update(a.id, { model: 'a3' });
    const third = await sync(logbook, nothing.checkpoint ?? second.checkpoint);
    expect(third.seen).toEqual([
      [a.id, 'a3'],
      [c.id, 'c1'],
    ]);
    expect((await sync(logbook, third.checkpoint)).seen).toEqual([]);
  });

  it('pages through more than one page of changes before moving the checkpoint', async () => {
    const { token } = await sandbox.createAccount();
    const logbook = new LogbookClient({ token, baseUrl: sandbox.apiUrl, rateLimit: false });
    for (let i = 0; i < 205; i++) await logbook.receipts.create(receiptBody({ serial_number: `BULK-${i}` }));
    const first = await sync(logbook, null);
    expect(first.seen).toHaveLength(205);
    now += 1000;
    const last = await logbook.receipts.update((await logbook.receipts.list({ per_page: 1 })).data[0]?.id ?? 0, {
      model: 'changed',
    });
    const second = await sync(logbook, first.checkpoint);
    expect(second.seen).toEqual([[last.id, 'changed']]);
  });
});
