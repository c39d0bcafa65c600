import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The sha256 hex hash of a token string, in plain JavaScript that runs in every runtime; only
 * the hash is stored, never the token. The core's default `sha256Hex`.
 *
 * @example
 * ```ts
 * hashToken('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function hashToken(token: string): string {
  return bytesToHex(sha256(utf8ToBytes(token)));
}
