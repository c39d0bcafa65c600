import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDeliveryRequest } from '../../src/webhooks/attempts';
import type { DeliveryRecord, WebhookRecord } from '../../src/state/records';
import { describeDeliveryFailure, describeDeliveryTimeout } from '../../src/index';

const webhook: WebhookRecord = {
  id: 7,
  url: 'https://hooks.example.com/logbook',
  events: ['*'],
  enabled: true,
  created_at: '2025-03-01T10:00:00Z',
  updated_at: '2025-03-01T10:00:00Z',
  account_id: 1,
  secret: 'whsec_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a',
  consecutive_failures: 0,
  chaos: null,
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
      url: 'https://hooks.example.com/logbook',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Logbook-Webhook/1.0',
        'X-SVC-Event': 'ping',
        'X-SVC-Delivery': '5a7c9e1b-3d5f-4a6b-8c0d-2e4f6a8b0c1d',
        'X-SVC-Signature': `sha256=${hmac.digest('hex')}`,
      },
      body: delivery.body,
    });
  });
});

describe('describeDeliveryFailure(code, message)', () => {
  it.each([
    ['ECONNREFUSED', 'Connection refused.'],
    ['ENOTFOUND', 'The host name could not be resolved.'],
    ['EAI_AGAIN', 'The host name could not be resolved.'],
    ['ECONNRESET', 'The connection was reset before an answer.'],
    ['UND_ERR_SOCKET', 'The connection was reset before an answer.'],
    ['EHOSTUNREACH', 'The host is unreachable.'],
    ['ENETUNREACH', 'The host is unreachable.'],
  ])('words %s as %j', (code, words) => {
    expect(describeDeliveryFailure(code, 'whatever the socket said')).toBe(words);
  });

  it('passes on the message of any other failure', () => {
    expect(describeDeliveryFailure(undefined, 'bad port')).toBe('The request failed: bad port');
  });
});

describe('describeDeliveryTimeout(timeoutMs)', () => {
  it('says how many seconds passed without an answer', () => {
    expect(describeDeliveryTimeout(5000)).toBe('No answer within 5 seconds.');
    expect(describeDeliveryTimeout(250)).toBe('No answer within 0.25 seconds.');
  });
});
