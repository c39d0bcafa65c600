import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DeliveryStore } from '../../src/index';
import { BUILDS } from '../support/builds';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { recorder } from '../support/recorder';
import { SECRET, signedDelivery } from '../support/signed-delivery';
import { parsed, receiverSetup } from '../support/receiver-setup';

const CREATED = EVENT_EXAMPLES['receipt.created'];

describe.each(BUILDS)(
  'createWebhookHandler(options).receive(delivery) deduplicating on the $name',
  ({ api: { createWebhookHandler } }) => {
    const setup = (options: Parameters<typeof receiverSetup>[1] = {}) => receiverSetup(createWebhookHandler, options);

    it('answers 200 duplicate to a retried delivery (same id, same body) and calls the handler once', async () => {
      const { record, receive } = setup();
      const delivery = signedDelivery(CREATED);
      await expect(receive(delivery)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      const again = await receive(delivery);
      expect(again).toMatchObject({ status: 200, outcome: 'duplicate' });
      expect(parsed(again).message).toBe('Delivery already processed.');
      expect(record.calls).toHaveLength(1);
    });

    it('answers 200 duplicate to the same signed body replayed under a new X-SVC-Delivery, and calls the handler once', async () => {
      const { record, receive } = setup();
      const delivery = signedDelivery(CREATED);
      await expect(receive(delivery)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      for (let replay = 0; replay < 3; replay += 1) {
        const answer = await receive({ ...delivery, headers: { ...delivery.headers, 'X-SVC-Delivery': randomUUID() } });
        expect(answer).toMatchObject({ status: 200, outcome: 'duplicate' });
      }
      expect(record.calls).toHaveLength(1);
    });

    it('recognises the same bytes given as text or as bytes', async () => {
      const { record, webhooks } = setup();
      const delivery = signedDelivery(CREATED);
      await webhooks.receive({ payload: delivery.body, headers: delivery.headers });
      await expect(
        webhooks.receive({ payload: new TextEncoder().encode(delivery.body), headers: delivery.headers }),
      ).resolves.toMatchObject({ outcome: 'duplicate' });
      await expect(
        webhooks.receive({ payload: Buffer.from(delivery.body), headers: delivery.headers }),
      ).resolves.toMatchObject({ outcome: 'duplicate' });
      expect(record.calls).toHaveLength(1);
    });

    it('processes two different signed bodies sent under one X-SVC-Delivery, each once: the id is not signed, the bodies are', async () => {
      const { record, receive } = setup();
      const first = signedDelivery(CREATED);
      const other = signedDelivery(EVENT_EXAMPLES['receipt.updated'], { deliveryId: first.deliveryId });
      await expect(receive(first)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      await expect(receive(other)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      await expect(receive(other)).resolves.toMatchObject({ status: 200, outcome: 'duplicate' });
      await expect(receive(first)).resolves.toMatchObject({ status: 200, outcome: 'duplicate' });
      expect(record.calls.map(({ name, context }) => [name, context])).toEqual([
        ['receipt.created', { deliveryId: first.deliveryId, secretIndex: 0 }],
        ['receipt.updated', { deliveryId: first.deliveryId, secretIndex: 0 }],
      ]);
    });

    it('keys nothing of a delivery whose signature does not match: the store is never called', async () => {
      const log: string[] = [];
      const store: DeliveryStore = {
        claim: (key) => {
          log.push(key);
          return 'claimed' as const;
        },
        commit: () => {},
        release: () => {},
      };
      const { receive } = setup({ store });
      await expect(receive(signedDelivery(CREATED, { secret: 'whsec_attacker' }))).resolves.toMatchObject({
        status: 401,
      });
      expect(log).toEqual([]);
    });

    describe("with deduplicateBy: 'delivery-id'", () => {
      it('answers 200 duplicate to a retry under the same id, but processes the same body under a new id again', async () => {
        const { record, receive } = setup({ deduplicateBy: 'delivery-id' });
        const delivery = signedDelivery(CREATED);
        await expect(receive(delivery)).resolves.toMatchObject({ outcome: 'processed' });
        await expect(receive(delivery)).resolves.toMatchObject({ outcome: 'duplicate' });
        await expect(
          receive({ ...delivery, headers: { ...delivery.headers, 'X-SVC-Delivery': randomUUID() } }),
        ).resolves.toMatchObject({ outcome: 'processed' });
        expect(record.calls).toHaveLength(2);
      });

      it('answers 200 duplicate to another signed body under an id already processed', async () => {
        const { record, receive } = setup({ deduplicateBy: 'delivery-id' });
        const first = signedDelivery(CREATED);
        await receive(first);
        await expect(
          receive(signedDelivery(EVENT_EXAMPLES['receipt.updated'], { deliveryId: first.deliveryId })),
        ).resolves.toMatchObject({ outcome: 'duplicate' });
        expect(record.calls).toHaveLength(1);
      });

      it("keys the store on the SHA-256 digest of the id, 64 hex digits whatever the id's length", async () => {
        const log: string[] = [];
        const store: DeliveryStore = {
          claim: (key) => {
            log.push(key);
            return 'claimed' as const;
          },
          commit: () => {},
          release: () => {},
        };
        const { receive } = setup({ store, deduplicateBy: 'delivery-id' });
        const id = 'x'.repeat(8192);
        await receive(signedDelivery(CREATED, { deliveryId: id }));
        expect(log).toEqual([createHash('sha256').update(id).digest('hex')]);
      });

      it('reads undefined as the default, body', async () => {
        const { record, receive } = setup({ deduplicateBy: undefined });
        const delivery = signedDelivery(CREATED);
        await receive(delivery);
        await expect(
          receive({ ...delivery, headers: { ...delivery.headers, 'X-SVC-Delivery': randomUUID() } }),
        ).resolves.toMatchObject({ outcome: 'duplicate' });
        expect(record.calls).toHaveLength(1);
      });
    });

    it('answers 500 handler_failed when the handler throws, reports it, and processes the retry', async () => {
      const record = recorder();
      let attempts = 0;
      const webhooks = createWebhookHandler({
        secret: SECRET,
        onError: record.onError,
        on: {
          'receipt.created': () => {
            attempts += 1;
            if (attempts === 1) throw new Error('database down: password=hunter2');
          },
        },
      });
      const delivery = signedDelivery(CREATED);
      const first = await webhooks.receive({ payload: delivery.body, headers: delivery.headers });
      expect(first).toMatchObject({ status: 500, outcome: 'handler_failed' });
      expect(parsed(first).message).toBe('The receiver failed to process the delivery; the sender will retry it.');
      expect(record.errors).toEqual([
        {
          error: new Error('database down: password=hunter2'),
          info: { outcome: 'handler_failed', deliveryId: delivery.deliveryId, event: 'receipt.created' },
        },
      ]);
      await expect(webhooks.receive({ payload: delivery.body, headers: delivery.headers })).resolves.toMatchObject({
        status: 200,
        outcome: 'processed',
      });
      expect(attempts).toBe(2);
    });

    it('answers 409 delivery_in_progress to the same delivery while its handler is still running', async () => {
      let finish = () => {};
      let started = () => {};
      // The handler runs once the signature is verified, which the web build does with Web Crypto
      // off the main thread: the second attempt is sent once the handler has started, not after a
      // set number of turns of the event loop.
      const running = new Promise<void>((resolve) => (started = resolve));
      const webhooks = createWebhookHandler({
        secret: SECRET,
        on: {
          'receipt.created': () => {
            started();
            return new Promise<void>((resolve) => (finish = resolve));
          },
        },
      });
      const delivery = signedDelivery(CREATED);
      const first = webhooks.receive({ payload: delivery.body, headers: delivery.headers });
      await running;
      await expect(webhooks.receive({ payload: delivery.body, headers: delivery.headers })).resolves.toMatchObject({
        status: 409,
        outcome: 'delivery_in_progress',
      });
      finish();
      await expect(first).resolves.toMatchObject({ status: 200, outcome: 'processed' });
    });

    it('processes every attempt when the store is turned off', async () => {
      const { record, receive } = setup({ store: false });
      const delivery = signedDelivery(CREATED);
      await receive(delivery);
      await receive(delivery);
      expect(record.calls).toHaveLength(2);
    });

    it('claims, then commits a processed delivery in a given store, keyed on the SHA-256 digest of its body', async () => {
      const log: string[] = [];
      const store: DeliveryStore = {
        claim: async (id) => {
          log.push(`claim ${id}`);
          return 'claimed' as const;
        },
        commit: async (id) => void log.push(`commit ${id}`),
        release: async (id) => void log.push(`release ${id}`),
      };
      const { receive } = setup({ store });
      const delivery = signedDelivery(CREATED);
      await receive(delivery);
      const key = createHash('sha256').update(delivery.body).digest('hex');
      expect(log).toEqual([`claim ${key}`, `commit ${key}`]);
    });

    it('answers 500 store_failed when the store cannot claim', async () => {
      const { record, receive } = setup({
        store: { claim: () => Promise.reject(new Error('redis down')), commit: () => {}, release: () => {} },
      });
      const delivery = signedDelivery(CREATED);
      await expect(receive(delivery)).resolves.toMatchObject({ status: 500, outcome: 'store_failed' });
      expect(record.calls).toEqual([]);
      expect(record.errors[0]?.info).toEqual({
        outcome: 'store_failed',
        deliveryId: delivery.deliveryId,
        event: 'receipt.created',
      });
    });

    it('answers 200 processed when the store cannot commit after the handler ran, and reports it', async () => {
      const { record, receive } = setup({
        store: { claim: () => 'claimed', commit: () => Promise.reject(new Error('redis down')), release: () => {} },
      });
      await expect(receive(signedDelivery(CREATED))).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      expect(record.calls).toHaveLength(1);
      expect(record.errors.map(({ error, info }) => [(error as Error).message, info.outcome])).toEqual([
        ['redis down', 'store_failed'],
      ]);
    });

    it('reports a store that cannot release after the handler threw, and still answers 500 handler_failed', async () => {
      const record = recorder();
      const webhooks = createWebhookHandler({
        secret: SECRET,
        onError: record.onError,
        store: { claim: () => 'claimed', commit: () => {}, release: () => Promise.reject(new Error('redis down')) },
        on: { 'receipt.created': () => Promise.reject(new Error('handler')) },
      });
      const delivery = signedDelivery(CREATED);
      await expect(webhooks.receive({ payload: delivery.body, headers: delivery.headers })).resolves.toMatchObject({
        status: 500,
        outcome: 'handler_failed',
      });
      expect(record.errors.map(({ error, info }) => [(error as Error).message, info.outcome])).toEqual([
        ['redis down', 'store_failed'],
        ['handler', 'handler_failed'],
      ]);
    });

    it('answers 500 setup_error for a store whose claim gives something else', async () => {
      // @ts-expect-error: a claim is one of three words
      const { record, receive } = setup({ store: { claim: () => true, commit: () => {}, release: () => {} } });
      const answer = await receive(signedDelivery(CREATED));
      expect(answer).toMatchObject({ status: 500, outcome: 'setup_error' });
      expect(parsed(answer).message).toBe(
        "[@fflkit/webhooks] store.claim must resolve to 'claimed', 'processed' or 'in_progress'; it gave true",
      );
      expect(record.calls).toEqual([]);
    });

    it('gives each handler its own memory store by default', async () => {
      const first = setup();
      const second = setup();
      const delivery = signedDelivery(CREATED);
      await first.receive(delivery);
      await second.receive(delivery);
      expect([first.record.calls.length, second.record.calls.length]).toEqual([1, 1]);
    });

    it("uses the handler's clock for its default store", async () => {
      const clock = { ms: Date.parse(CREATED.timestamp) };
      const { record, receive } = setup({ now: () => clock.ms });
      const delivery = signedDelivery(CREATED);
      await receive(delivery);
      clock.ms += 200_000 * 1000;
      await receive(delivery);
      expect(record.calls).toHaveLength(2);
    });
  },
);
