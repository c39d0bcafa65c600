import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The sha256 hex hash of a token string; only the hash is stored, never the token.
 *
 * @example
 * ```ts
 * state.tokensByHash.get(hashToken('sbx_...'));
 * ```
 */
export function hashToken(token: string): string {
  return bytesToHex(sha256(utf8ToBytes(token)));
}
