import { PermissionDeniedError } from '@boundbook/sdk';
import type { WebhookEndpoint } from '@boundbook/types';
import { describe, expect, it } from 'vitest';
import { empty, json } from '../support/stub-fetch';
import { testClient } from '../support/test-client';

const endpoint: WebhookEndpoint = {
  id: 7,
  url: 'https://hooks.example.com/boundbook',
  events: ['*'],
  enabled: true,
  created_at: '2025-03-01T10:00:00Z',
  updated_at: '2025-03-01T10:00:00Z',
};

describe('bb.webhooks', () => {
  it('list() resolves with the endpoints, unwrapped', async () => {
    const { bb, calls } = testClient([json(200, { data: [endpoint] })]);
    await expect(bb.webhooks.list()).resolves.toEqual([endpoint]);
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['GET', '/rest/v1/webhooks']);
  });

  it('create({ url, events }) resolves with { endpoint, secret }', async () => {
    const { bb, calls } = testClient([json(201, { data: endpoint, secret: 'whsec_3f9a' })]);
    await expect(bb.webhooks.create({ url: endpoint.url, events: ['*'] })).resolves.toEqual({ endpoint, secret: 'whsec_3f9a' });
    expect([calls[0]?.method, JSON.parse(calls[0]?.body ?? '')]).toEqual(['POST', { url: endpoint.url, events: ['*'] }]);
  });

  it('delete(id) sends DELETE /webhooks/{id}', async () => {
    const { bb, calls } = testClient([empty(204)]);
    await expect(bb.webhooks.delete(7)).resolves.toBeUndefined();
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['DELETE', '/rest/v1/webhooks/7']);
  });

  it('delete(id) throws PermissionDeniedError for a 403', async () => {
    const { bb } = testClient([json(403, { message: 'This action requires the delete permission.' })]);
    await expect(bb.webhooks.delete(7)).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
