import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox';
import { receiptBody } from '../support/receipt-body';
import { failingFileSystem } from '../support/failing-files';
import { killableFiles } from '../support/killable-files';
import { abandonLock, canonical, readStateOnDisk } from '../support/state-on-disk';
import { client, closeAll, openReceiver, openSandbox, openWorld } from './sandbox-world';

/** A wall clock that stands still, so that only the advances move the account's clock. */
const now = () => Date.UTC(2025, 2, 14, 15, 4, 5, 500);
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-deliveries-'));
  file = join(dir, 'sandbox.json');
});
afterEach(async () => {
  await closeAll();
  await rm(dir, { recursive: true, force: true });
});

describe('deliveries across a restart on the same data file', () => {
  it('resumes a pending retry: stop, start again, advance the clock, the delivery arrives', async () => {
    const world = await openWorld({ data: file, now });
    world.receiver.reply = () => ({ status: 500 });
    await world.receipt();
    await world.receiver.got(1);
    await world.advance(1);
    await world.sandbox.stop();

    world.receiver.reply = () => ({ status: 200 });
    const restarted = await openSandbox({ data: file, now });
    const again = client(restarted.origin, world.token);
    expect(await again.deliveries()).toMatchObject([{ state: 'pending', attempts: [{ status_code: 500 }] }]);
    await again.advance(58);
    expect(world.receiver.received).toHaveLength(1);
    await again.advance(1);
    expect(world.receiver.received).toHaveLength(2);
    const [first, second] = world.receiver.received;
    expect(second?.body).toBe(first?.body);
    expect(second?.headers['x-svc-delivery']).toBe(first?.headers['x-svc-delivery']);
    expect(await again.deliveries()).toMatchObject([
      {
        state: 'succeeded',
        attempts: [{ at: '2025-03-14T15:04:05Z' }, { at: '2025-03-14T15:05:05Z', status_code: 200 }],
      },
    ]);
  });

  it('sends a delivery whose sandbox was killed right after the 201, once a sandbox starts on the file', async () => {
    const receiver = await openReceiver();
    // Never started and never stopped, as a process killed right after answering.
    const { files, closeAsKilled } = killableFiles();
    const crashed = await createSandbox({ host: '127.0.0.1', port: 0, data: file, rateLimit: 0, files });
    const { token } = await crashed.createAccount();
    const auth = { authorization: `Bearer ${token}` };
    await crashed.server.inject({
      method: 'POST',
      url: '/rest/v1/webhooks',
      headers: auth,
      payload: { url: `${receiver.url}/hook`, events: ['*'] },
    });
    const created = await crashed.server.inject({
      method: 'POST',
      url: '/rest/v1/receipts',
      headers: auth,
      payload: receiptBody(1),
    });
    expect(created.statusCode).toBe(201);
    expect(receiver.received).toHaveLength(0);

    await closeAsKilled();
    await abandonLock(file);
    const restarted = await openSandbox({ data: file });
    await receiver.got(1);
    expect(JSON.parse(receiver.received[0]?.body ?? '')).toMatchObject({
      event: 'receipt.created',
      data: JSON.parse(created.payload).data,
    });
    await client(restarted.origin, token).advance(1);
    expect(await client(restarted.origin, token).deliveries()).toMatchObject([{ state: 'succeeded' }]);
  });

  it('abandons an attempt still in flight at stop: the delivery stays pending and is sent again after a start', async () => {
    const world = await openWorld({ data: file, deliveryStopGraceMs: 20 });
    world.receiver.reply = () => 'hang';
    await world.receipt();
    await world.receiver.got(1);
    await world.sandbox.stop();

    world.receiver.reply = () => ({ status: 200 });
    const restarted = await openSandbox({ data: file });
    await world.receiver.got(2);
    const [first, second] = world.receiver.received;
    expect(second?.headers['x-svc-delivery']).toBe(first?.headers['x-svc-delivery']);
    expect(second?.body).toBe(first?.body);
    await client(restarted.origin, world.token).advance(1);
    expect(await client(restarted.origin, world.token).deliveries()).toMatchObject([
      { state: 'succeeded', attempts: [{ status_code: 200 }] },
    ]);
  });

  it('lets an attempt in flight finish within the grace period of stop, and saves its outcome', async () => {
    const world = await openWorld({ data: file });
    world.receiver.reply = () => 'hang';
    await world.receipt();
    await world.receiver.got(1);
    const stopped = world.sandbox.stop();
    world.receiver.release(200);
    await stopped;

    const restarted = await openSandbox({ data: file });
    expect(await client(restarted.origin, world.token).deliveries()).toMatchObject([
      { state: 'succeeded', attempts: [{ status_code: 200 }] },
    ]);
    expect(world.receiver.received).toHaveLength(1);
  });
});

describe('a delivery attempt whose outcome cannot be saved', () => {
  it('is taken back with the save, and made again once the disk takes writes', async () => {
    const { disk, files } = failingFileSystem();
    let fail = true;
    const world = await openWorld({ data: file, files });
    world.receiver.reply = () => {
      // The attempt reaches the receiver; its outcome is what the full disk loses.
      if (fail) disk.fault = 'full';
      return { status: 200 };
    };
    await world.receipt();
    await world.receiver.got(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    fail = false;
    disk.fault = undefined;
    await world.receiver.got(2);
    const [first, second] = world.receiver.received;
    expect(second?.headers['x-svc-delivery']).toBe(first?.headers['x-svc-delivery']);
    await world.sandbox.persister.flush();
    const [delivery] = await world.deliveries();
    expect(delivery).toMatchObject({ state: 'succeeded' });
    expect(delivery?.attempts).toHaveLength(1);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(world.sandbox.core.snapshot()));
  });
});
