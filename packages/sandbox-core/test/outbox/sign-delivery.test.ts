import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDelivery } from '../../src/outbox/sign-delivery';

describe('signDelivery(secret, body)', () => {
  it('returns sha256= and the hex HMAC of the body keyed with the whole secret', () => {
    const secret = 'whsec_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a';
    const body = '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping. ✓"}}';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signDelivery(secret, body)).toBe(`sha256=${expected}`);
  });
});
