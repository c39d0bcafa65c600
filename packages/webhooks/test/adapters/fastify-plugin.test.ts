import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, toFastifyPlugin } from '../../src/index';
import * as nodeBuild from '../../src/index';
import { EVENT_EXAMPLES } from '../support/contract-examples';
import { describeDeliveries, send } from '../support/delivery-scenarios';
import { recorder } from '../support/recorder';
import { FASTIFY_VERSIONS } from '../support/servers';
import { SECRET, signedDelivery } from '../support/signed-delivery';

describe.each(FASTIFY_VERSIONS)('toFastifyPlugin(webhooks) on $name', ({ start }) => {
  describeDeliveries(nodeBuild, start);

  it("leaves JSON parsing of the app's other routes as it was", async () => {
    const receiver = await start(createWebhookHandler({ secret: SECRET, on: {} }));
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

  it('keeps the raw bytes whatever the content type says', async () => {
    const record = recorder();
    const receiver = await start(
      createWebhookHandler({ secret: SECRET, on: { 'receipt.created': record.handler('created') } }),
    );
    try {
      const delivery = signedDelivery(EVENT_EXAMPLES['receipt.created']);
      await expect(
        send(receiver.url, {
          ...delivery,
          headers: { ...delivery.headers, 'Content-Type': 'text/plain; charset=latin1' },
        }),
      ).resolves.toMatchObject({ status: 200 });
      expect(record.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('answers 401 to a POST without a body or a content type', async () => {
    const receiver = await start(createWebhookHandler({ secret: SECRET, on: {} }));
    try {
      await expect(fetch(receiver.url, { method: 'POST' }).then((response) => response.status)).resolves.toBe(401);
    } finally {
      await receiver.close();
    }
  });

  it("answers 413 past the handler's maxBodyBytes", async () => {
    const receiver = await start(createWebhookHandler({ secret: SECRET, on: {}, maxBodyBytes: 100 }));
    try {
      const response = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `"${'x'.repeat(200)}"`,
      });
      expect(response.status).toBe(413);
    } finally {
      await receiver.close();
    }
  });
});

describe('toFastifyPlugin(webhooks, { path })', () => {
  it("serves the route at path within the plugin's prefix", async () => {
    const app = Fastify();
    await app.register(toFastifyPlugin(createWebhookHandler({ secret: SECRET, on: {} }), { path: '/logbook' }), {
      prefix: '/hooks',
    });
    try {
      const delivery = signedDelivery(EVENT_EXAMPLES.ping);
      const response = await app.inject({
        method: 'POST',
        url: '/hooks/logbook',
        headers: delivery.headers,
        payload: delivery.body,
      });
      expect([response.statusCode, response.json()]).toEqual([200, { message: 'Pong.', outcome: 'processed' }]);
    } finally {
      await app.close();
    }
  });

  it('serves the route at the prefix itself when path is undefined', async () => {
    const app = Fastify();
    await app.register(toFastifyPlugin(createWebhookHandler({ secret: SECRET, on: {} }), { path: undefined }), {
      prefix: '/hooks',
    });
    try {
      const delivery = signedDelivery(EVENT_EXAMPLES.ping);
      const response = await app.inject({
        method: 'POST',
        url: '/hooks',
        headers: delivery.headers,
        payload: delivery.body,
      });
      expect([response.statusCode, response.json()]).toEqual([200, { message: 'Pong.', outcome: 'processed' }]);
    } finally {
      await app.close();
    }
  });
});
