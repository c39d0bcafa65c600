import type { SandboxDelivery, WebhookEndpoint } from '@fflkit/types';
import type { SandboxCoreOptions } from '../../src/core';
import { fakeTransport } from '../harness/fake-transport';
import { dataOf, receiptBody, START, withAccount } from '../harness/harness';

/** Seconds from START as an RFC 3339 timestamp. */
export const at = (seconds: number): string => new Date(START + seconds * 1000).toISOString().replace('.000Z', 'Z');

/** An account with one endpoint (`events`), on a core whose transport is a fake one. */
export async function withEndpoint(
  events: string[] = ['*'],
  options: Omit<SandboxCoreOptions, 'now' | 'randomBytes' | 'sendDelivery'> = {},
) {
  const transport = fakeTransport();
  const world = await withAccount({}, { ...options, sendDelivery: (request) => transport.send(request) });
  const created = await world.api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/logbook', events } });
  const { data, secret } = created.body as { data: WebhookEndpoint; secret: string };
  let serial = 0;
  const receipt = async () => {
    serial += 1;
    return dataOf<{ id: number }>(
      await world.api('POST', '/receipts', { body: receiptBody({ serial_number: `SN${serial}` }) }),
    );
  };
  const deliveries = async () => dataOf<SandboxDelivery[]>(await world.control('GET', '/deliveries'));
  const advance = async (seconds: number) => world.control('POST', '/clock/advance', { body: { seconds } });
  const endpoint = () => world.core.snapshot().webhooks.find((webhook) => webhook.id === data.id);
  return { ...world, transport, webhook: data, secret, receipt, deliveries, advance, endpoint };
}
