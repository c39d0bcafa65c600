import type { MatchSecret } from '../signature/match-secret';
import { constantTimeEqual } from './constant-time-equal';
import { hexToBytes } from './hex-to-bytes';
import { hmacKey } from './hmac-key';
import { toByteSource } from './to-byte-source';

/**
 * Index of the first secret whose HMAC-SHA256 of the payload equals the digest, or -1: Web
 * Crypto's `crypto.subtle.sign` and a constant-time comparison of the 32 digest bytes in JS.
 *
 * @example
 * ```ts
 * await matchWebSecret(['whsec_new', 'whsec_old'], body, digestHex); // 1 when signed with the old one
 * ```
 */
export const matchWebSecret: MatchSecret = async (secrets, payload, digestHex) => {
  const expected = hexToBytes(digestHex);
  const bytes = toByteSource(payload);
  for (let index = 0; index < secrets.length; index += 1) {
    const actual = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secrets[index] as string), bytes));
    if (constantTimeEqual(actual, expected)) return index;
  }
  return -1;
};
