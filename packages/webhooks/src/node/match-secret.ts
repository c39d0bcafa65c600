import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MatchSecret } from '../signature/match-secret';

/**
 * Index of the first secret whose HMAC-SHA256 of the payload equals the digest, or -1: node:crypto's
 * `createHmac` and `timingSafeEqual` over the 32 digest bytes. Both sides are 32 bytes, so the
 * comparison never throws on length.
 *
 * @example
 * ```ts
 * matchNodeSecret(['whsec_new', 'whsec_old'], body, digestHex); // 1 when signed with the old one
 * ```
 */
export const matchNodeSecret: MatchSecret = (secrets, payload, digestHex) => {
  const expected = Buffer.from(digestHex, 'hex');
  for (let index = 0; index < secrets.length; index += 1) {
    const actual = createHmac('sha256', secrets[index] as string)
      .update(payload)
      .digest();
    if (timingSafeEqual(actual, expected)) return index;
  }
  return -1;
};
