import type { RequestListener } from 'node:http';
import { LogbookClient } from '@fflkit/sdk';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { WEBHOOK_RETRY_DELAYS_SECONDS, type SandboxDelivery } from '@fflkit/types';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createExpressReceiver } from '../src/create-express-receiver';
import { createNodeReceiver } from '../src/create-node-receiver';
import type { ReceiverOptions } from '../src/create-receiver-handler';
import { acquisition } from './support/acquisition';
import { startReceiverServer } from './support/receiver-server';
import { watchedLog } from './support/watched-log';

// Real deliveries: the sandbox signs each event and POSTs it over HTTP to a receiver listening on
// a free port, exactly as the service would.

const RECEIVERS: [name: string, create: (options: ReceiverOptions) => RequestListener][] = [
  ['Express', createExpressReceiver],
  ['node:http', createNodeReceiver],
];

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
});

/** The delivery of `event` once the sandbox has recorded `attempts` attempts of it. */
async function settled(token: string, event: string, attempts: number): Promise<SandboxDelivery> {
  return vi.waitFor(
    async () => {
      const delivery = (await sandbox.deliveries.list(token)).find((candidate) => candidate.event === event);
      if (delivery?.attempts.length !== attempts) throw new Error(`${event}: waiting for attempt ${attempts}`);
      return delivery;
    },
    { timeout: 4000, interval: 10 },
  );
}

describe.each(RECEIVERS)('the %s receiver, driven by the sandbox', (_name, create) => {
  /** An account of its own, an endpoint for every event, and a receiver listening for it. */
  async function setUp() {
    const account = await sandbox.createAccount({ name: 'Example Sporting Goods LLC' });
    const logbook = new LogbookClient({ token: account.token, baseUrl: sandbox.apiUrl });
    const { token } = account;
    const server = await startReceiverServer();
    onTestFinished(() => server.close());
    const { endpoint, secret } = await logbook.webhooks.create({ url: `${server.origin}/webhooks`, events: ['*'] });
    const watched = watchedLog();
    return { logbook, token, server, endpoint, secret, watched };
  }

  it('routes a receipt.created delivery to the firearm log, and the sandbox records the 200', async () => {
    const { logbook, token, server, secret, watched } = await setUp();
    server.use(create({ secret, log: watched.log }));

    const receipt = await logbook.receipts.create(acquisition({ serial_number: 'EXA0012345' }));
    await watched.entries(1);

    const delivery = await settled(token, 'receipt.created', 1);
    expect(watched.log.entries).toEqual([
      {
        deliveryId: delivery.id,
        event: 'receipt.created',
        receiptId: receipt.id,
        book: 'Main',
        record: 1,
        serialNumber: 'EXA0012345',
        summary: 'Acquired Example Arms Co. EX-9 Compact (EXA0012345) from Example Firearms Wholesale LLC',
      },
    ]);
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: [{ status_code: 200 }] });
  });

  it("routes each event of a receipt's life to its handler", async () => {
    const { logbook, server, secret, watched } = await setUp();
    server.use(create({ secret, log: watched.log }));

    const receipt = await logbook.receipts.create(acquisition({ serial_number: 'EXA0012346' }));
    await logbook.receipts.update(receipt.id, { model: 'EX-9 Compact OR' });
    await logbook.receipts.dispose(receipt.id, {
      disposition_date: '2025-04-02',
      disposed_to: 'Jordan Q. Example',
      address: '100 Example Way',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    await logbook.receipts.delete(receipt.id);
    await watched.entries(4);

    // Deliveries travel in parallel, so they may arrive in any order: compare them by event.
    const summaries = Object.fromEntries(watched.log.entries.map((entry) => [entry.event, entry.summary]));
    expect(summaries).toEqual({
      'receipt.created': 'Acquired Example Arms Co. EX-9 Compact (EXA0012346) from Example Firearms Wholesale LLC',
      'receipt.updated': 'Corrected the record of Example Arms Co. EX-9 Compact OR (EXA0012346)',
      'receipt.disposed': 'Disposed of Example Arms Co. EX-9 Compact OR (EXA0012346) to Jordan Q. Example',
      'receipt.deleted': 'Deleted record 1 of book Main (EXA0012346)',
    });
    expect(new Set(watched.log.entries.map((entry) => entry.receiptId))).toEqual(new Set([receipt.id]));
  });

  it('acknowledges a redelivered delivery without processing it again', async () => {
    const { logbook, token, server, secret, watched } = await setUp();
    server.use(create({ secret, log: watched.log }));
    await logbook.receipts.create(acquisition());
    await watched.entries(1);
    // Redeliver only once the first answer is recorded, so that the first attempt is committed.
    const delivery = await settled(token, 'receipt.created', 1);

    const redelivered = await sandbox.deliveries.redeliver(token, delivery.id);

    expect(redelivered.attempts.map((attempt) => attempt.status_code)).toEqual([200, 200]);
    expect(watched.log.entries.map((entry) => entry.deliveryId)).toEqual([delivery.id]);
  });

  it('answers 401 to a delivery signed with another secret, then processes its retry once the secret is fixed', async () => {
    const { logbook, token, server, secret, watched } = await setUp();
    server.use(create({ secret: 'whsec_0000000000000000000000000000000000000000', log: watched.log }));
    await logbook.receipts.create(acquisition({ serial_number: 'EXA0012347' }));

    const refused = await settled(token, 'receipt.created', 1);
    expect(refused).toMatchObject({ state: 'pending', attempts: [{ status_code: 401 }] });
    expect(watched.log.entries).toEqual([]);

    // The fix is deployed, and the service's first retry falls due a minute later.
    server.use(create({ secret, log: watched.log }));
    await sandbox.clock.advance(token, WEBHOOK_RETRY_DELAYS_SECONDS[0]);

    const [retried] = await sandbox.deliveries.list(token);
    expect(retried).toMatchObject({ id: refused.id, state: 'succeeded' });
    expect(retried?.attempts.map((attempt) => attempt.status_code)).toEqual([401, 200]);
    expect(watched.log.entries).toMatchObject([{ deliveryId: refused.id, serialNumber: 'EXA0012347' }]);
  });

  it("answers the dashboard's ping with a 200 and logs nothing", async () => {
    const { token, server, endpoint, secret, watched } = await setUp();
    server.use(create({ secret, log: watched.log }));

    const ping = await sandbox.webhooks.ping(token, endpoint.id);

    expect(ping).toMatchObject({ event: 'ping', state: 'succeeded', attempts: [{ status_code: 200 }] });
    expect(watched.log.entries).toEqual([]);
  });

  it('answers 405 with Allow: POST to a GET on the webhook path', async () => {
    const server = await startReceiverServer();
    onTestFinished(() => server.close());
    server.use(create({ secret: 'whsec_0000000000000000000000000000000000000000', log: watchedLog().log }));

    const response = await fetch(`${server.origin}/webhooks`);

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    await expect(response.json()).resolves.toMatchObject({ outcome: 'method_not_allowed' });
  });
});
