import { LogbookClient } from '@fflkit/sdk';
import { checkReceiver, startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import type { SandboxDelivery } from '@fflkit/types';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { acquisition } from './acquisition';
import type { WorkerUnderTest } from './worker-under-test';

/** A receipt as a queued event carries it: without its documents. */
function withoutDocuments<T extends { documents: unknown }>(receipt: T): Omit<T, 'documents'> {
  const { documents: _documents, ...rest } = receipt;
  return rest;
}

/**
 * The receiver's behaviour, driven by real deliveries: the sandbox signs each event and POSTs it
 * over HTTP to the Worker, exactly as the service would. Each runtime's test file runs these
 * scenarios with its own `launch`.
 *
 * @example
 * ```ts
 * describeReceiverScenarios('Node', launchOnNode);
 * ```
 */
export function describeReceiverScenarios(runtime: string, launch: () => Promise<WorkerUnderTest>): void {
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

  /** An account of its own, an endpoint for every event, and the Worker, started with `secret` or the endpoint's. */
  async function setUp(secret?: string) {
    const { token } = await sandbox.createAccount({ name: 'Example Sporting Goods LLC' });
    const logbook = new LogbookClient({ token, baseUrl: sandbox.apiUrl });
    const worker = await launch();
    onTestFinished(() => worker.close());
    const created = await logbook.webhooks.create({ url: `${worker.origin}/webhooks`, events: ['*'] });
    await worker.start(secret ?? created.secret);
    return { logbook, token, worker, endpoint: created.endpoint };
  }

  describe(`the Workers receiver on ${runtime}, driven by the sandbox`, () => {
    it('queues a receipt.created made with the SDK with its delivery id, and the sandbox records the 200', async () => {
      const { logbook, token, worker } = await setUp();

      const receipt = await logbook.receipts.create(acquisition());
      const [message] = await worker.received(1);

      const delivery = await settled(token, 'receipt.created', 1);
      expect(delivery).toMatchObject({ state: 'succeeded', attempts: [{ status_code: 200 }] });
      expect(message).toEqual({
        deliveryId: delivery.id,
        event: { event: 'receipt.created', timestamp: expect.any(String), data: withoutDocuments(receipt) },
      });
    });

    it("queues each event of a receipt's life", async () => {
      const { logbook, worker } = await setUp();

      const receipt = await logbook.receipts.create(acquisition());
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
      const messages = await worker.received(4);

      // Deliveries travel in parallel, so they may arrive in any order: compare them by event.
      const byEvent = Object.fromEntries(
        messages.map(({ event }) => [event.event, [event.data.id, event.data.status]]),
      );
      expect(byEvent).toEqual({
        'receipt.created': [receipt.id, 'on_hand'],
        'receipt.updated': [receipt.id, 'on_hand'],
        'receipt.disposed': [receipt.id, 'disposed'],
        'receipt.deleted': [receipt.id, 'disposed'],
      });
      expect(new Set(messages.map((message) => message.deliveryId)).size).toBe(4);
    });

    it('answers a redelivered delivery 200 without queueing it again', async () => {
      const { logbook, token, worker } = await setUp();
      const receipt = await logbook.receipts.create(acquisition());
      await worker.received(1);
      // Redeliver only once the first answer is recorded, so that the first attempt is committed.
      const created = await settled(token, 'receipt.created', 1);

      const redelivered = await sandbox.deliveries.redeliver(token, created.id);
      // A message queued by the redelivery would come before the update's, which is sent later.
      await logbook.receipts.update(receipt.id, { model: 'EX-9 Compact OR' });
      const messages = await worker.received(2);

      expect(redelivered.attempts.map((attempt) => attempt.status_code)).toEqual([200, 200]);
      const updated = await settled(token, 'receipt.updated', 1);
      expect(messages.map(({ deliveryId, event }) => [deliveryId, event.event])).toEqual([
        [created.id, 'receipt.created'],
        [updated.id, 'receipt.updated'],
      ]);
    });

    it('answers 401 to a delivery signed with another secret, which stays pending, and queues nothing', async () => {
      const { logbook, token, worker } = await setUp('whsec_0000000000000000000000000000000000000000');

      await logbook.receipts.create(acquisition());

      const delivery = await settled(token, 'receipt.created', 1);
      expect(delivery).toMatchObject({ state: 'pending', attempts: [{ status_code: 401 }] });
      expect(worker.messages).toEqual([]);
    });

    it("answers the dashboard's ping 200 and queues nothing", async () => {
      const { token, worker, endpoint } = await setUp();

      const ping = await sandbox.webhooks.ping(token, endpoint.id);

      expect(ping).toMatchObject({ event: 'ping', state: 'succeeded', attempts: [{ status_code: 200 }] });
      expect(worker.messages).toEqual([]);
    });

    it('passes the receiver check of fflkit-sandbox check-receiver, and queues the duplicate once', async () => {
      const worker = await launch();
      onTestFinished(() => worker.close());
      const secret = 'whsec_w0rkersRece1verCheck000000000000000';
      await worker.start(secret);

      const report = await checkReceiver({ url: `${worker.origin}/webhooks`, secret });

      // A runtime that starts slowly may be warned about; nothing fails.
      expect(report.ok).toBe(true);
      expect(report.checks.map((check) => [check.name, check.requests.map((request) => request.status)])).toEqual([
        ['ping', [200]],
        ['forged_signature', [401]],
        ['missing_signature', [401]],
        ['duplicate_delivery', [200, 200]],
        ['out_of_order', [200, 200]],
        ['large_body', [200]],
      ]);
      expect(
        report.checks.every(
          (check) => check.outcome === 'pass' || (check.outcome === 'warn' && check.reason?.startsWith('It took')),
        ),
      ).toBe(true);
      const messages = await worker.received(4);
      expect(messages.map(({ event }) => event.event)).toEqual([
        'receipt.created',
        'receipt.deleted',
        'receipt.created',
        'receipt.updated',
      ]);
    });

    it('answers 405 with Allow: POST to a GET of /webhooks, and 404 to any other path', async () => {
      const { worker } = await setUp();

      const get = await fetch(`${worker.origin}/webhooks`);
      const elsewhere = await fetch(`${worker.origin}/hooks`, { method: 'POST', body: '{}' });

      expect([get.status, get.headers.get('allow'), (await get.json()) as unknown]).toEqual([
        405,
        'POST',
        { message: expect.any(String), outcome: 'method_not_allowed' },
      ]);
      expect([elsewhere.status, (await elsewhere.json()) as unknown]).toEqual([
        404,
        { message: 'Not found: deliveries are received at /webhooks.' },
      ]);
    });
  });
}
