/** Bytes drawn from the source at once: one call of the source serves many ids and secrets. */
const POOL_BYTES = 4096;

/**
 * A byte source that draws from `source` in blocks of 4 KiB and hands them out in order, each
 * byte once: a call of Web Crypto costs about as much for 4 KiB as for 16 bytes, and a core
 * draws 16 for every delivery id. Requests larger than a block go to `source` directly.
 *
 * @example
 * ```ts
 * const randomBytes = pooledRandomBytes(webRandomBytes);
 * randomBytes(16).length; // 16
 * ```
 */
export function pooledRandomBytes(source: (length: number) => Uint8Array): (length: number) => Uint8Array {
  let pool: Uint8Array = new Uint8Array(0);
  let offset = 0;
  return (length) => {
    if (length > POOL_BYTES) return source(length);
    if (offset + length > pool.length) {
      pool = source(POOL_BYTES);
      offset = 0;
    }
    offset += length;
    return pool.slice(offset - length, offset);
  };
}
