import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The lowercase hex HMAC-SHA256 of a string's UTF-8 bytes keyed with another string's UTF-8
 * bytes, in plain JavaScript: synchronous and free of Node APIs, so it runs wherever the core
 * runs.
 *
 * @example
 * ```ts
 * hmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog'); // 'f7bc83f4...'
 * ```
 */
export function hmacSha256Hex(key: string, message: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(message)));
}
