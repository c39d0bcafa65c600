// The web build (export conditions `browser`, `worker`, `edge-light`, `deno` and the default):
// HMAC and SHA-256 with Web Crypto, comparison in constant time in JS, no node: import. It exports the shared
// list and its own four functions that sign or verify; the Node build (src/index.ts) exports the
// same names with the same behaviour over node:crypto.
import { SIGNATURE_PREFIX, type WebhookEvent } from '@fflkit/types';
import { type ConstructEventOptions, type WebhookHeaders, constructEventWith } from './events';
import { type WebhookHandler, type WebhookHandlerOptions, createWebhookHandlerWith } from './handler';
import { type WebhookPayload, type WebhookSecret, readPayload, readSecret, verifySignatureWith } from './signature';
import { hmacHex, matchWebSecret, sha256Hex } from './web-crypto';

export * from './shared-exports';

/**
 * The `X-SVC-Signature` the service sends with `payload`, signed with Web Crypto: `sha256=` and
 * the lowercase hex HMAC-SHA256 of the exact bytes, keyed with the UTF-8 bytes of the whole
 * secret (`whsec_` included). For tests and local tools; a receiver verifies with `verifySignature`.
 *
 * @example
 * ```ts
 * import { signPayload } from '@fflkit/webhooks';
 *
 * const bytes = new TextEncoder().encode('{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}');
 * await signPayload('whsec_test_3f9a1c7e5b2d4f6a', bytes); // 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29'
 * ```
 */
export async function signPayload(secret: string, payload: WebhookPayload): Promise<string> {
  const key = readSecret(secret, 'signPayload');
  const bytes = readPayload(payload, 'signPayload');
  return `${SIGNATURE_PREFIX}${await hmacHex(key, bytes)}`;
}

/**
 * Whether `signature` (the `X-SVC-Signature` header) is the signature of `payload` (the raw body)
 * under `secret`, or any of several while rotating; the digests are compared in constant time.
 * `false` for a missing or malformed header; a `TypeError` for a parsed body or no secret.
 *
 * @example
 * ```ts
 * import { verifySignature } from '@fflkit/webhooks';
 *
 * export default {
 *   async fetch(request: Request, env: { WEBHOOK_SECRET: string }): Promise<Response> {
 *     const body = await request.arrayBuffer(); // the raw body: never request.json()
 *     const valid = await verifySignature(env.WEBHOOK_SECRET, body, request.headers.get('x-svc-signature'));
 *     return new Response(null, { status: valid ? 204 : 401 }); // false for a missing, malformed or wrong signature
 *   },
 * };
 * ```
 */
export async function verifySignature(
  secret: WebhookSecret,
  payload: WebhookPayload,
  signature: string | null | undefined,
): Promise<boolean> {
  return verifySignatureWith(matchWebSecret, secret, payload, signature);
}

/**
 * Verifies a delivery and resolves to its typed event, narrowed on `event`; header names are
 * matched case-insensitively. Rejects with a `WebhookVerificationError` whose `reason` says why
 * (see its example), or with a `TypeError` when called wrongly (a parsed body, no secret).
 *
 * @example
 * ```ts
 * import { constructEvent } from '@fflkit/webhooks';
 *
 * const request = new Request('https://receiver.example/webhooks', {
 *   method: 'POST',
 *   body: '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping."}}',
 *   headers: { 'X-SVC-Signature': 'sha256=baf2f6fca0fa0513631109bde8581a12046fc861a077b6379189ef01c525fc29' },
 * });
 * const event = await constructEvent(await request.arrayBuffer(), request.headers, { secret: 'whsec_test_3f9a1c7e5b2d4f6a' });
 * event.event; // 'ping'
 * ```
 */
export async function constructEvent(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  options: ConstructEventOptions,
): Promise<WebhookEvent> {
  return constructEventWith(matchWebSecret, payload, headers, options);
}

/**
 * A webhook receiver for Fetch runtimes and the rest: it verifies each delivery, deduplicates it
 * on the digest of its body, calls the handler of its event and answers as `WebhookOutcome` lists.
 * Options are checked here: a mistake throws a `TypeError` at setup, not at the first delivery.
 *
 * @example
 * ```ts
 * // app/api/webhooks/route.ts (Next.js): Hono, Workers, Deno and Bun pass their Request alike.
 * import { createWebhookHandler } from '@fflkit/webhooks';
 *
 * const webhooks = createWebhookHandler({
 *   secret: process.env['WEBHOOK_SECRET']!,
 *   on: {
 *     'receipt.created': async (event, { deliveryId }) => {
 *       console.log(deliveryId, event.data.serial_number); // a Receipt, typed from the contract
 *     },
 *   },
 * });
 * export const POST = webhooks.handle; // 200 processed, 401 for a bad signature, 500 when a handler throws
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  return createWebhookHandlerWith(matchWebSecret, sha256Hex, options);
}
