import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import type { SandboxDelivery } from '@fflkit/types';
import type { Scenario } from '../scenario';

/** Webhook endpoints through the SDK, and their signed deliveries through the control API's clock. */
export const webhookScenarios: readonly Scenario[] = [
  {
    name: 'delivers signed events to the endpoints, retrying failures as the clock advances',
    statuses: [200, 201, 204],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      const ok = await context.call('webhooks.create() of every event', () =>
        logbook.webhooks.create({ url: context.hookUrl('/ok'), events: ['*'] }),
      );
      const failing = await context.call('webhooks.create() of two events, failing', () =>
        logbook.webhooks.create({ url: context.hookUrl('/fail'), events: ['receipt.created', 'receipt.disposed'] }),
      );
      await context.call('webhooks.list()', () => logbook.webhooks.list());
      const receipt = await context.call('receipts.create()', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-W1' })),
      );
      await context.settle(token);
      await context.call('receipts.update()', () => logbook.receipts.update(receipt.id, { model: 'Model 2' }));
      await context.settle(token);
      await context.call('receipts.dispose()', () =>
        logbook.receipts.dispose(receipt.id, dispositionWithAddressBody()),
      );
      await context.settle(token);
      await context.call('receipts.delete()', () => logbook.receipts.delete(receipt.id));
      await context.settle(token);
      const first = await context.control<{ data: SandboxDelivery[] }>(token, 'GET', '/_sandbox/deliveries');
      await context.control(token, 'POST', '/_sandbox/clock/advance', { seconds: 60 });
      await context.control(token, 'GET', '/_sandbox/deliveries');
      const created = first.data.find(
        (delivery) => delivery.webhook_id === ok.endpoint.id && delivery.event === 'receipt.created',
      );
      await context.control(token, 'POST', `/_sandbox/deliveries/${created?.id ?? 'none'}/redeliver`);
      await context.control(token, 'POST', `/_sandbox/webhooks/${ok.endpoint.id}/ping`);
      await context.noteReceived({ '/ok': ok.secret, '/fail': failing.secret });
      await context.call('webhooks.delete()', () => logbook.webhooks.delete(failing.endpoint.id));
      await context.call('webhooks.list() after the deletion', () => logbook.webhooks.list());
    },
  },
  {
    name: 'disables an endpoint after ten failed attempts in a row, until it is enabled again',
    statuses: [200, 201, 422],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      const failing = await context.call('webhooks.create() failing', () =>
        logbook.webhooks.create({ url: context.hookUrl('/fail'), events: ['receipt.deleted'] }),
      );
      const ping = `/_sandbox/webhooks/${failing.endpoint.id}/ping`;
      for (let attempt = 1; attempt <= 10; attempt += 1) await context.control(token, 'POST', ping);
      await context.call('webhooks.list() after ten failures', () => logbook.webhooks.list());
      await context.control(token, 'POST', ping);
      await context.control(token, 'GET', '/_sandbox/deliveries');
      await context.control(token, 'POST', `/_sandbox/webhooks/${failing.endpoint.id}/enable`);
      await context.call('webhooks.list() after enabling', () => logbook.webhooks.list());
      await context.noteReceived({ '/fail': failing.secret });
    },
  },
  {
    name: 'words failed attempts alike: a redirect (not followed) and a refused connection',
    statuses: [200, 201],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      const redirecting = await context.call('webhooks.create() redirecting', () =>
        logbook.webhooks.create({ url: context.hookUrl('/redirect'), events: ['receipt.created'] }),
      );
      // Port 2 of the loopback interface: nothing listens there, so the connection is refused (port 1
      // would not do: fetch refuses it outright as a blocked port).
      const refused = await context.call('webhooks.create() where nothing listens', () =>
        logbook.webhooks.create({ url: 'http://127.0.0.1:2/closed', events: ['receipt.created'] }),
      );
      await context.control(token, 'POST', `/_sandbox/webhooks/${redirecting.endpoint.id}/ping`);
      await context.control(token, 'POST', `/_sandbox/webhooks/${refused.endpoint.id}/ping`);
      await context.control(token, 'GET', '/_sandbox/deliveries');
    },
  },
];
