import { hashToken } from './hash-token';

/** The SHA-256 of `abc` (FIPS 180-2, appendix B.1), to check a given hash function. */
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

/**
 * The hash function of the core's tokens: the given one once it passes a known answer test (a
 * wrong one would leave every stored token unreachable), else the plain JavaScript default.
 *
 * @example
 * ```ts
 * resolveSha256Hex((text) => createHash('sha256').update(text).digest('hex'));
 * ```
 */
export function resolveSha256Hex(sha256Hex: ((text: string) => string) | undefined): (text: string) => string {
  if (sha256Hex === undefined) return hashToken;
  if (sha256Hex('abc') !== ABC_SHA256) {
    throw new TypeError(
      '[@boundbook/sandbox-core] sha256Hex must return the lowercase hex SHA-256 of the UTF-8 bytes of its argument',
    );
  }
  return sha256Hex;
}
