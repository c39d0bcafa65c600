// The Node build (export condition `node`): HMAC with node:crypto's createHmac, comparison with
// timingSafeEqual, and the SHA-256 digests deliveries are deduplicated on with createHash. It exports the shared list and its own four functions that sign or verify;
// the web build (src/web.ts) exports the same names with the same behaviour over Web Crypto.
import { Buffer } from 'node:buffer';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_PREFIX, type WebhookEvent } from '@fflkit/types';
import type { Sha256Hex } from './dedup';
import { type ConstructEventOptions, type WebhookHeaders, constructEventWith } from './events';
import { type WebhookHandler, type WebhookHandlerOptions, createWebhookHandlerWith } from './handler';
import {
  type MatchSecret,
  type WebhookPayload,
  type WebhookSecret,
  readPayload,
  readSecret,
  verifySignatureWith,
} from './signature';

export * from './shared-exports';

/**
 * The `X-SVC-Signature` the service sends with `payload`: `sha256=` and the lowercase hex
 * HMAC-SHA256 of the exact bytes, keyed with the UTF-8 bytes of the whole secret (`whsec_`
 * included). For tests and local tools; a receiver verifies with `verifySignature`.
 *
 * @example
 * ```ts
 * import { signPayload } from '@fflkit/webhooks';
 *
 * const body = '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}';
 * await signPayload('whsec_test_3f9a1c7e5b2d4f6a', body); // 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29'
 * await signPayload('whsec_test_3f9a1c7e5b2d4f6a', Buffer.from(body)); // the same: the bytes are signed
 * ```
 */
export async function signPayload(secret: string, payload: WebhookPayload): Promise<string> {
  const key = readSecret(secret, 'signPayload');
  const bytes = readPayload(payload, 'signPayload');
  return `${SIGNATURE_PREFIX}${createHmac('sha256', key).update(bytes).digest('hex')}`;
}

/**
 * Whether `signature` (the `X-SVC-Signature` header) is the signature of `payload` (the raw body)
 * under `secret`, or under any of several secrets while rotating, compared in constant time. A
 * missing or malformed header resolves to `false`; a parsed body or a missing secret rejects
 * with a `TypeError`.
 *
 * @example
 * ```ts
 * import { verifySignature } from '@fflkit/webhooks';
 *
 * const body = Buffer.from('{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}');
 * const header = 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29';
 * await verifySignature('whsec_test_3f9a1c7e5b2d4f6a', body, header); // true
 * await verifySignature(['whsec_new', 'whsec_test_3f9a1c7e5b2d4f6a'], body, header); // true: a secret of the rotation matches
 * await verifySignature('whsec_test_3f9a1c7e5b2d4f6a', body, undefined); // false: no header
 * ```
 */
export async function verifySignature(
  secret: WebhookSecret,
  payload: WebhookPayload,
  signature: string | null | undefined,
): Promise<boolean> {
  return verifySignatureWith(matchSecret, secret, payload, signature);
}

/**
 * Verifies a delivery and resolves to its typed event, narrowed on `event`. `headers` is a
 * `Headers` object or a record such as `req.headers`. Rejects with a `WebhookVerificationError`
 * whose `reason` says why, or with a `TypeError` when called wrongly (a parsed body, no secret).
 *
 * @example
 * ```ts
 * import { constructEvent } from '@fflkit/webhooks';
 *
 * const body = '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}';
 * const headers = { 'x-svc-signature': 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29' };
 * const event = await constructEvent(body, headers, { secret: 'whsec_test_3f9a1c7e5b2d4f6a' });
 * if (event.event === 'ping') console.log(event.data.message); // 'Webhook test ping.'
 * await constructEvent(body, {}, { secret: 'whsec_test_3f9a1c7e5b2d4f6a' }); // rejects: reason 'missing_signature'
 * ```
 */
export async function constructEvent(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  options: ConstructEventOptions,
): Promise<WebhookEvent> {
  return constructEventWith(matchSecret, payload, headers, options);
}

/**
 * A webhook receiver: verifies each delivery, deduplicates it on the digest of its body (so a
 * retry, or a replay under a new `X-SVC-Delivery`, runs no handler twice), calls the handler of
 * its event and answers (`WebhookOutcome` lists the answers). A mistake in the
 * options throws a `TypeError` here, at setup. `handle` serves Fetch runtimes, `toNodeListener`,
 * `toExpressMiddleware` and `toFastifyPlugin` Node frameworks, and `receive` any other.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, signPayload } from '@fflkit/webhooks';
 *
 * const webhooks = createWebhookHandler({
 *   secret: 'whsec_test_3f9a1c7e5b2d4f6a',
 *   on: { ping: (event, { deliveryId }) => console.log(deliveryId, event.data.message) },
 * });
 * const payload = '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}';
 * const headers = { 'x-svc-signature': await signPayload('whsec_test_3f9a1c7e5b2d4f6a', payload), 'x-svc-delivery': 'c0b5e1a2-7d4f-4e8a-9b3c-2f6d8e1a4b7c' };
 * (await webhooks.receive({ payload, headers })).status; // 200, having logged 'c0b5e1a2-... Webhook test ping.'
 * (await webhooks.receive({ payload, headers })).outcome; // 'duplicate': a retry of the delivery is not handled twice
 * (await webhooks.receive({ payload, headers: { ...headers, 'x-svc-delivery': 'another-id' } })).outcome; // 'duplicate' too: the same signed body
 * (await webhooks.receive({ payload: `${payload} `, headers })).status; // 401: the body is not the one signed
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  return createWebhookHandlerWith(matchSecret, sha256Hex, options);
}

/**
 * `MatchSecret` on node:crypto: `createHmac` for each secret in turn and `timingSafeEqual` over
 * the 32 digest bytes. Both sides are 32 bytes, so the comparison never throws on length.
 */
const matchSecret: MatchSecret = (secrets, payload, digestHex) => {
  const expected = Buffer.from(digestHex, 'hex');
  for (let index = 0; index < secrets.length; index += 1) {
    const actual = createHmac('sha256', secrets[index] as string)
      .update(payload)
      .digest();
    if (timingSafeEqual(actual, expected)) return index;
  }
  return -1;
};

/** `Sha256Hex` on node:crypto: the key the handler deduplicates a delivery on. */
const sha256Hex: Sha256Hex = (payload) => createHash('sha256').update(payload).digest('hex');
