import { describe, expect, it } from 'vitest';
import { createWebhookHandler, toExpressMiddleware } from '../../src/index';
import * as nodeBuild from '../../src/index';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { describeDeliveries, send } from '../support/delivery-scenarios';
import { recorder } from '../support/recorder';
import { EXPRESS_VERSIONS, WEBHOOK_PATH, startExpressReceiver } from '../support/servers';
import { SECRET, signedDelivery } from '../support/signed-delivery';

describe.each(EXPRESS_VERSIONS)('toExpressMiddleware(webhooks) on $name', ({ express }) => {
  describeDeliveries(nodeBuild, (handler) => startExpressReceiver(express, handler));

  it("leaves JSON parsing of the app's other routes as it was", async () => {
    const receiver = await startExpressReceiver(express, createWebhookHandler({ secret: SECRET, on: {} }));
    try {
      const response = await fetch(`${receiver.origin}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      await expect(response.json()).resolves.toEqual({ parsed: { a: 1 } });
    } finally {
      await receiver.close();
    }
  });

  it('uses the raw body of express.raw({ type: "application/json" }) mounted before it', async () => {
    const record = recorder();
    const handler = createWebhookHandler({ secret: SECRET, on: { 'receipt.created': record.handler('created') } });
    const receiver = await startExpressReceiver(express, handler, (app) =>
      app.use(WEBHOOK_PATH, express.raw({ type: 'application/json' })),
    );
    try {
      await expect(send(receiver.url, signedDelivery(EVENT_EXAMPLES['receipt.created']))).resolves.toMatchObject({
        status: 200,
        body: { outcome: 'processed' },
      });
      expect(record.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['express.raw() (a Buffer)', 'raw'],
    ['express.text() (a string)', 'text'],
  ] as const)(
    'answers 413 body_too_large to a body past maxBodyBytes already read by %s, and calls no handler',
    async (_, parser) => {
      const record = recorder();
      const handler = createWebhookHandler({
        secret: SECRET,
        on: { 'receipt.created': record.handler('created') },
        maxBodyBytes: 100,
      });
      const receiver = await startExpressReceiver(express, handler, (app) =>
        app.use(WEBHOOK_PATH, express[parser]({ type: 'application/json' })),
      );
      try {
        await expect(send(receiver.url, signedDelivery(EVENT_EXAMPLES['receipt.created']))).resolves.toEqual({
          status: 413,
          body: { message: 'The body is larger than 100 bytes (maxBodyBytes).', outcome: 'body_too_large' },
        });
        expect(record.calls).toEqual([]);
      } finally {
        await receiver.close();
      }
    },
  );

  it('fails loudly when express.json() parsed the body first: 500 naming express.json(), reported to onError', async () => {
    const record = recorder();
    const handler = createWebhookHandler({
      secret: SECRET,
      on: { 'receipt.created': record.handler('created') },
      onError: record.onError,
    });
    const receiver = await startExpressReceiver(express, handler, (app) => app.use(express.json()));
    try {
      const answer = await send(receiver.url, signedDelivery(EVENT_EXAMPLES['receipt.created']));
      expect(answer).toEqual({
        status: 500,
        body: {
          outcome: 'setup_error',
          message:
            "[@fflkit/webhooks] receive: payload is a parsed object; pass the raw request body instead (a string, Uint8Array, ArrayBuffer or Buffer): the signature covers the exact bytes received. Mount the webhook route before express.json() (or give it express.raw({ type: 'application/json' })), or turn the framework's body parser off for it.",
        },
      });
      expect(record.calls).toEqual([]);
      expect(record.errors.map(({ error, info }) => [(error as Error).name, info.outcome])).toEqual([
        ['TypeError', 'setup_error'],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('reads the stream itself when express.json() skipped a body of another content type', async () => {
    const record = recorder();
    const handler = createWebhookHandler({ secret: SECRET, on: { 'receipt.created': record.handler('created') } });
    const receiver = await startExpressReceiver(express, handler, (app) => app.use(express.json()));
    try {
      const delivery = signedDelivery(EVENT_EXAMPLES['receipt.created']);
      const answer = await send(receiver.url, {
        ...delivery,
        headers: { ...delivery.headers, 'Content-Type': 'text/plain' },
      });
      expect(answer).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    } finally {
      await receiver.close();
    }
  });
});

describe('toExpressMiddleware(webhooks)(req, res, next)', () => {
  it('passes a failure to write the answer to next', async () => {
    const middleware = toExpressMiddleware(createWebhookHandler({ secret: SECRET, on: {} }));
    const failure = new Error('socket closed');
    const next = await new Promise<unknown>((resolve) => {
      middleware(
        { method: 'GET', headers: {}, on() {}, removeListener() {}, resume() {} },
        {
          statusCode: 0,
          setHeader() {},
          end() {
            throw failure;
          },
        },
        resolve,
      );
    });
    expect(next).toBe(failure);
  });
});
