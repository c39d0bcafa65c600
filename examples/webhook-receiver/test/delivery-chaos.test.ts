import type { RequestListener } from 'node:http';
import { LogbookClient } from '@fflkit/sdk';
import { startSandbox, type RunningSandbox, type SandboxWebhookChaosPut } from '@fflkit/sandbox';
import type { SandboxDelivery } from '@fflkit/types';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createExpressReceiver } from '../src/create-express-receiver';
import { createInventory } from '../src/inventory';
import { createNodeReceiver } from '../src/create-node-receiver';
import type { ReceiverOptions } from '../src/create-receiver-handler';
import { acquisition } from './support/acquisition';
import { startReceiverServer } from './support/receiver-server';
import { watchedLog } from './support/watched-log';

// The sandbox's delivery chaos against the real receivers: deliveries in a shuffled order, each
// sent twice, or late, and all of it at once. Whatever comes, each receiver processes every
// delivery once and ends with the receipt where its life ended.

/** A request as it reached the receiver, and the receiver's answer. */
interface Arrival {
  readonly event: string;
  readonly deliveryId: string;
  /** The event's `timestamp`, in epoch milliseconds. */
  readonly timestampMs: number;
  /** When the request reached the receiver, in epoch milliseconds. */
  readonly arrivedMs: number;
  status?: number;
}

/** Notes each request in the order it reached `listener`, then lets the listener answer it. */
function tapped(listener: RequestListener, arrivals: Arrival[]): RequestListener {
  return (request, response) => {
    const arrivedMs = Date.now();
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const event = String(request.headers['x-svc-event']);
      const deliveryId = String(request.headers['x-svc-delivery']);
      const arrival: Arrival = {
        event,
        deliveryId,
        timestampMs: Date.parse((JSON.parse(body) as { timestamp: string }).timestamp),
        arrivedMs,
      };
      arrivals.push(arrival);
      response.on('finish', () => (arrival.status = response.statusCode));
    });
    listener(request, response);
  };
}

const LIFE = ['receipt.created', 'receipt.updated', 'receipt.disposed', 'receipt.deleted'];

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe.each([
  ['Express', createExpressReceiver],
  ['node:http', createNodeReceiver],
] as const)('the %s receiver under delivery chaos', (_name, create: (options: ReceiverOptions) => RequestListener) => {
  /**
   * An endpoint with `chaos` and a receiver behind it, then a receipt's whole life through the
   * API; resolves once the sandbox has recorded `attempts` attempts of its deliveries.
   */
  async function live(chaos: SandboxWebhookChaosPut, attempts: number) {
    const { token } = await sandbox.createAccount();
    const logbook = new LogbookClient({ baseUrl: sandbox.apiUrl, token, rateLimit: false });
    const server = await startReceiverServer();
    onTestFinished(() => server.close());
    const { endpoint, secret } = await logbook.webhooks.create({ url: `${server.origin}/webhooks`, events: ['*'] });
    await sandbox.webhooks.setChaos(token, endpoint.id, chaos);
    const watched = watchedLog();
    const inventory = createInventory();
    const arrivals: Arrival[] = [];
    server.use(tapped(create({ secret, log: watched.log, inventory }), arrivals));

    const receipt = await logbook.receipts.create(acquisition());
    await logbook.receipts.update(receipt.id, { model: 'EX-9 Compact OR' });
    await logbook.receipts.dispose(receipt.id, {
      disposition_date: '2025-04-02',
      disposed_to: 'Jordan Q. Example',
      form_4473_serial: `F-${receipt.id}`,
    });
    await logbook.receipts.delete(receipt.id);
    await watched.entries(4);
    const deliveries = await vi.waitFor(
      async () => {
        const list = await sandbox.deliveries.list(token);
        const made = list.reduce((sum, delivery) => sum + delivery.attempts.length, 0);
        if (made !== attempts || arrivals.some((arrival) => arrival.status === undefined))
          throw new Error(`waiting for ${attempts} attempts`);
        return list;
      },
      { timeout: 4000, interval: 10 },
    );
    return { receipt, log: watched.log, inventory, arrivals, deliveries };
  }

  /** Every delivery processed once, every answer a 200, and the receipt deleted, with no ghost left on hand. */
  function expectCorrect(world: Awaited<ReturnType<typeof live>>, deliveries: readonly SandboxDelivery[]) {
    expect(world.log.entries.map((entry) => entry.deliveryId).sort()).toEqual(
      deliveries.map((delivery) => delivery.id).sort(),
    );
    expect(world.log.entries.map((entry) => entry.event).sort()).toEqual([...LIFE].sort());
    expect(world.arrivals.every((arrival) => arrival.status === 200)).toBe(true);
    expect(world.inventory.onHand()).toEqual([]);
    expect(world.inventory.get(world.receipt.id)).toMatchObject({ status: 'deleted' });
    expect(deliveries.every((delivery) => delivery.state === 'succeeded')).toBe(true);
  }

  it("gets a receipt's life shuffled, deleted before created, one at a time, and ends where the life ended", async () => {
    const world = await live({ reorder: { window: 4, hold_ms: 30_000 }, seed: 5 }, 4);
    expect(world.arrivals.map((arrival) => arrival.event)).toEqual([
      'receipt.disposed',
      'receipt.deleted',
      'receipt.updated',
      'receipt.created',
    ]);
    expectCorrect(world, world.deliveries);
    // What came after a newer event was acknowledged without being applied.
    expect(world.log.entries.map((entry) => entry.summary.endsWith('(older than what is known: not applied)'))).toEqual(
      [false, false, true, true],
    );
  });

  it('gets every delivery twice with the same X-SVC-Delivery, answers both 200 and processes each once', async () => {
    const world = await live({ duplicate: 1 }, 8);
    const times = new Map<string, number>();
    for (const arrival of world.arrivals) times.set(arrival.deliveryId, (times.get(arrival.deliveryId) ?? 0) + 1);
    expect([...times.values()]).toEqual([2, 2, 2, 2]);
    expectCorrect(world, world.deliveries);
    for (const delivery of world.deliveries) {
      expect(delivery.attempts.map((attempt) => [attempt.status_code, attempt.duplicate ?? false])).toEqual([
        [200, false],
        [200, true],
      ]);
    }
  });

  it('gets every delivery late, never before its delay has passed', async () => {
    const world = await live({ delay_ms: 100 }, 4);
    for (const arrival of world.arrivals) expect(arrival.arrivedMs - arrival.timestampMs).toBeGreaterThanOrEqual(100);
    expectCorrect(world, world.deliveries);
  });

  it('stays correct under all of it at once', async () => {
    const world = await live({ reorder: { window: 4, hold_ms: 30_000 }, duplicate: 1, delay_ms: 20, seed: 5 }, 8);
    expect(world.arrivals.map((arrival) => arrival.event)).toEqual([
      'receipt.disposed',
      'receipt.disposed',
      'receipt.deleted',
      'receipt.deleted',
      'receipt.updated',
      'receipt.updated',
      'receipt.created',
      'receipt.created',
    ]);
    expectCorrect(world, world.deliveries);
  });
});
