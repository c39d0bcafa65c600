import { WEBHOOK_EVENT_NAMES } from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { BUILDS } from '../support/builds';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { recorder } from '../support/recorder';
import { parsed, receiverSetup } from '../support/receiver-setup';
import { SECRET, signedDelivery } from '../support/signed-delivery';

const CREATED = EVENT_EXAMPLES['receipt.created'];

describe.each(BUILDS)(
  'createWebhookHandler(options).receive(delivery) on the $name',
  ({ api: { createWebhookHandler } }) => {
    const setup = (options: Parameters<typeof receiverSetup>[1] = {}) => receiverSetup(createWebhookHandler, options);

    it.each(WEBHOOK_EVENT_NAMES.filter((name) => name !== 'ping'))(
      'answers 200 processed and calls the %s handler with the event and its context',
      async (name) => {
        const { record, receive } = setup();
        const delivery = signedDelivery(EVENT_EXAMPLES[name]);
        const answer = await receive(delivery);
        expect(answer).toMatchObject({ status: 200, outcome: 'processed' });
        expect(parsed(answer)).toEqual({ message: 'Delivery processed.', outcome: 'processed' });
        expect(record.calls).toEqual([
          { name, event: EVENT_EXAMPLES[name], context: { deliveryId: delivery.deliveryId, secretIndex: 0 } },
        ]);
      },
    );

    it('answers 200 to a ping without a handler', async () => {
      const { record, receive } = setup();
      const answer = await receive(signedDelivery(EVENT_EXAMPLES.ping));
      expect(answer).toMatchObject({ status: 200, outcome: 'processed' });
      expect(parsed(answer).message).toBe('Pong.');
      expect(record.calls).toEqual([]);
    });

    it('calls a ping handler when one is given', async () => {
      const record = recorder();
      const webhooks = createWebhookHandler({ secret: SECRET, on: { ping: record.handler('ping') } });
      const delivery = signedDelivery(EVENT_EXAMPLES.ping);
      await expect(webhooks.receive({ payload: delivery.body, headers: delivery.headers })).resolves.toMatchObject({
        status: 200,
        outcome: 'processed',
      });
      expect(record.calls).toHaveLength(1);
    });

    it('answers 200 ignored to an event without a handler', async () => {
      const webhooks = createWebhookHandler({ secret: SECRET, on: {} });
      const delivery = signedDelivery(CREATED);
      const answer = await webhooks.receive({ payload: delivery.body, headers: delivery.headers });
      expect(answer).toMatchObject({ status: 200, outcome: 'ignored' });
      expect(parsed(answer).message).toBe('No handler for receipt.created; the delivery is acknowledged.');
    });

    it('answers 200 ignored to an unknown event without onUnknownEvent, and calls onUnknownEvent when given', async () => {
      const event = { event: 'receipt.restored', timestamp: CREATED.timestamp, data: CREATED.data };
      const { receive } = setup();
      await expect(receive(signedDelivery(event))).resolves.toMatchObject({ status: 200, outcome: 'ignored' });
      const record = recorder();
      const withHandler = setup({ onUnknownEvent: record.handler('unknown') });
      const delivery = signedDelivery(event);
      await expect(withHandler.receive(delivery)).resolves.toMatchObject({ status: 200, outcome: 'processed' });
      expect(record.calls).toEqual([
        { name: 'unknown', event, context: { deliveryId: delivery.deliveryId, secretIndex: 0 } },
      ]);
    });

    it('tells the handler which secret of a rotation matched', async () => {
      const { record, receive } = setup({ secret: ['whsec_new', SECRET] });
      await receive(signedDelivery(CREATED));
      expect(record.calls[0]?.context).toMatchObject({ secretIndex: 1 });
    });

    it('answers 500 handler_failed when the handler rejects', async () => {
      const webhooks = createWebhookHandler({
        secret: SECRET,
        onError: () => {},
        on: { 'receipt.created': async () => Promise.reject(new Error('no')) },
      });
      const delivery = signedDelivery(CREATED);
      await expect(webhooks.receive({ payload: delivery.body, headers: delivery.headers })).resolves.toMatchObject({
        status: 500,
        outcome: 'handler_failed',
      });
    });

    it.each([
      [
        'missing_signature',
        401,
        (delivery: ReturnType<typeof signedDelivery>) => ({
          ...delivery,
          headers: { ...delivery.headers, 'X-SVC-Signature': undefined as unknown as string },
        }),
      ],
      [
        'malformed_signature',
        401,
        (delivery: ReturnType<typeof signedDelivery>) => ({
          ...delivery,
          headers: { ...delivery.headers, 'X-SVC-Signature': 'sha256=zz' },
        }),
      ],
      [
        'signature_mismatch',
        401,
        (delivery: ReturnType<typeof signedDelivery>) => ({ ...delivery, body: `${delivery.body} ` }),
      ],
      [
        'event_mismatch',
        400,
        (delivery: ReturnType<typeof signedDelivery>) => ({
          ...delivery,
          headers: { ...delivery.headers, 'X-SVC-Event': 'ping' },
        }),
      ],
    ] as const)('answers %s with %i and calls no handler', async (outcome, status, change) => {
      const { record, receive } = setup();
      const answer = await receive(change(signedDelivery(CREATED)));
      expect(answer).toMatchObject({ status, outcome });
      expect(parsed(answer).message).toMatch(/^\[@fflkit\/webhooks\] /);
      expect(record.calls).toEqual([]);
      expect(record.errors).toEqual([]);
    });

    describe('with a body past maxBodyBytes', () => {
      const delivery = signedDelivery(CREATED);
      const bytes = Buffer.byteLength(delivery.body);
      const inputs = [
        ['a string', delivery.body],
        ['a Buffer', Buffer.from(delivery.body)],
        ['a Uint8Array', new TextEncoder().encode(delivery.body)],
        ['an ArrayBuffer', new TextEncoder().encode(delivery.body).buffer],
        ['a DataView', new DataView(new TextEncoder().encode(delivery.body).buffer)],
      ] as const;

      it.each(inputs)(
        'answers 413 body_too_large to %s, before verifying it, and calls no handler',
        async (_, payload) => {
          const { record, webhooks } = setup({ maxBodyBytes: bytes - 1 });
          // A wrong signature would be answered 401 if the body were verified.
          const answer = await webhooks.receive({
            payload,
            headers: { ...delivery.headers, 'X-SVC-Signature': `sha256=${'0'.repeat(64)}` },
          });
          expect(answer).toMatchObject({ status: 413, outcome: 'body_too_large' });
          expect(parsed(answer).message).toBe(`The body is larger than ${bytes - 1} bytes (maxBodyBytes).`);
          expect(record.calls).toEqual([]);
        },
      );

      it.each(inputs)('processes %s of exactly maxBodyBytes', async (_, payload) => {
        const { record, webhooks } = setup({ maxBodyBytes: bytes });
        await expect(webhooks.receive({ payload, headers: delivery.headers })).resolves.toMatchObject({
          status: 200,
          outcome: 'processed',
        });
        expect(record.calls).toHaveLength(1);
      });

      it('measures text in UTF-8 bytes, as it is signed: a text of fewer characters than the limit can be too large', async () => {
        const body = JSON.stringify({
          ...CREATED,
          data: { ...CREATED.data, received_from: 'Société Générale d’Armes ✓' },
        });
        const { webhooks } = setup({ maxBodyBytes: body.length });
        expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
        const unicode = signedDelivery(CREATED, { body });
        await expect(webhooks.receive({ payload: unicode.body, headers: unicode.headers })).resolves.toMatchObject({
          status: 413,
          outcome: 'body_too_large',
        });
      });
    });

    it('answers 400 invalid_json to a signed body that is not JSON', async () => {
      const { receive } = setup();
      await expect(receive(signedDelivery(CREATED, { body: 'nope' }))).resolves.toMatchObject({
        status: 400,
        outcome: 'invalid_json',
      });
    });

    it("answers 400 timestamp_out_of_tolerance past toleranceSeconds, on the handler's clock", async () => {
      const { receive } = setup({ toleranceSeconds: 60, now: () => Date.parse(CREATED.timestamp) + 61_000 });
      await expect(receive(signedDelivery(CREATED))).resolves.toMatchObject({
        status: 400,
        outcome: 'timestamp_out_of_tolerance',
      });
    });

    it('answers 400 missing_delivery_id to a verified delivery without X-SVC-Delivery', async () => {
      const { record, receive } = setup();
      const delivery = signedDelivery(CREATED);
      const answer = await receive({ ...delivery, headers: { ...delivery.headers, 'X-SVC-Delivery': '' } });
      expect(answer).toMatchObject({ status: 400, outcome: 'missing_delivery_id' });
      expect(parsed(answer).message).toBe('The request has no X-SVC-Delivery header, which every delivery carries.');
      expect(record.calls).toEqual([]);
    });

    it('answers 500 setup_error, saying to pass the raw body, for a parsed payload, and reports it', async () => {
      const { record, webhooks } = setup();
      const delivery = signedDelivery(CREATED);
      const answer = await webhooks.receive({ payload: JSON.parse(delivery.body), headers: delivery.headers });
      expect(answer).toMatchObject({ status: 500, outcome: 'setup_error' });
      expect(parsed(answer).message).toContain(
        'receive: payload is a parsed object; pass the raw request body instead',
      );
      expect(record.errors[0]?.info).toEqual({ outcome: 'setup_error', deliveryId: undefined, event: undefined });
    });

    it('answers 500 setup_error for headers that are not an object', async () => {
      const { webhooks } = setup();
      // @ts-expect-error: no headers
      await expect(webhooks.receive({ payload: '{}', headers: null })).resolves.toMatchObject({
        status: 500,
        outcome: 'setup_error',
      });
    });

    it('still answers when onError throws', async () => {
      const webhooks = createWebhookHandler({
        secret: SECRET,
        onError: () => {
          throw new Error('reporter down');
        },
        on: { 'receipt.created': () => Promise.reject(new Error('handler')) },
      });
      const delivery = signedDelivery(CREATED);
      await expect(webhooks.receive({ payload: delivery.body, headers: delivery.headers })).resolves.toMatchObject({
        status: 500,
        outcome: 'handler_failed',
      });
    });

    it('reports to console.error by default, naming the delivery', async () => {
      const logged: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        const webhooks = createWebhookHandler({
          secret: SECRET,
          on: { 'receipt.created': () => Promise.reject(new Error('handler')) },
        });
        const delivery = signedDelivery(CREATED);
        await webhooks.receive({ payload: delivery.body, headers: delivery.headers });
        // @ts-expect-error: a parsed body
        await webhooks.receive({ payload: {}, headers: {} });
        expect(logged).toEqual([
          [
            `[@fflkit/webhooks] handler_failed: delivery ${delivery.deliveryId} (receipt.created) was answered 500 and will be retried.`,
            new Error('handler'),
          ],
          [
            '[@fflkit/webhooks] setup_error: delivery (no id) (no event) was answered 500 and will be retried.',
            expect.any(TypeError),
          ],
        ]);
      } finally {
        console.error = original;
      }
    });
  },
);
