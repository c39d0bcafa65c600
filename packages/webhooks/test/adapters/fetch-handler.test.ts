import { describe, expect, it } from 'vitest';
import { BUILDS } from '../support/builds';
import { describeDeliveries } from '../support/delivery-scenarios';
import { SECRET } from '../support/signed-delivery';
import { startFetchReceiver } from '../support/servers';

describe.each(BUILDS)('webhooks.handle(request) over HTTP, on the $name', (build) => {
  describeDeliveries(build.api, startFetchReceiver);

  it('answers 405 to a GET and 413 to a body past maxBodyBytes', async () => {
    const receiver = await startFetchReceiver(
      build.api.createWebhookHandler({ secret: SECRET, on: {}, maxBodyBytes: 64 }),
    );
    try {
      const get = await fetch(receiver.url);
      expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
      await expect(fetch(receiver.url, { method: 'POST', body: 'x'.repeat(65) })).resolves.toHaveProperty(
        'status',
        413,
      );
    } finally {
      await receiver.close();
    }
  });
});
