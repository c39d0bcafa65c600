import { startSandbox } from '@fflkit/sandbox';
import { dispositionBody, receiptBody } from '@fflkit/test-fixtures';
import type { SandboxDelivery } from '@fflkit/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, type WebhookHandler } from '../../src/index';
import {
  EXPRESS_VERSIONS,
  FASTIFY_VERSIONS,
  type Receiver,
  startExpressReceiver,
  startFetchReceiver,
  startNodeReceiver,
} from '../support/servers';

// Real deliveries from the local sandbox, received by each adapter: signed by the sandbox,
// verified and routed by the handler, deduplicated when the sandbox delivers again, and
// processed on the sandbox's retry when the first attempt's handler failed.

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
});

const RECEIVERS: Array<[string, (handler: WebhookHandler) => Promise<Receiver>]> = [
  ['fetch handler', startFetchReceiver],
  ['Node http listener', startNodeReceiver],
  ...EXPRESS_VERSIONS.map(({ name, express }): [string, (h: WebhookHandler) => Promise<Receiver>] => [
    `${name} middleware`,
    (h) => startExpressReceiver(express, h),
  ]),
  ...FASTIFY_VERSIONS.map(({ name, start }): [string, (h: WebhookHandler) => Promise<Receiver>] => [
    `${name} plugin`,
    start,
  ]),
];

describe.each(RECEIVERS)('real sandbox deliveries received by the %s', (_name, start) => {
  it('are verified, routed by event, deduplicated on redelivery and processed on retry', async () => {
    const { token } = await sandbox.createAccount();
    const send = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as any) };
    };
    const deliveries = async () =>
      (await send('GET', `${sandbox.url}/_sandbox/deliveries`)).body.data as SandboxDelivery[];
    /** Waits, within a bound, for the sandbox's first attempt of a delivery of `event`. */
    const attempted = async (event: string): Promise<SandboxDelivery> => {
      for (let i = 0; i < 250; i += 1) {
        const found = (await deliveries()).find((d) => d.event === event && d.attempts.length > 0);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${event} delivery was attempted within 5 s`);
    };

    // The receiver runs before its endpoint exists, so its secret is known only once the
    // endpoint is created: the handler is given a function that waits for it.
    let secretKnown: (secret: string) => void = () => {};
    const secret = new Promise<string>((resolve) => (secretKnown = resolve));
    const calls: string[] = [];
    let failDisposalOnce = true;
    const handler = createWebhookHandler({
      secret: () => secret,
      on: {
        'receipt.created': (event, context) => {
          calls.push(`created ${event.data.serial_number} ${context.deliveryId}`);
        },
        'receipt.disposed': (event) => {
          if (failDisposalOnce) {
            failDisposalOnce = false;
            throw new Error('the receiver failed once');
          }
          calls.push(`disposed ${event.data.serial_number} ${event.data.disposition.disposed_to}`);
        },
      },
      onError: () => undefined,
    });
    const receiver = await start(handler);
    try {
      const created = await send('POST', `${sandbox.apiUrl}/webhooks`, { url: receiver.url, events: ['*'] });
      expect(created.status).toBe(201);
      secretKnown(created.body.secret);

      const receipt = await send('POST', `${sandbox.apiUrl}/receipts`, receiptBody({ serial_number: 'E2E-0001' }));
      expect(receipt.status).toBe(201);
      const createdDelivery = await attempted('receipt.created');
      expect(createdDelivery.state).toBe('succeeded');
      expect(calls).toEqual([`created E2E-0001 ${createdDelivery.id}`]);

      // The sandbox delivers the same delivery again: same id, same bytes; the receiver
      // acknowledges it without running the handler a second time.
      const again = await send('POST', `${sandbox.url}/_sandbox/deliveries/${createdDelivery.id}/redeliver`);
      expect(again.status).toBe(200);
      expect(again.body.data.attempts.at(-1).status_code).toBe(200);
      expect(calls).toHaveLength(1);

      // The first attempt of the disposal fails (500); the retry a minute later on the
      // account's clock is processed once.
      const disposal = await send(
        'POST',
        `${sandbox.apiUrl}/receipts/${receipt.body.data.id}/dispose`,
        dispositionBody({ disposed_to: 'Jordan Example', form_4473_serial: 'E2E-4473-1' }),
      );
      expect(disposal.status).toBe(200);
      const failed = await attempted('receipt.disposed');
      expect(failed.state).toBe('pending');
      expect(failed.attempts.map((attempt) => attempt.status_code)).toEqual([500]);
      await send('POST', `${sandbox.url}/_sandbox/clock/advance`, { seconds: 60 });
      const retried = (await deliveries()).find((d) => d.id === failed.id)!;
      expect(retried.state).toBe('succeeded');
      expect(retried.attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);
      expect(calls).toEqual([`created E2E-0001 ${createdDelivery.id}`, 'disposed E2E-0001 Jordan Example']);

      // The dashboard's Test action: a ping, answered without a user handler.
      const ping = await send('POST', `${sandbox.url}/_sandbox/webhooks/${created.body.data.id}/ping`);
      expect(ping.status).toBe(200);
      expect(ping.body.data.attempts.at(-1).status_code).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});
