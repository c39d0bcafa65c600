import { SIGNATURE_PREFIX } from '@boundbook/types';
import { type WebhookPayload, readPayload } from '../signature/read-payload';
import { readSecret } from '../signature/read-secrets';
import { bytesToHex } from './bytes-to-hex';
import { hmacKey } from './hmac-key';
import { toByteSource } from './to-byte-source';

/**
 * The `X-SVC-Signature` the service sends with `payload`: `sha256=` and the lowercase hex
 * HMAC-SHA256 of the exact bytes, keyed with the UTF-8 bytes of the whole secret (`whsec_`
 * included). For tests and local tools; a receiver verifies with `verifySignature`.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ event: 'ping', timestamp: '2025-03-01T10:05:00Z', data: { webhook_id: 7, message: 'Webhook test ping.' } });
 * await signPayload('whsec_test', body); // 'sha256=...' (64 hex digits)
 * ```
 */
export async function signPayload(secret: string, payload: WebhookPayload): Promise<string> {
  const key = readSecret(secret, 'signPayload');
  const bytes = toByteSource(readPayload(payload, 'signPayload'));
  const digest = await crypto.subtle.sign('HMAC', await hmacKey(key), bytes);
  return `${SIGNATURE_PREFIX}${bytesToHex(new Uint8Array(digest))}`;
}
