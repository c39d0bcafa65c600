import { describe, expect, it } from 'vitest';
import { BUILDS } from '../support/builds';

const PING =
  '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}';
const SECRET = 'whsec_test_3f9a1c7e5b2d4f6a';
const SIGNATURE = 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29';
const OTHER_SECRET = 'whsec_other_0000000000000000';

describe.each(BUILDS)('verifySignature(secret, payload, signature) on the $name', ({ api: { verifySignature } }) => {
  it('returns true for the correct signature', async () => {
    await expect(verifySignature(SECRET, PING, SIGNATURE)).resolves.toBe(true);
  });

  it('returns true for the body as a Buffer, a Uint8Array or an ArrayBuffer', async () => {
    const bytes = new TextEncoder().encode(PING);
    for (const payload of [Buffer.from(PING), bytes, bytes.buffer])
      await expect(verifySignature(SECRET, payload, SIGNATURE)).resolves.toBe(true);
  });

  it('returns false for an incorrect secret', async () => {
    await expect(verifySignature(OTHER_SECRET, PING, SIGNATURE)).resolves.toBe(false);
  });

  it('returns false for the secret without its whsec_ prefix', async () => {
    await expect(verifySignature(SECRET.slice('whsec_'.length), PING, SIGNATURE)).resolves.toBe(false);
  });

  it('returns false for a body changed by one character', async () => {
    await expect(verifySignature(SECRET, PING.replace('7', '8'), SIGNATURE)).resolves.toBe(false);
  });

  it('returns false for a body re-serialised with other whitespace', async () => {
    await expect(verifySignature(SECRET, JSON.stringify(JSON.parse(PING), null, 2), SIGNATURE)).resolves.toBe(false);
  });

  it('returns false for a signature changed in its last digit', async () => {
    await expect(verifySignature(SECRET, PING, `${SIGNATURE.slice(0, -1)}0`)).resolves.toBe(false);
  });

  it('returns false, never throws, for a missing header', async () => {
    await expect(verifySignature(SECRET, PING, undefined)).resolves.toBe(false);
    await expect(verifySignature(SECRET, PING, null)).resolves.toBe(false);
    await expect(verifySignature(SECRET, PING, '')).resolves.toBe(false);
  });

  it.each([
    ['another algorithm', `sha1=${SIGNATURE.slice(7, 47)}`],
    ['no prefix', SIGNATURE.slice(7)],
    ['upper-case hex', `sha256=${SIGNATURE.slice(7).toUpperCase()}`],
    ['an upper-case prefix', `SHA256=${SIGNATURE.slice(7)}`],
    ['63 digits', SIGNATURE.slice(0, -1)],
    ['65 digits', `${SIGNATURE}0`],
    ['a non-hex digit', `${SIGNATURE.slice(0, -1)}g`],
    ['surrounding whitespace', ` ${SIGNATURE}`],
    ['two signatures joined', `${SIGNATURE}, ${SIGNATURE}`],
    ['the prefix alone', 'sha256='],
  ])('returns false, never throws, for a malformed header: %s', async (_, signature) => {
    await expect(verifySignature(SECRET, PING, signature)).resolves.toBe(false);
  });

  it('returns false, never throws, for a header that is not a string', async () => {
    // @ts-expect-error: a header value is a string
    await expect(verifySignature(SECRET, PING, ['sha256=00'])).resolves.toBe(false);
  });

  it('returns true when any secret of a rotation matches, and false when none does', async () => {
    await expect(verifySignature([OTHER_SECRET, SECRET], PING, SIGNATURE)).resolves.toBe(true);
    await expect(verifySignature([SECRET, OTHER_SECRET], PING, SIGNATURE)).resolves.toBe(true);
    await expect(verifySignature([OTHER_SECRET, `${OTHER_SECRET}x`], PING, SIGNATURE)).resolves.toBe(false);
  });

  it('rejects with a TypeError saying to pass the raw body for a parsed object, even without a header', async () => {
    const error = await verifySignature(SECRET, JSON.parse(PING), undefined).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      "[@fflkit/webhooks] verifySignature: payload is a parsed object; pass the raw request body instead (a string, Uint8Array, ArrayBuffer or Buffer): the signature covers the exact bytes received. Mount the webhook route before express.json() (or give it express.raw({ type: 'application/json' })), or turn the framework's body parser off for it.",
    );
  });

  it.each([
    ['null', null, 'got null.'],
    ['a number', 42, 'got a number.'],
  ])('rejects with a TypeError for a payload that is %s', async (_, payload, ending) => {
    // @ts-expect-error: not a payload
    await expect(verifySignature(SECRET, payload, SIGNATURE)).rejects.toThrow(
      `[@fflkit/webhooks] verifySignature: payload must be the raw request body (a string, Uint8Array, ArrayBuffer or Buffer); ${ending}`,
    );
  });

  it('rejects with a TypeError for an array payload, as for a parsed object', async () => {
    // @ts-expect-error: not a payload
    await expect(verifySignature(SECRET, [1, 2], SIGNATURE)).rejects.toThrow(
      'verifySignature: payload is a parsed object',
    );
  });

  it.each([
    ['an empty string', ''],
    ['undefined', undefined],
    ['an empty array', []],
    ['an array that is not all non-empty strings', [SECRET, '']],
    ['an object', { secret: SECRET }],
  ])('rejects with a TypeError for a secret that is %s', async (kind, secret) => {
    // @ts-expect-error: not a secret
    await expect(verifySignature(secret, PING, SIGNATURE)).rejects.toThrow(
      `[@fflkit/webhooks] verifySignature: secret must be the endpoint's signing secret (a non-empty string, "whsec_..."), or a non-empty array of them while rotating; got ${kind}`,
    );
  });
});
