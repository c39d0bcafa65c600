const encoder = new TextEncoder();

/**
 * The bytes Web Crypto signs: the UTF-8 encoding of a string, or the given bytes themselves.
 *
 * @example
 * ```ts
 * toByteSource('{"event":"ping"}'); // Uint8Array of 16 bytes
 * ```
 */
export function toByteSource(payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof payload === 'string' ? encoder.encode(payload) : (payload as Uint8Array<ArrayBuffer>);
}
