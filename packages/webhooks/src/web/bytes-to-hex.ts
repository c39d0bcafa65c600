const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Lowercase hex of the bytes, two digits each.
 *
 * @example
 * ```ts
 * bytesToHex(new Uint8Array([0, 171, 255])); // '00abff'
 * ```
 */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += HEX_DIGITS[byte];
  return hex;
}
