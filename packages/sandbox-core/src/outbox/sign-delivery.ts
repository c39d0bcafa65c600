import { SIGNATURE_PREFIX } from '@boundbook/types';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The `X-SVC-Signature` of a delivery body: `sha256=` and the lowercase hex HMAC-SHA256 of the
 * body's UTF-8 bytes, keyed with the UTF-8 bytes of the whole secret, `whsec_` included.
 * Synchronous and free of Node APIs, so it runs wherever the core runs.
 *
 * @example
 * ```ts
 * signDelivery(webhook.secret, delivery.body); // 'sha256=5d5b09f6...'
 * ```
 */
export function signDelivery(secret: string, body: string): string {
  return `${SIGNATURE_PREFIX}${bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(body)))}`;
}
