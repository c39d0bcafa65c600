import { createHmac } from 'node:crypto';

/**
 * The lowercase hex HMAC-SHA256 of a string's UTF-8 bytes keyed with another string's UTF-8
 * bytes, with `node:crypto`: the core's `hmacSha256Hex`, with which it signs every delivery.
 */
export function nodeHmacSha256Hex(key: string, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('hex');
}
