const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above this are dropped, so every character is equally likely. */
const UNBIASED_LIMIT = 248;

/**
 * A random string of base62 characters (`[0-9A-Za-z]`) drawn from the given byte source.
 *
 * @example
 * ```ts
 * const token = `sbx_${randomBase62(env.randomBytes, 32)}`;
 * ```
 */
export function randomBase62(randomBytes: (length: number) => Uint8Array, length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length - text.length + 8)) {
      if (byte < UNBIASED_LIMIT && text.length < length) text += ALPHABET[byte % 62];
    }
  }
  return text;
}
