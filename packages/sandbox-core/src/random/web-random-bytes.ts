/**
 * Random bytes from Web Crypto (`globalThis.crypto`), present in Node 20 and every browser; the
 * default byte source of a sandbox core.
 *
 * @example
 * ```ts
 * webRandomBytes(16).length; // 16
 * ```
 */
export function webRandomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}
