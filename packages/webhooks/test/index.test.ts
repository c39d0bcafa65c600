import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, verifySignature } from '../src/index';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof crypto>();
  return {
    ...original,
    createHash: vi.fn(original.createHash),
    createHmac: vi.fn(original.createHmac),
    timingSafeEqual: vi.fn(original.timingSafeEqual),
  };
});

const BODY =
  '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}';
const signatureOf = (secret: string) => `sha256=${crypto.createHmac('sha256', secret).update(BODY).digest('hex')}`;

/** The byte lengths of both sides of every timingSafeEqual call since the last clear. */
function comparedLengths(): number[][] {
  return vi
    .mocked(crypto.timingSafeEqual)
    .mock.calls.map(([actual, expected]) => [(actual as Buffer).length, (expected as Buffer).length]);
}

describe('the node build: HMAC with node:crypto', () => {
  it('verifySignature tries each secret in turn, comparing with timingSafeEqual over 32 bytes, and stops at the one that matches', async () => {
    vi.mocked(crypto.timingSafeEqual).mockClear();
    await expect(verifySignature(['whsec_a', 'whsec_b', 'whsec_c'], BODY, signatureOf('whsec_b'))).resolves.toBe(true);
    expect(comparedLengths()).toEqual([
      [32, 32],
      [32, 32],
    ]);
  });

  it('verifySignature returns false once every secret was compared and none matches', async () => {
    vi.mocked(crypto.timingSafeEqual).mockClear();
    await expect(verifySignature(['whsec_a', 'whsec_b'], BODY, signatureOf('whsec_z'))).resolves.toBe(false);
    expect(comparedLengths()).toEqual([
      [32, 32],
      [32, 32],
    ]);
  });

  it('the handler refuses a body past maxBodyBytes without computing its HMAC', async () => {
    const webhooks = createWebhookHandler({ secret: 'whsec_a', on: {}, maxBodyBytes: BODY.length - 1 });
    const headers = { 'x-svc-signature': signatureOf('whsec_a'), 'x-svc-delivery': 'd-1' };
    vi.mocked(crypto.createHmac).mockClear();
    await expect(webhooks.receive({ payload: Buffer.from(BODY), headers })).resolves.toMatchObject({
      status: 413,
      outcome: 'body_too_large',
    });
    await expect(webhooks.receive({ payload: BODY, headers })).resolves.toMatchObject({
      status: 413,
      outcome: 'body_too_large',
    });
    expect(crypto.createHmac).not.toHaveBeenCalled();
    await expect(
      createWebhookHandler({ secret: 'whsec_a', on: {} }).receive({ payload: BODY, headers }),
    ).resolves.toMatchObject({ status: 200 });
    expect(crypto.createHmac).toHaveBeenCalledTimes(1);
  });

  it('the handler digests the body with createHash only once its signature matched', async () => {
    const webhooks = createWebhookHandler({ secret: 'whsec_a', on: { ping: () => {} } });
    const forged = { 'x-svc-signature': signatureOf('whsec_forged'), 'x-svc-delivery': 'd-1' };
    const signed = { 'x-svc-signature': signatureOf('whsec_a'), 'x-svc-delivery': 'd-2' };
    vi.mocked(crypto.createHash).mockClear();
    await expect(webhooks.receive({ payload: BODY, headers: forged })).resolves.toMatchObject({ status: 401 });
    expect(crypto.createHash).not.toHaveBeenCalled();
    await expect(webhooks.receive({ payload: BODY, headers: signed })).resolves.toMatchObject({
      status: 200,
      outcome: 'processed',
    });
    expect(vi.mocked(crypto.createHash).mock.calls).toEqual([['sha256']]);
  });

  it('the handler gives its events the index of the secret that matched', async () => {
    const contexts: unknown[] = [];
    const webhooks = createWebhookHandler({
      secret: ['whsec_a', 'whsec_b', 'whsec_c'],
      on: { ping: (_, context) => void contexts.push(context) },
    });
    const headers = { 'x-svc-signature': signatureOf('whsec_b'), 'x-svc-delivery': 'd-1' };
    await expect(webhooks.receive({ payload: BODY, headers })).resolves.toMatchObject({
      status: 200,
      outcome: 'processed',
    });
    expect(contexts).toEqual([{ deliveryId: 'd-1', secretIndex: 1 }]);
  });
});
