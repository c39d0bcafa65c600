import { describe, expect, it } from 'vitest';
import { dataOf, dispositionBody, receiptBody, withAccount } from '../support/harness';

describe('the outbox', () => {
  it('writes one pending delivery per matching enabled endpoint in the same change as the receipt', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/webhooks', { body: { url: 'https://b.example.com', events: ['receipt.disposed'] } });
    const version = core.version;
    const receipt = dataOf(await api('POST', '/receipts', { body: receiptBody() }));
    expect(core.version).toBe(version + 1);
    const [delivery, ...others] = core.snapshot().deliveries;
    expect(others).toEqual([]);
    expect(delivery).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      webhook_id: 1,
      event: 'receipt.created',
      state: 'pending',
      next_attempt_at: '2025-03-14T15:04:05Z',
      created_at: '2025-03-14T15:04:05Z',
      attempts: [],
      account_id: 1,
      body: JSON.stringify({ event: 'receipt.created', timestamp: '2025-03-14T15:04:05Z', data: receipt }),
      scheduled_attempts: 0,
    });
  });

  it('fires updated, disposed and deleted with the receipt after the change; deleted adds deleted_at', async () => {
    const { api, core, clock } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    clock.ms += 1000;
    const updated = dataOf(await api('PUT', '/receipts/1', { body: { model: 'B' } }));
    await api('PUT', '/receipts/1', { body: { model: 'B' } });
    const disposed = dataOf(await api('POST', '/receipts/1/dispose', { body: dispositionBody() }));
    clock.ms += 1000;
    await api('DELETE', '/receipts/1');
    const bodies = core.snapshot().deliveries.map((delivery) => JSON.parse(delivery.body));
    expect(bodies.map((body) => body.event)).toEqual(['receipt.created', 'receipt.updated', 'receipt.disposed', 'receipt.deleted']);
    expect(bodies[1].data).toEqual(updated);
    expect(bodies[2].data).toEqual(disposed);
    expect(bodies[3]).toEqual({
      event: 'receipt.deleted',
      timestamp: '2025-03-14T15:04:07Z',
      data: { ...disposed, deleted_at: '2025-03-14T15:04:07Z' },
    });
  });

  it('writes nothing for refused requests, for endpoints of other accounts, or without endpoints', async () => {
    const first = await withAccount();
    await first.api('POST', '/receipts', { body: receiptBody() });
    const second = await first.call('POST', '/_sandbox/accounts', {});
    const token = (second.body as { token: string }).token;
    await first.call('POST', '/rest/v1/webhooks', { token, body: { url: 'https://a.example.com', events: ['*'] } });
    await first.api('POST', '/receipts', { body: receiptBody() });
    await first.call('POST', '/rest/v1/receipts', { token, body: {} });
    expect(first.core.snapshot().deliveries).toEqual([]);
  });

  it('cancels the pending deliveries of a deleted endpoint', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/webhooks', { body: { url: 'https://b.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('DELETE', '/webhooks/1');
    const states = core.snapshot().deliveries.map((delivery) => [delivery.webhook_id, delivery.state, delivery.next_attempt_at]);
    expect(states).toEqual([
      [1, 'cancelled', null],
      [2, 'pending', '2025-03-14T15:04:05Z'],
    ]);
  });
});
