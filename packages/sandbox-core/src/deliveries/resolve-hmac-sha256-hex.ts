import { hmacSha256Hex } from '../outbox/hmac-sha256-hex';

/** HMAC-SHA256 of the quick brown fox keyed with `key`, a widely published known answer. */
const FOX_HMAC = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';

/**
 * The HMAC of the core's delivery signatures: the given one once it passes a known answer test
 * (a wrong one would sign every delivery wrongly), else the plain JavaScript default.
 *
 * @example
 * ```ts
 * resolveHmacSha256Hex((key, message) => createHmac('sha256', key).update(message).digest('hex'));
 * ```
 */
export function resolveHmacSha256Hex(
  hmac: ((key: string, message: string) => string) | undefined,
): (key: string, message: string) => string {
  if (hmac === undefined) return hmacSha256Hex;
  if (hmac('key', 'The quick brown fox jumps over the lazy dog') !== FOX_HMAC) {
    throw new TypeError(
      '[@boundbook/sandbox-core] hmacSha256Hex must return the lowercase hex HMAC-SHA256 of the UTF-8 bytes of its second argument keyed with those of its first',
    );
  }
  return hmac;
}
