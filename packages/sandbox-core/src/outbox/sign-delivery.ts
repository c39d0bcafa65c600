import { SIGNATURE_PREFIX } from '@boundbook/types';
import { hmacSha256Hex } from './hmac-sha256-hex';

/**
 * The `X-SVC-Signature` of a delivery body: `sha256=` and the lowercase hex HMAC-SHA256 of the
 * body's UTF-8 bytes, keyed with the UTF-8 bytes of the whole secret, `whsec_` included.
 * Synchronous and free of Node APIs, so it runs wherever the core runs; `hmac` replaces the
 * plain JavaScript HMAC (a server on Node passes `node:crypto`'s, which is faster).
 *
 * @example
 * ```ts
 * signDelivery(webhook.secret, delivery.body); // 'sha256=5d5b09f6...'
 * ```
 */
export function signDelivery(
  secret: string,
  body: string,
  hmac: (key: string, message: string) => string = hmacSha256Hex,
): string {
  return `${SIGNATURE_PREFIX}${hmac(secret, body)}`;
}
