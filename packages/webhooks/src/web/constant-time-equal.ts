/**
 * Whether two byte arrays are equal, in time that depends on their length only: every byte is
 * compared and the differences are OR-ed together, with no early exit. Web Crypto offers no
 * comparison of its own, and `crypto.subtle.verify` does not promise constant time everywhere.
 *
 * @example
 * ```ts
 * constantTimeEqual(digest, expected); // true or false
 * ```
 */
export function constantTimeEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index += 1) {
    difference |= (left[index] as number) ^ (right[index] as number);
  }
  return difference === 0;
}
