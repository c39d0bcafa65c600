import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDeliveryRequest } from '../../src/deliveries/build-delivery-request';
import type { DeliveryRecord } from '../../src/outbox/delivery-record';
import type { WebhookRecord } from '../../src/webhooks/webhook-record';

const webhook: WebhookRecord = {
  id: 7,
  url: 'https://hooks.example.com/boundbook',
  events: ['*'],
  enabled: true,
  created_at: '2025-03-01T10:00:00Z',
  updated_at: '2025-03-01T10:00:00Z',
  account_id: 1,
  secret: 'whsec_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a',
  consecutive_failures: 0,
};
const delivery: DeliveryRecord = {
  id: '5a7c9e1b-3d5f-4a6b-8c0d-2e4f6a8b0c1d',
  webhook_id: 7,
  event: 'ping',
  state: 'pending',
  next_attempt_at: '2025-03-01T10:05:00Z',
  created_at: '2025-03-01T10:05:00Z',
  attempts: [],
  account_id: 1,
  body: '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping. ✓"}}',
  scheduled_attempts: 0,
};

describe('buildDeliveryRequest(delivery, webhook)', () => {
  it('answers a POST of the stored body to the endpoint with the five signed headers', () => {
    const hmac = createHmac('sha256', Buffer.from(webhook.secret, 'utf8')).update(Buffer.from(delivery.body, 'utf8'));
    expect(buildDeliveryRequest(delivery, webhook)).toEqual({
      method: 'POST',
      url: 'https://hooks.example.com/boundbook',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'BoundBook-Webhook/1.0',
        'X-SVC-Event': 'ping',
        'X-SVC-Delivery': '5a7c9e1b-3d5f-4a6b-8c0d-2e4f6a8b0c1d',
        'X-SVC-Signature': `sha256=${hmac.digest('hex')}`,
      },
      body: delivery.body,
    });
  });
});
