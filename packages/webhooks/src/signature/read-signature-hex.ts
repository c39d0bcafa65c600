import { SIGNATURE_PREFIX } from '@boundbook/types';

const DIGEST_HEX = /^[0-9a-f]{64}$/;

/**
 * The 64 lowercase hex digits of an `X-SVC-Signature` value (`sha256=` and the digest), or
 * `undefined` for anything else: a missing header, another algorithm, upper-case hex, a wrong
 * length or surrounding text. The contract's pattern is `^sha256=[0-9a-f]{64}$`.
 *
 * @example
 * ```ts
 * readSignatureHex('sha256=5d5b09f6dcb2d53a5fffc60c4ac0d55fabdf556069d6631545f42aa6e3500f2e'); // '5d5b09f6...'
 * readSignatureHex('sha1=abc'); // undefined
 * ```
 */
export function readSignatureHex(signature: unknown): string | undefined {
  if (typeof signature !== 'string' || !signature.startsWith(SIGNATURE_PREFIX)) return undefined;
  const hex = signature.slice(SIGNATURE_PREFIX.length);
  return DIGEST_HEX.test(hex) ? hex : undefined;
}
