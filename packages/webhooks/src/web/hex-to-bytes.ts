/**
 * The bytes of a string of hex digit pairs. The caller has checked the digits (the signature's
 * pattern), so no digit is invalid here.
 *
 * @example
 * ```ts
 * hexToBytes('00abff'); // Uint8Array [0, 171, 255]
 * ```
 */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}
