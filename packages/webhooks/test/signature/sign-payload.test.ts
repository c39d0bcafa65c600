import { signDelivery } from '@fflkit/sandbox-core';
import { describe, expect, it } from 'vitest';
import { BUILDS } from '../support/builds';

// Vectors computed with `openssl dgst -sha256 -hmac <secret>`, independent of this package.
const PING =
  '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}';
const SECRET = 'whsec_test_3f9a1c7e5b2d4f6a';
const PING_SIGNATURE = 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29';
const PING_SIGNATURE_WITHOUT_PREFIX = 'sha256=0c71cbe6f4911c15171986d735383a1c49285628829ab8ffc8483fae821b4544';
const EMPTY_SIGNATURE = 'sha256=47bebd60bf861638c0f55a7891fcceb5666932a655b74309d10f86e9ff04f8ef';
const UNICODE = {
  secret: 'whsec_ünïcödé',
  body: '{"message":"Prüfung ✓ 🔫"}',
  signature: 'sha256=3465d330d80a52318f42f77711aa38ced76a6a358a2c32a9c320349960eadcf3',
};

describe.each(BUILDS)('signPayload(secret, payload) on the $name', ({ api: { signPayload } }) => {
  it('resolves to sha256= and the lowercase hex HMAC-SHA256 of the body', async () => {
    await expect(signPayload(SECRET, PING)).resolves.toBe(PING_SIGNATURE);
  });

  it('keys the HMAC with the whole secret, whsec_ prefix included', async () => {
    const signature = await signPayload(SECRET, PING);
    expect(signature).not.toBe(PING_SIGNATURE_WITHOUT_PREFIX);
    await expect(signPayload(SECRET.slice('whsec_'.length), PING)).resolves.toBe(PING_SIGNATURE_WITHOUT_PREFIX);
  });

  it('signs the UTF-8 bytes of text and of the secret', async () => {
    await expect(signPayload(UNICODE.secret, UNICODE.body)).resolves.toBe(UNICODE.signature);
  });

  it('signs an empty body', async () => {
    await expect(signPayload(SECRET, '')).resolves.toBe(EMPTY_SIGNATURE);
  });

  it('gives the same signature for a string, a Buffer, a Uint8Array, an ArrayBuffer and a view into a larger buffer', async () => {
    const bytes = new TextEncoder().encode(PING);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    const payloads = [
      PING,
      Buffer.from(PING),
      bytes,
      bytes.buffer,
      new DataView(padded.buffer, 4, bytes.length),
      padded.subarray(4, 4 + bytes.length),
    ];
    for (const payload of payloads) await expect(signPayload(SECRET, payload)).resolves.toBe(PING_SIGNATURE);
  });

  it('agrees with the sandbox signer signDelivery(secret, body)', async () => {
    await expect(signPayload(UNICODE.secret, UNICODE.body)).resolves.toBe(signDelivery(UNICODE.secret, UNICODE.body));
  });

  it('rejects with a TypeError saying to pass the raw body for a parsed object', async () => {
    await expect(signPayload(SECRET, JSON.parse(PING))).rejects.toThrow(
      expect.objectContaining({
        name: 'TypeError',
        message: expect.stringMatching(
          /^\[@fflkit\/webhooks\] signPayload: payload is a parsed object; pass the raw request body/,
        ),
      }),
    );
  });

  it('rejects with a TypeError for a missing payload', async () => {
    // @ts-expect-error: the payload is required
    await expect(signPayload(SECRET)).rejects.toThrow(
      '[@fflkit/webhooks] signPayload: payload must be the raw request body (a string, Uint8Array, ArrayBuffer or Buffer); got undefined.',
    );
  });

  it('rejects with a TypeError for an empty secret, a missing one or an array of them', async () => {
    await expect(signPayload('', PING)).rejects.toThrow(
      '[@fflkit/webhooks] signPayload: secret must be one signing secret (a non-empty string, "whsec_..."); got an empty string',
    );
    // @ts-expect-error: the secret is required
    await expect(signPayload(undefined, PING)).rejects.toThrow(TypeError);
    // @ts-expect-error: signing takes one secret
    await expect(signPayload([SECRET], PING)).rejects.toThrow(TypeError);
  });
});
