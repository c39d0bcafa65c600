import { toByteSource } from './to-byte-source';

/** Keys kept: enough for a receiver's secrets during a rotation, small enough to never grow. */
const CACHED_KEYS = 8;
const keys = new Map<string, Promise<CryptoKey>>();

/**
 * The Web Crypto HMAC-SHA256 key for a secret (its UTF-8 bytes, `whsec_` included). Importing a
 * key costs as much as signing a small body, so the last few keys are kept, oldest dropped first.
 *
 * @example
 * ```ts
 * const key = await hmacKey('whsec_abc');
 * await crypto.subtle.sign('HMAC', key, bytes);
 * ```
 */
export function hmacKey(secret: string): Promise<CryptoKey> {
  const cached = keys.get(secret);
  if (cached) return cached;
  const key = crypto.subtle.importKey('raw', toByteSource(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  if (keys.size >= CACHED_KEYS) keys.delete(keys.keys().next().value as string);
  keys.set(secret, key);
  // A failed import is not kept: the next call tries again.
  key.catch(() => keys.delete(secret));
  return key;
}
